"""The progressive's pool: the daily posting, its page and the two-person adjustment; the
progressive controller (settings by two people, pending top awards verified, checked by
surveillance and paid, the meter's chart and the report files; `server/progressive_pages.py`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room import audit, ledger
from cardroom.room.accounts import Account, Permission
from cardroom.room.errors import NotFound, PermissionDenied
from cardroom.room.jackpot import DEFAULT_POOL, post_daily
from cardroom.room.jackpot import adjust as adjust_jackpot
from cardroom.room.pan_fees import fees_collected
from cardroom.room.room import Room
from cardroom.room.tables import list_tables
from cardroom.server import progressive_pages
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


def jackpot_page(page: Page, room: Room, who: Account, status: int = 200, error: str = "",
                 pool_name: str | None = None) -> HTMLResponse:
    """The page; `error` is a refusal said here and now (a form's message after its redirect
    comes from the flash)."""
    pool = room.pools.get(DEFAULT_POOL)
    controller = progressive_pages.context(room, progressive_pages.pool_name(room, pool_name))
    with room.storage.read() as conn:
        held = ledger.balance(conn, ledger.jackpot(DEFAULT_POOL))
        report = [e for e in audit.entries(conn, newest_first=True)
                  if e.action in ("jackpot.post", "jackpot.adjust", "jackpot.seed")][:100]
        fees = fees_collected(conn)[:100]
        names = {t.id: t.name for t in list_tables(conn)}
    return page("jackpot.html", who, status, pool_name=DEFAULT_POOL, pool=pool, held=held,
                report=report, fees=fees, table_names=names, key=secrets.token_urlsafe(12),
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
                   second_password: str = Form(...), key: str = Form(...)) -> Response:
    """The second approver confirms with their own password, on the same form."""
    try:
        pool = room.pools.get(DEFAULT_POOL)
        if pool is None:
            raise CardroomError("no jackpot pool yet")
        if direction not in ("add", "remove"):
            raise CardroomError("choose to add to or take from the meter")
        cents = parse_money(amount) * (1 if direction == "add" else -1)
        other = progressive_pages.second_person(room, who, second, second_password)
        with room.storage.unit() as conn:
            adjust_jackpot(conn, who, other, DEFAULT_POOL, pool, cents, reason.strip(),
                           key[:60])
    except PermissionDenied as exc:
        room.refused(who, "jackpot.adjust", str(exc))
        return jackpot_page(page, room, who, 403, error=str(exc))
    except CardroomError as exc:
        room.refused(who, "jackpot.adjust", str(exc))
        return jackpot_page(page, room, who, 400, error=str(exc))
    return Flash("/floor/jackpot", message="adjusted")


# the progressive controller ----------------------------------------------------------------
def controller_action(page: Page, room: Room, who: Account, action: str,
                      do: Callable[[], object], pool: str | None = None) -> Response:
    """Run one controller form; a refusal is audited and shown on the page, one sentence."""
    try:
        do()
    except PermissionDenied as exc:
        room.refused(who, action, str(exc))
        return jackpot_page(page, room, who, 403, error=str(exc), pool_name=pool)
    except CardroomError as exc:
        room.refused(who, action, str(exc))
        return jackpot_page(page, room, who, 400, error=str(exc), pool_name=pool)
    return Flash("/floor/jackpot" + ("?" + urlencode({"pool": pool}) if pool else ""),
                 message="done: " + action.removeprefix("jackpot."))


@router.post("/floor/jackpot/settings", response_model=None)
def jackpot_settings(room: RoomDep, page: Render, who: Adjuster,
                     pool: str = Form(...), seed: str = Form(...),
                     contribution: str = Form(...), reserve_rate: str = Form(...),
                     reserve_limit: str = Form(...), maximum: str = Form(""),
                     reason: str = Form(...),
                     second: str = Form(...), second_password: str = Form(...)) -> Response:
    """The controller's settings, changed by two people (the second with their password)."""
    form = {"pool": pool, "seed": seed, "contribution": contribution,
            "reserve_rate": reserve_rate, "reserve_limit": reserve_limit, "maximum": maximum,
            "reason": reason, "second": second, "second_password": second_password}
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
                   note: str = Form(...), second: str = Form(...),
                   second_password: str = Form(...)) -> Response:
    """A floor supervisor and a second member of staff verify a pending top award."""
    return controller_action(page, room, who, "jackpot.verify", lambda: (
        progressive_pages.verify(room, who, hit_id, note, second, second_password)))


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
