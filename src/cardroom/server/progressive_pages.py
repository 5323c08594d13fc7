"""The progressive controller's part of the jackpot page (docs/operations.md, "The progressive
controller"): what the page shows of one pool, and the forms' actions (settings by two people,
verification of a top award by two people, the surveillance check, the payment), each a
sentence to the person when refused. The jackpot router calls these."""

from __future__ import annotations

import csv
import io
import json
from datetime import date, datetime
from typing import Any

from fastapi.responses import Response

from cardroom.digits import whole_number
from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room.money import progressive_funds
from cardroom.room.money.jackpot import DEFAULT_POOL
from cardroom.room.people.accounts import Account
from cardroom.room.play import progressive
from cardroom.room.room import Room
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.settings import GamblingClock
from cardroom.server import cosign


def pool_name(room: Room, requested: str | None) -> str:
    """The pool the page shows: the one asked for, else the room's default (or its first)."""
    if requested:
        room.pool(requested)  # NotFound for a pool the room does not have
        return requested
    return DEFAULT_POOL if DEFAULT_POOL in room.pools or not room.pools else \
        sorted(room.pools)[0]


def context(room: Room, name: str) -> dict[str, Any]:
    """The template's `ctl` (the pool's report), `pools`, `chart` and `describe`."""
    with room.storage.read() as conn:
        data = progressive.report(conn)
        chart = len(progressive.meter_series(conn, name)) > 1
    ctl = next((p for p in data["pools"] if p["pool"] == name), None)
    today = datetime.now(GamblingClock.from_env().zone).date()
    return {"ctl": ctl, "pools": sorted(p["pool"] for p in data["pools"]), "chart": chart,
            "describe": progressive.describe, "today": today.isoformat()}


def whole_cents(text: str, what: str) -> int:
    cents = whole_number(text)
    if cents is None or len(text.strip()) > 3:
        raise CardroomError(f"the {what} is a whole number of cents of each $1, such as 20")
    return cents


def change_settings(room: Room, who: Account, form: dict[str, str]) -> str:
    """Ask the second approver named on the form to sign the settings on their own session."""
    def read() -> tuple[str, dict[str, Any]]:
        room.pool(form["pool"])  # NotFound for a pool the room does not have
        settings = progressive.Settings(
            seed=parse_money(form["seed"]),
            contribution=whole_cents(form["contribution"], "contribution"),
            reserve_rate=whole_cents(form["reserve_rate"], "hidden rate"),
            reserve_limit=parse_money(form["reserve_limit"]),
            maximum=parse_money(form["maximum"]) if form["maximum"].strip() else 0)
        return (f"settings of the pool {form['pool']}: {describe_settings(settings)}; "
                f"why: {form['reason'].strip()[:200]}",
                cosign.settings_payload(form["pool"], settings, form["reason"]))
    return cosign.ask(room, who, "jackpot.settings", read, {cosign.APPROVER: form["second"]})


def describe_settings(s: progressive.Settings) -> str:
    return (f"reset {format_money(s.seed)}, {s.contribution} cents of each $1 to the meter, "
            f"{s.reserve_rate} cents to the hidden reserve up to {format_money(s.reserve_limit)}"
            + (f", maximum prize {format_money(s.maximum)}" if s.maximum else ""))


def deposit(room: Room, who: Account, form: dict[str, str]) -> None:
    """A deposit of the pool's accrued funds to its bank account, from the jackpot page."""
    try:
        on = date.fromisoformat(form["deposited_on"].strip())
    except ValueError:
        raise CardroomError("write the deposit's date as on the slip, such as 2026-11-26") \
            from None
    room.pool(form["pool"])  # NotFound for a pool the room does not have
    cents = parse_money(form["amount"])
    with room.storage.unit() as conn:
        progressive_funds.record_deposit(conn, who, form["pool"], cents, on,
                                         form["deposited_by"], form["reference"])


def verify(room: Room, who: Account, hit_id: int, note: str, second: str) -> str:
    """Ask the second verifier named on the form to sign on their own session."""
    def read() -> tuple[str, dict[str, Any]]:
        with room.storage.read() as conn:
            hit = progressive.get_hit(conn, hit_id)
        return (f"verification of the top award of hand {hit.hand_id} "
                f"({format_money(hit.amount)}): {note.strip()[:200]}",
                {"hit": hit_id, "note": note})
    return cosign.ask(room, who, "jackpot.verify", read, {cosign.VERIFIER: second})


def report_file(room: Room, name: str, kind: str) -> Response:
    """The pool's report as a JSON or CSV download."""
    with room.storage.read() as conn:
        data = progressive.report(conn)
    data["pools"] = [p for p in data["pools"] if p["pool"] == name]
    if kind == "json":
        return Response(json.dumps(data, indent=1), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="jackpot-{name}.json"'})
    out = io.StringIO()
    writer = csv.DictWriter(out, progressive.CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(progressive.csv_rows(data))
    return Response(out.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="jackpot-{name}.csv"'})


def meter_svg(room: Room, name: str) -> Response:
    with room.storage.read() as conn:
        svg = progressive.meter_chart(conn, name)
    if svg is None:
        raise NotFound(f"the pool {name} has no meter history to chart yet")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
