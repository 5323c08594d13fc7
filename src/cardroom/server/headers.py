"""Security headers on every HTTP response (pages, static files, errors): a Content-Security-Policy
that admits only the room's own scripts, styles, images and sockets (no inline script, no
framing), nosniff, and a same-origin referrer; Strict-Transport-Security when the room is
served over TLS (`cardroom serve --secure-cookies`)."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000"


class SecurityHeaders:
    """ASGI middleware: add the headers to each response as it starts."""

    def __init__(self, app: ASGIApp, *, tls: bool = False) -> None:
        self.app = app
        self.headers = {**HEADERS, **({"Strict-Transport-Security": HSTS} if tls else {})}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
