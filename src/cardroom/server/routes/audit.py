"""The audit page: the log, newest first, filtered, and the chain checked."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import select

from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play.tables import list_tables
from cardroom.room.storage import audit
from cardroom.room.storage.schema import accounts
from cardroom.server.audit_view import (
    AUDIT_PAGE,
    AuditProgress,
    Names,
    audit_filter,
    detail_fields,
    page_link,
    page_start,
)
from cardroom.server.deps import Render, RoomDep, require

router = APIRouter()


@router.get("/audit", response_class=HTMLResponse)
def audit_page(request: Request, room: RoomDep, page: Render,
               who: Annotated[Account, require(Permission.READ_ALL)]) -> HTMLResponse:
    """The log, newest first across the room's chains (`audit.find`), a page at a time and
    filtered, each entry with the chain (the process) that wrote it; the chain checked from
    where the last check ended (the whole of it on request, or when nothing was checked
    yet)."""
    audit_seen = cast(AuditProgress, request.app.state.audit_seen)
    q = request.query_params
    try:
        wanted, before = audit_filter(q), page_start(q.get("before"))
    except ValueError as exc:
        wanted, before, error = audit.Filter(), None, str(exc)
    else:
        error = ""
    full = q.get("verify") == "full"
    with room.storage.snapshot() as conn:
        report = audit_seen.check(conn, room.storage.audit_key, full)
        shown = audit.find(conn, wanted, before, AUDIT_PAGE)
        writers = audit.writers(conn)
        names = {t.id: t.name for t in list_tables(conn)}
        people = {r.id: r.username for r in conn.execute(
            select(accounts.c.id, accounts.c.username))}
    older = None if shown.older is None else page_link(shown.older)
    return page("audit.html", who, 400 if error else 200, report=report,
                entries=shown.entries, wanted=wanted, older=older, paged=before is not None,
                last_full=audit_seen.last_full, error=error, table_names=names,
                writers=writers, fields=lambda e: detail_fields(e, Names(names, people)),
                query={k: v for k, v in q.items() if k not in ("before", "verify")})
