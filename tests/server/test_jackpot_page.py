"""The jackpot page: the daily posting report, and the two-person adjustment (Super-9: the pool
only drops by an award or a logged adjustment approved by two people; issue 23: the second
accepts it on their own session)."""

from __future__ import annotations

from room.rooms import playing_table

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient, cosigned

SEED = 250_000  # the default Super-9 seed, $2,500


def adjust(room: Room, client: FormClient, second: str, amount: str = "10",
           direction: str = "add", key: str = "k1") -> int:
    """The status of the adjustment asked of `second`, who accepts it on their own session
    (that of the redirect after they sign; of the page when it was refused)."""
    return cosigned(room, client.post("/floor/jackpot/adjust", data={
        "direction": direction, "amount": amount, "reason": "meter misread on Monday",
        "second": second, "key": key}, follow_redirects=False), second).status_code


def jackpot_room(storage: Storage) -> tuple[Room, FormClient]:
    """A room with a baccarat table (which creates and seeds the pool), two floor
    supervisors, a player and the auditor; and fred's browser, logged in."""
    room = Room(storage, SeededRandom(5))
    room.start()
    with storage.unit() as conn:
        owner = create_account(conn, "olga", PW, Role.OWNER)
        for name, role in (("fred", Role.FLOOR), ("fiona", Role.FLOOR),
                           ("alice", Role.PLAYER), ("audrey", Role.AUDITOR)):
            create_account(conn, name, PW, role)
    playing_table(room, owner, "Mini 1", "baccarat")
    fred = FormClient(create_app(room))
    fred.post("/login", data={"username": "fred", "password": PW})
    return room, fred


def test_two_person_adjustment_and_posting_report(storage: Storage) -> None:
    room, fred = jackpot_room(storage)
    assert "Meter" in fred.get("/floor/jackpot").text
    assert adjust(room, fred, "fred") == 400  # the same person twice
    assert adjust(room, fred, "alice") == 400  # a player may not approve: not staff
    assert adjust(room, fred, "audrey") == 403  # an auditor may not approve
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.jackpot("super9")) == SEED
    assert adjust(room, fred, "fiona") == 303
    assert adjust(room, fred, "fiona") == 303  # the same form sent again: applied once
    assert adjust(room, fred, "fiona", "20000", "remove", "k2") == 400  # below zero: refused
    fred.post("/floor/jackpot/post")
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.jackpot("super9")) == SEED + 1_000
        assert ledger.trial_balance(conn).ok
        entry = [e for e in audit.entries(conn) if e.action == "jackpot.adjust"]
    assert len(entry) == 1 and entry[0].data["approvers"] == ["fred", "fiona"]
    assert room.pools["super9"].posted == SEED + 1_000
    report = fred.get("/floor/jackpot").text
    assert "posted for" in report and "fred + fiona: meter misread on Monday" in report
    auditor = FormClient(create_app(room))
    auditor.post("/login", data={"username": "audrey", "password": PW})
    assert auditor.get("/floor/jackpot").status_code == 200
    assert adjust(room, auditor, "fiona", key="k3") == 403
    player = FormClient(create_app(room))
    player.post("/login", data={"username": "alice", "password": PW})
    assert player.get("/floor/jackpot").status_code == 403


def test_an_adjustment_is_bounded_like_every_money_form(storage: Storage) -> None:
    """Issue 26: two people added $123,456,789,012 to the meter. An adjustment either way is
    at most what one form may carry ($1,000,000: a typing error, not a transfer), as a slip,
    a count or a buy-in is; refused in one sentence, nothing moved."""
    room, fred = jackpot_room(storage)
    for amount, direction, key in (("123,456,789,012", "add", "k1"),
                                   ("1,000,000.01", "add", "k2"),
                                   ("1,000,000.01", "remove", "k3")):
        r = fred.post("/floor/jackpot/adjust", data={
            "direction": direction, "amount": amount, "reason": "meter misread",
            "second": "fiona", "key": key}, follow_redirects=False)
        assert r.status_code == 400
        assert "is more than one form may carry ($1,000,000.00)" in r.text
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.jackpot("super9")) == SEED
        assert not [e for e in audit.entries(conn) if e.action == "jackpot.adjust"]
    assert room.pools["super9"].meter == SEED
    assert adjust(room, fred, "fiona", "1,000,000", key="k4") == 303  # the bound passes
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.jackpot("super9")) == SEED + 100_000_000
