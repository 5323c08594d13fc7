"""Bad input to the web card room (issue 9, "Bad input"; issue 26): ids out of range are
refused in a sentence wherever they come from (a 404 page for a URL, a 400 page for a form,
a message on the table socket), never a 500, and permissions are checked before any lookup;
every malformed table message (binary, too long, not JSON, nested too
deeply) is answered with a plain sentence, audited without flooding the log, and changes
nothing; the socket stays open. SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from room.people import player
from room.rooms import playing_table
from starlette.websockets import WebSocketDisconnect

from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.play.refusals import SUMMARY_ACTION
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.app import COOKIE, create_app
from cardroom.server.frames import MAX_MESSAGE_BYTES
from cardroom.server.routes import ROUTERS
from cardroom.shoe import SeededRandom
from server.forms import PW, cookie_of, logged_in


@pytest.fixture
def room(storage: Storage) -> Room:
    r = Room(storage, SeededRandom(7))
    r.start()
    with storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        alice = player(conn, "alice", PW)
        create_account(conn, "connie", PW, Role.COMPLIANCE)
        buy_chips(conn, SELF_SERVICE, alice, 100_000, "first")
    playing_table(r, owner, "Mini 1", "baccarat")
    return r


def refusals(room: Room) -> list[dict[str, Any]]:
    with room.storage.read() as conn:
        return [e.data for e in audit.entries(conn) if e.action == "refused"]


def books(room: Room) -> dict[str, int]:
    with room.storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        return ledger.balances(conn)


@pytest.mark.parametrize("path", [
    "/hands/2147483648", "/hands/99999999999999999999", "/hands/0", "/hands/-1",
    "/hands/1e3", "/tables/2147483648", "/tables/99999999999999999999", "/tables/x"])
def test_an_id_out_of_range_is_a_404_page(room: Room, path: str) -> None:
    owner = logged_in(room, "olivia")
    r = owner.get(path)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert f"no {path.split('/')[1][:-1]} {path.split('/')[2]}" in r.text
    assert "Traceback" not in r.text and "_id" not in r.text


def test_a_history_file_id_out_of_range_is_a_json_404(room: Room) -> None:
    owner = logged_in(room, "olivia")
    for hand in ("2147483648", "99999999999999999999"):
        r = owner.get(f"/hands/{hand}/history.json")
        assert r.status_code == 404 and r.json() == {"error": f"there is no hand {hand}"}


BEYOND_THE_BOOKS = [2**31, 2**63, 10**20]
"""Ids no key of the books holds: PostgreSQL's `integer` ends below 2^31, SQLite's below
2^63, and 10^20 is beyond both."""
CARRIES_AN_ID = re.compile(r"(_id|_ref|^number)$")


def fields(dependant: Dependant) -> Iterator[tuple[str, Any]]:
    """Where each request field of a route (and of its dependencies) comes from, and it."""
    for where, found in (("path", dependant.path_params), ("query", dependant.query_params),
                         ("body", dependant.body_params)):
        yield from ((where, f) for f in found)
    for inner in dependant.dependencies:
        yield from fields(inner)


def id_fields() -> list[tuple[str, str, str]]:
    """Every request field that carries an id, read from the routes themselves, so that a new
    one cannot be missed: a field named `..._id`, `..._ref` or `number`, or typed int. Each
    as (path, where it comes from, name)."""
    found = []
    for route in (r for router in ROUTERS for r in router.routes):
        assert isinstance(route, APIRoute | APIWebSocketRoute)
        found += [(route.path, where, f.alias) for where, f in fields(route.dependant)
                  if CARRIES_AN_ID.search(f.alias) or int in (f.field_info.annotation,
                                                             int | None)]
    return sorted(found)


def test_the_id_fields_are_found_in_the_routes() -> None:
    """The fields issue 26 names (and the URLs issue 9 did) are among those found."""
    found = {(path, name) for path, _, name in id_fields()}
    named = {(f"/{p}", "table_id") for p in (
        "floor/void", "floor/irregularity", "cage/fill", "cage/credit", "cage/count",
        "floor/inventory/open", "floor/inventory/close", "floor/inventory/drop")}
    named |= {("/cage/fill", "number"), ("/floor/inventory/void", "number"),
              ("/hands/{hand_id}", "hand_id"), ("/tables/{table_id}", "table_id"),
              ("/ws/tables/{table_ref}", "table_ref")}
    assert named <= found


@pytest.mark.parametrize(("path", "where", "name"), id_fields())
def test_every_id_field_refuses_an_id_the_books_cannot_hold(
        room: Room, path: str, where: str, name: str) -> None:
    """Issue 26: an id in a form that no integer key of the books holds was an HTTP 500 (from
    2^63 on SQLite, 2^31 on PostgreSQL). Every field that carries an id, in a path, a query
    string, a form or the table socket's URL, sent 2^31, 2^63 and 10^20 by the owner (who may
    do everything, so no permission stops it first; on the suspicious-activity pages, which
    not even the owner may open, the compliance officer), is refused with a sentence that
    names it, and nothing is written but refusals."""
    cases = path.startswith(("/compliance/cases", "/compliance/alerts"))
    owner = logged_in(room, "connie" if cases else "olivia")
    before = books(room)
    form = {f.alias: "1" for where_, f in fields(route_of(path).dependant) if where_ == "body"}
    for value in map(str, BEYOND_THE_BOOKS):
        url = re.sub(r"\{\w+\}", "1", path.replace(f"{{{name}}}", value))
        if path.startswith("/ws/"):
            with TestClient(create_app(room)) as sockets, \
                    sockets.websocket_connect(url, headers=cookie_of(owner)) as ws:
                assert ws.receive_json() == {"type": "error",
                                             "message": f"there is no open table {value}"}
            continue
        query = {name: value} if where == "query" else None
        if "POST" in getattr(route_of(path), "methods", ()):
            r = owner.post(url, data={**form, **({name: value} if where == "body" else {})},
                           params=query, follow_redirects=False)
        else:
            r = owner.get(url, params=query, follow_redirects=False)
        assert r.status_code == (404 if where == "path" else 400), (url, r.status_code)
        said = r.json()["error"] if url.endswith(".json") else r.text
        refusal = sentence_of(said, value)
        assert "Traceback" not in said and "_id" not in said and "_ref" not in said
        if where != "path":  # a form's refusal is audited, as its other refusals are
            assert refusals(room)[-1]["reason"] == refusal
    assert books(room) == before


def sentence_of(page: str, value: str) -> str:
    """The refusal a page shows for `value`, as the room wrote it."""
    found = re.search(rf"[Tt]here is no [a-z ]+ {value}\b|\b{value} is not a slip number", page)
    assert found is not None
    return found.group(0)[0].lower() + found.group(0)[1:]


def route_of(path: str) -> APIRoute | APIWebSocketRoute:
    return next(r for router in ROUTERS for r in router.routes
                if isinstance(r, APIRoute | APIWebSocketRoute) and r.path == path)


@pytest.mark.parametrize("path", ["/floor/void", "/floor/irregularity", "/floor/act-for"])
def test_a_player_is_refused_before_any_table_is_looked_up(room: Room, path: str) -> None:
    """Issue 26: any logged-in player reached the table lookup of `/floor/void` (and its 500
    for an id out of range). Who may void a hand, or record an irregularity, is checked
    first: a 403 page, audited, whatever the id."""
    alice = logged_in(room, "alice")
    seen = len(refusals(room))
    for table in ["1", *map(str, BEYOND_THE_BOOKS)]:
        r = alice.post(path, data={"table_id": table, "reason": "r", "kind": "misdeal"},
                       follow_redirects=False)
        assert r.status_code == 403 and "a player may not" in r.text, (table, r.status_code)
    assert len(refusals(room)) == seen + 1 + len(BEYOND_THE_BOOKS)


@pytest.mark.parametrize("seat", ["\u00b2", "\u0663", "x"])
def test_a_seat_not_in_ascii_digits_is_refused_in_a_sentence(room: Room, seat: str) -> None:
    """The floor's irregularity form read its seat with `str.isdigit`, which passes "²" and
    Arabic-Indic digits that `int` then fails on: a 500. Refused in a sentence now."""
    owner = logged_in(room, "olivia")
    r = owner.post("/floor/irregularity", data={"table_id": "1", "kind": "misdeal",
                                                "reason": "r", "seat": seat})
    assert r.status_code == 200 and "Choose a seat by its number" in r.text


SUPERSCRIPT_TWO = "\u00b2"
"""A character `str.isdigit` passes and `int` cannot read."""
JACKPOT_SETTINGS = {"pool": "super9", "seed": "3000", "contribution": SUPERSCRIPT_TWO,
                    "reserve_rate": "0", "reserve_limit": "0", "reason": "x",
                    "second": "olivia"}


@pytest.mark.parametrize(("path", "form", "status", "said"), [
    (f"/cards/{SUPERSCRIPT_TWO}.svg", None, 404, "no such card"),
    (f"/audit?table={SUPERSCRIPT_TWO}", None, 400, "The table number must be a whole number."),
    ("/floor/jackpot/settings", JACKPOT_SETTINGS, 400,
     "The contribution is a whole number of cents of each $1, such as 20."),
])
def test_a_number_in_digits_that_are_not_ascii_is_refused_in_a_sentence(
        room: Room, path: str, form: dict[str, str] | None, status: int, said: str) -> None:
    """Issue 26 (bad inputs): numbers read with `str.isdigit` let "²" through to `int`, which
    failed: a 500 for a card image or the jackpot's contribution, the parser's own words on
    the audit page. Every number a person types is read in ASCII digits (`cardroom.digits`)."""
    owner = logged_in(room, "olivia")
    r = owner.post(path, data=form) if form else owner.get(path)
    assert r.status_code == status and said in r.text, (r.status_code, r.text[-300:])


def test_a_form_with_a_field_missing_is_a_page_not_raw_json(room: Room) -> None:
    owner = logged_in(room, "olivia")
    r = owner.post("/floor/void", data={"reason": "no table id"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert "nothing was changed" in r.text and "loc" not in r.text


MALFORMED = [
    ("bytes", b"\x00\x01not text", "binary data, not a table request"),
    ("text", "[" * 2_000 + "]" * 2_000, "nested too deeply"),
    ("text", '{"type":"bet","bets":' + "[" * 50 + "]" * 50 + ',"key":"k"}',
     "nested too deeply"),
    ("text", json.dumps({"type": "bet", "key": "k", "x": "y" * MAX_MESSAGE_BYTES}),
     f"longer than {MAX_MESSAGE_BYTES:,} characters"),
    ("text", '{"type":"sit","buy_in":NaN,"key":"k"}', "it is not a table request"),
    ("text", "{not json", "it is not a table request"),
    ("text", "[]", "it is not a table request"),
    ("text", '{"type":"sit","buy_in":"lots","key":"k"}', "the buy-in is not an amount of money"),
]


@pytest.mark.parametrize(("kind", "frame", "said"), MALFORMED)
def test_a_malformed_message_is_answered_audited_and_changes_nothing(
        room: Room, kind: str, frame: Any, said: str) -> None:
    alice = logged_in(room, "alice")
    before, seen = books(room), len(refusals(room))
    headers = {"cookie": f"{COOKIE}={alice.cookies[COOKIE]}"}
    with TestClient(create_app(room)) as sockets, \
            sockets.websocket_connect("/ws/tables/1", headers=headers) as ws:
        assert ws.receive_json()["type"] == "state"
        if kind == "bytes":
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        reply = ws.receive_json()
        assert reply["type"] == "error" and said in reply["message"]
        assert reply["message"].startswith("the table could not read that request: ")
        ws.send_json({"type": "sit", "buy_in": 20_000, "key": "s"})  # the socket still serves
        assert ws.receive_json()["you"]["seated"]
    after = books(room)
    moved = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    assert sorted(moved.values()) == [-20_000, 20_000]  # the sit only: wallet to stack
    logged = refusals(room)[seen:]
    assert len(logged) == 1 and said in logged[0]["reason"]


@pytest.mark.parametrize("ref", ["x", "0", "-1", "1e3", "99999999999999999999",
                                 "2147483648", "\u0661"])
def test_a_table_socket_that_names_no_table_is_told_so(room: Room, ref: str) -> None:
    """`/ws/tables/x` used to fail the handshake with no word; now the socket opens, says in
    one sentence that there is no such table, audits the refusal and closes."""
    alice = logged_in(room, "alice")
    seen = len(refusals(room))
    headers = {"cookie": f"{COOKIE}={alice.cookies[COOKIE]}"}
    with TestClient(create_app(room)) as sockets, \
            sockets.websocket_connect(f"/ws/tables/{ref}", headers=headers) as ws:
        assert ws.receive_json() == {"type": "error", "message": f"there is no open table {ref}"}
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert [r["reason"] for r in refusals(room)[seen:]] == [f"there is no open table {ref}"]


def test_a_flood_of_junk_is_answered_but_audited_as_a_count(room: Room) -> None:
    """One client sending junk writes the first few refusals and one summary with the count,
    not one audit entry per message (it wrote 1,740 a second before)."""
    alice = logged_in(room, "alice")
    before, seen = books(room), len(refusals(room))
    headers = {"cookie": f"{COOKIE}={alice.cookies[COOKIE]}"}
    sent = 300
    with TestClient(create_app(room)) as sockets, \
            sockets.websocket_connect("/ws/tables/1", headers=headers) as ws:
        ws.receive_json()
        for i in range(sent):
            if i % 3 == 0:
                ws.send_bytes(b"junk")
            elif i % 3 == 1:
                ws.send_text("junk")
            else:
                ws.send_json({"type": "bet", "bets": {"banker": -5}, "key": str(i)})
            assert ws.receive_json()["type"] == "error"
    assert books(room) == before
    logged = refusals(room)[seen:]
    summary = [e for e in logged if e["action"] == SUMMARY_ACTION]
    assert len(summary) == 1 and len(logged) <= 6
    assert summary[0]["count"] + len(logged) - 1 == sent
    assert sum(summary[0]["actions"].values()) == summary[0]["count"]


def test_a_server_defect_is_answered_logged_and_the_socket_stays(
        room: Room, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Not a refusal but a bug (here a deal that raises ZeroDivisionError): the sender is told
    in a sentence, the traceback is logged, nothing changes, and the socket keeps serving."""
    def broken(*_: object) -> None:
        raise ZeroDivisionError("a defect")

    monkeypatch.setattr(type(room.table(1)), "deal", broken)
    alice = logged_in(room, "alice")
    before = books(room)
    headers = {"cookie": f"{COOKIE}={alice.cookies[COOKIE]}"}
    with TestClient(create_app(room)) as sockets, \
            sockets.websocket_connect("/ws/tables/1", headers=headers) as ws:
        ws.receive_json()
        ws.send_json({"type": "deal"})
        reply = ws.receive_json()
        assert reply["type"] == "error" and "could not handle" in reply["message"]
        assert "ZeroDivisionError" not in reply["message"]
        ws.send_json({"type": "sit", "buy_in": 20_000, "key": "s"})
        assert ws.receive_json()["you"]["seated"]
    assert "ZeroDivisionError" in caplog.text
    assert sum(books(room).values()) == sum(before.values())
    assert refusals(room)[-1]["reason"].startswith("the server could not handle")
