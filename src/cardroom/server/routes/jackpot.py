"""The progressive's pool: the daily posting, its page and the two-person adjustment; the
progressive controller (settings by two people, pending top awards verified, checked by
surveillance and paid, the meter's chart and the report files; `server/progressive_pages.py`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room.money import ledger
from cardroom.room.money.jackpot import DEFAULT_POOL, post_daily
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play.tables import list_tables
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.server import cosign, progressive_pages
from cardroom.server.deps import Page, Render, RoomDep, Viewer, require
from cardroom.server.flash import Flash
from cardroom.server.ids import HitId
from cardroom.server.routes.floor import floor_back

router = APIRouter()


@router.post("/floor/jackpot/post", response_model=None)
def jackpot_post(room: RoomDep, who: Viewer) -> Response:
    """The daily posting of every pool (linked tables included)."""
    if not room.pools:
        return floor_back(error="no jackpot pool yet")
    with room.storage.unit() as conn:
        for name, pool in sorted(room.pools.items()):
            post_daily(conn, who, name, pool, datetime.now(UTC).date())
    return floor_back(message="jackpot posted at " + ", ".join(
        format_money(pool.posted) if name == DEFAULT_POOL else
        f"{format_money(pool.posted)} ({name})" for name, pool in sorted(room.pools.items())))


def fees_collected(conn: Connection) -> list[Any]:
    """The fees collected at the tables, each game's that collects any (its registry entry's
    `fees`) in turn, newest day first."""
    lines: list[Any] = []
    for game in registry.games():
        if game.fees is not None:
            collected = registry.load(game.fees)
            assert callable(collected)
            lines += collected(conn)
    return lines


def jackpot_page(page: Page, room: Room, who: Account, status: int = 200, error: str = "",
                 pool_name: str | None = None) -> HTMLResponse:
    """The page; `error` is a refusal said here and now (a form's message after its redirect
    comes from the flash)."""
    pool = room.pools.get(DEFAULT_POOL)
    controller = progressive_pages.context(room, progressive_pages.pool_name(room, pool_name))
    with room.storage.read() as conn:
        held = ledger.balance(conn, ledger.jackpot(DEFAULT_POOL))
        report = list(audit.merged(conn, ("jackpot.post", "jackpot.adjust",
                                          "jackpot.seed")))[:-101:-1]
        fees = fees_collected(conn)[:100]
        names = {t.id: t.name for t in list_tables(conn)}
    return page("jackpot.html", who, status, pool_name=DEFAULT_POOL, pool=pool, held=held,
                report=report, fees=fees, fees_name=registry.fees_name(), table_names=names,
                key=secrets.token_urlsafe(12),
                **({"error": error} if error else {}), **controller)


Reader = Annotated[Account, require(Permission.ADJUST_JACKPOT, Permission.READ_ALL,
                                   Permission.CAGE, to="see the jackpot page")]
Adjuster = Annotated[Account, require(Permission.ADJUST_JACKPOT)]


@router.get("/floor/jackpot", response_class=HTMLResponse)
def jackpot_view(room: RoomDep, page: Render, who: Reader, pool: str | None = None
                 ) -> HTMLResponse:
    """The pool, its daily posting report, the two-person adjustment form, and the
    progressive controller of `pool` (settings, meters, hits, chart)."""
    return jackpot_page(page, room, who, pool_name=pool)


@router.post("/floor/jackpot/adjust", response_model=None)
def jackpot_adjust(room: RoomDep, page: Render,
                   who: Annotated[Account, require(Permission.ADJUST_JACKPOT)],
                   direction: str = Form(...), amount: str = Form(...),
                   reason: str = Form(...), second: str = Form(...),
                   key: str = Form(...)) -> Response:
    """The second approver named here accepts the adjustment on their own session."""
    def form() -> tuple[str, dict[str, Any]]:
        if room.pools.get(DEFAULT_POOL) is None:
            raise CardroomError("no jackpot pool yet")
        if direction not in ("add", "remove"):
            raise CardroomError("choose to add to or take from the meter")
        cents = parse_money(amount) * (1 if direction == "add" else -1)
        return (f"jackpot adjustment: {'add' if cents > 0 else 'take'} "
                f"{format_money(abs(cents))} {'to' if cents > 0 else 'from'} the meter; why: "
                f"{reason.strip()[:200]}", {"amount": cents, "reason": reason.strip(),
                                            "key": key[:60]})
    return controller_action(page, room, who, "jackpot.adjust", lambda: cosign.ask(
        room, who, "jackpot.adjust", form, {cosign.APPROVER: second}))


ASKED = frozenset(k for k in cosign.KINDS if k.startswith("jackpot."))
"""The jackpot's forms that ask a second person to sign (`cosign.ask` audits their refusals)."""


