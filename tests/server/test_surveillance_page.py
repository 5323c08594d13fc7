"""The surveillance queue page (WAC 230-15-320(4)): staff with the surveillance duty only; a
held payout decided from it, each refusal one sentence that changes nothing and is audited.
On SQLite and PostgreSQL."""

from __future__ import annotations

from room.people import make_people
from room.rooms import books, playing_table, refused_count, rig_coup

from cardroom.cards import parse_cards
from cardroom.room.books.cashier import buy_chips
from cardroom.room.compliance import surveillance
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .forms import logged_in


def held_room(storage: Storage) -> tuple[Room, dict[str, Account], surveillance.Held]:
    """Alice's $300 Banker 9 on a suited nine at 12 to 1: $3,600 held for surveillance."""
    room = Room(storage, SeededRandom(3))
    room.start()
    with storage.unit() as conn:
        people = make_people(conn, (
            ("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("alice", Role.PLAYER),
            ("dan", Role.DEALER), ("audrey", Role.AUDITOR)))
        buy_chips(conn, SELF_SERVICE, people["alice"], 100_000, "k")
    t = playing_table(room, people["olivia"], "High 1", "baccarat",
                      {"paytable": 2, "bonus_max_cents": 30_000}).table_id
    room.act(people["alice"], t, {"type": "sit", "buy_in": 100_000, "key": "s"})
    room.act(people["alice"], t, {"type": "bet", "bets": {"banker": 500, "banker_9": 30_000},
                                  "key": "b"})
    rig_coup(room, t, parse_cards("2c 4s 3d 5s"))
    room.act(people["alice"], t, {"type": "deal"})
    with storage.read() as conn:
        [held] = surveillance.waiting(conn)
    return room, people, held


def test_wac_230_15_320_4_the_queue_is_for_the_surveillance_duty_only(storage: Storage
                                                                      ) -> None:
    room, _, held = held_room(storage)
    for name in ("alice", "dan"):
        r = logged_in(room, name).get("/floor/surveillance")
        assert r.status_code == 403 and "may not see the surveillance queue" in r.text
    for name in ("fiona", "audrey", "olivia"):
        page = " ".join(logged_in(room, name).get("/floor/surveillance").text.split())
        assert f'id="held-{held.id}"' in page and "Banker 9 $300.00 won $3,600.00" in page


def test_wac_230_15_320_4_a_refused_decision_is_one_sentence_and_changes_nothing(
        storage: Storage) -> None:
    room, _, held = held_room(storage)
    fiona = logged_in(room, "fiona")
    before, seen = books(storage), refused_count(storage)
    r = fiona.post(f"/floor/surveillance/{held.id}/verify", data={"note": " "})
    assert r.status_code == 400 and "Write what surveillance saw" in r.text
    r = fiona.post("/floor/surveillance/999/refuse", data={"note": "camera 2"})
    assert r.status_code == 404 and "There is no held payout 999." in r.text
    r = logged_in(room, "dan").post(f"/floor/surveillance/{held.id}/verify",
                                    data={"note": "fine"})
    assert r.status_code == 403
    assert books(storage) == before and refused_count(storage) == seen + 3
    r = fiona.post(f"/floor/surveillance/{held.id}/verify", data={"note": "camera 2"},
                   follow_redirects=False)
    assert r.status_code == 303
    assert books(storage)[ledger.held(held.table_id)] == 0


def test_wac_230_15_320_4_the_audit_page_reads_the_held_account_in_words(storage: Storage
                                                                         ) -> None:
    room, _, _ = held_room(storage)
    page = " ".join(logged_in(room, "olivia").get("/audit?kind=ledger.tx").text.split())
    assert "the payouts held for surveillance at High 1 +$3,900.00" in page
    page = " ".join(logged_in(room, "olivia").get("/audit?kind=payout.held").text.split())
    assert "payout.held" in page