# the progressive controller ----------------------------------------------------------------
def controller_action(page: Page, room: Room, who: Account, action: str,
                      do: Callable[[], object], pool: str | None = None) -> Response:
    """Run one controller form; a refusal is audited and shown on the page, one sentence (a
    form that asks for a signature audits its own refusal); what `do` says, if anything, is
    the message."""
    try:
        said = do()
    except CardroomError as exc:
        if action not in ASKED:
            room.refused(who, action, str(exc))
        status = 403 if isinstance(exc, PermissionDenied) else 400
        return jackpot_page(page, room, who, status, error=str(exc), pool_name=pool)
    return Flash("/floor/jackpot" + ("?" + urlencode({"pool": pool}) if pool else ""),
                 message=said if isinstance(said, str) else
                 "done: " + action.removeprefix("jackpot."))


@router.post("/floor/jackpot/settings", response_model=None)
def jackpot_settings(room: RoomDep, page: Render, who: Adjuster,
                     pool: str = Form(...), seed: str = Form(...),
                     contribution: str = Form(...), reserve_rate: str = Form(...),
                     reserve_limit: str = Form(...), maximum: str = Form(""),
                     reason: str = Form(...), second: str = Form(...)) -> Response:
    """The controller's settings, changed by two people (the second accepts them on their
    own session)."""
    form = {"pool": pool, "seed": seed, "contribution": contribution,
            "reserve_rate": reserve_rate, "reserve_limit": reserve_limit, "maximum": maximum,
            "reason": reason, "second": second}
    return controller_action(page, room, who, "jackpot.settings", lambda: (
        progressive_pages.change_settings(room, who, form)), pool)


@router.post("/floor/jackpot/deposit", response_model=None)
def jackpot_deposit(room: RoomDep, page: Render,
                    who: Annotated[Account, require(Permission.CAGE)],
                    pool: str = Form(...), amount: str = Form(...),
                    deposited_on: str = Form(...), deposited_by: str = Form(...),
                    reference: str = Form(...)) -> Response:
    """The cage records a deposit of the pool's accrued funds to its bank account (WAC
    230-15-455: at least weekly)."""
    form = {"pool": pool, "amount": amount, "deposited_on": deposited_on,
            "deposited_by": deposited_by, "reference": reference}
    return controller_action(page, room, who, "jackpot.deposit", lambda: (
        progressive_pages.deposit(room, who, form)), pool)


@router.post("/floor/jackpot/hits/{hit_id}/verify", response_model=None)
def jackpot_verify(room: RoomDep, page: Render, who: Viewer, hit_id: HitId,
                   note: str = Form(...), second: str = Form(...)) -> Response:
    """A floor supervisor and a second member of staff verify a pending top award (the second
    accepts on their own session)."""
    return controller_action(page, room, who, "jackpot.verify", lambda: (
        progressive_pages.verify(room, who, hit_id, note, second)))


@router.post("/floor/jackpot/hits/{hit_id}/surveillance", response_model=None)
def jackpot_surveillance(room: RoomDep, page: Render, who: Viewer, hit_id: HitId,
                         note: str = Form(...)) -> Response:
    """The surveillance check of a hit (required before paying a win over $3,000)."""
    return controller_action(page, room, who, "jackpot.surveillance", lambda: (
        room.jackpot_surveillance(who, hit_id, note)))


@router.post("/floor/jackpot/hits/{hit_id}/pay", response_model=None)
def jackpot_pay(room: RoomDep, page: Render, who: Adjuster, hit_id: HitId) -> Response:
    return controller_action(page, room, who, "jackpot.pay", lambda: (
        room.pay_jackpot(who, hit_id)))


@router.get("/floor/jackpot/meter.svg", response_model=None)
def jackpot_chart(room: RoomDep, who: Reader, pool: str | None = None) -> Response:
    """The meter over time, an SVG drawn on the server (matplotlib)."""
    return progressive_pages.meter_svg(room, progressive_pages.pool_name(room, pool))


@router.get("/floor/jackpot/report.{kind}", response_model=None)
def jackpot_report(room: RoomDep, who: Reader, kind: str, pool: str | None = None
                   ) -> Response:
    """The controller's report of one pool as a JSON or CSV file."""
    if kind not in ("json", "csv"):
        raise NotFound("the jackpot report is a .json or a .csv file")
    return progressive_pages.report_file(room, progressive_pages.pool_name(room, pool), kind)
