"""Issue 23, "Pages for a shift, not forms": the floor's pit screen shows of every table its
state, limits, dealer, seats, the hand in play (who is to act, for how long), its books over
the shift so far, the signatures and surveillance verifications it waits for, and which floor
actions apply (`room.floor_view`: `pit_card` a pure function of the facts `gather` reads)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cardroom.room.books import table_books
from cardroom.room.books.operations_report import games_report
from cardroom.room.books.table_books import Slip, SoFar
from cardroom.room.compliance.surveillance import Held, Payout
from cardroom.room.money import ledger
from cardroom.room.people import approvals
from cardroom.room.play.protocol_state import VoidedHand
from cardroom.room.play.tables import TableRow, list_tables
from cardroom.room.storage.db import Storage
from cardroom.room.views.floor_view import (
    LastSaid,
    Live,
    Seat,
    TableFacts,
    gather,
    live_json,
    live_of_json,
    pit_card,
)

from .cage_books import opened
from .rooms import start_round, super_pan_9_room

NOW = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)
ROW = TableRow(4, "Nine 1", "super-pan-9", {}, "open")
NOTHING = SoFar(0, 0, 0, 0)


def opener(dealer: str = "dan") -> Slip:
    return Slip(1, "inventory", 7, "opener", ROW.id, 0, None, None, NOW, None, dealer, "fiona",
                "", "valid", None, None)


def live(**changes: object) -> Live:
    facts: dict[str, object] = dict(
        seats=(Seat(1, "alice"), Seat(3, "bob", away=True)), max_seats=4, hand_id=None,
        hand_number=None, to_act=None, seconds_left=None, dealt_by="", last=None,
        irregularities=True)
    return Live(**{**facts, **changes})  # type: ignore[arg-type]


def facts(**changes: object) -> TableFacts:
    base: dict[str, object] = dict(
        row=ROW, live=live(), opener=opener(), closed=False, ever_inventoried=True,
        banked=True, books=NOTHING, approvals=(), held=(), limits="Each hand: $5.00 to $300.00.")
    return TableFacts(**{**base, **changes})  # type: ignore[arg-type]


def asked(kind: str, waiting_on: str) -> approvals.Approval:
    return approvals.Approval(
        9, kind, "fiona", f"{kind} of Nine 1: counted $0.00", {"table": ROW.id}, NOW, NOW,
        "pending", None, None, (approvals.Signer("dealer", waiting_on, 5, None),))


def test_an_open_table_shows_its_seats_free_seats_dealer_and_limits() -> None:
    card = pit_card(facts())
    assert (card.state, card.state_words, card.state_note) == (
        "open", "Open", "opener number 7")
    assert card.game == "Super Pan 9" and card.limits == "Each hand: $5.00 to $300.00."
    assert card.dealer == "dan"  # who signed the opener, before anyone deals
    assert [(s.number, s.name, s.away) for s in card.seats] == [
        (1, "alice", False), (3, "bob", True)]
    assert card.free == (2, 4) and card.players == 2 and card.free_words == "2, 4"
    wide = pit_card(facts(live=live(max_seats=9, seats=(Seat(4, "alice"),))))
    assert wide.free_words == "1 to 3, 5 to 9"
    assert pit_card(facts(live=live(max_seats=3, seats=()))).free_words == "1 to 3"
    assert pit_card(facts(live=live(max_seats=3, seats=(Seat(3, "bob"),)))).free_words == \
        "1 and 2"
    assert (card.hand, card.to_act, card.may_close, card.may_open) == (None, None, True, False)
    assert card.may_move_chips


def test_the_hand_in_play_names_who_is_to_act_and_the_seconds_left() -> None:
    """Issue 23, action timers: the pit shows whose decision the hand waits for and for how
    long; the table cannot close while a hand is in play. The dealer is the one who signed
    the opener; at a table with no inventory, who dealt the hand."""
    card = pit_card(facts(live=live(hand_id=12, hand_number=3, to_act="alice",
                                    seconds_left=41, dealt_by="gus")))
    assert card.hand_title == "Hand 12 (table's hand 3)"
    assert (card.to_act, card.seconds_left, card.dealer) == ("alice", 41, "dan")
    assert not card.may_close and card.irregularities
    assert pit_card(facts(opener=None, live=live(dealt_by="gus"))).dealer == "gus"


def test_states_open_closed_awaiting_an_opener() -> None:
    """WAC 230-15-495: a house-banked table plays only on a signed opener; a table never
    opened, or whose opener waits for the dealer's signature, awaits it; one closed since
    is closed; a player-dealt table keeps no inventory and is open."""
    never = pit_card(facts(opener=None, closed=True, ever_inventoried=False))
    assert (never.state, never.state_words) == ("awaiting-opener", "Awaiting its opener")
    assert never.may_open and not never.may_close and not never.may_move_chips
    waiting = pit_card(facts(opener=None, closed=True, approvals=(asked("open", "dan"),)))
    assert waiting.state == "awaiting-opener"
    assert waiting.state_note == "the opener waits for dan's signature"
    assert not waiting.may_open  # one opener asked at a time
    assert waiting.waiting == ("open of Nine 1: counted $0.00 (asked by fiona; waiting for "
                               "dan)",)
    closed = pit_card(facts(opener=None, closed=True))
    assert (closed.state, closed.may_open) == ("closed", True)
    pan = pit_card(facts(row=TableRow(5, "Pan 1", "pan", {}, "open"), opener=None,
                         banked=False))
    assert (pan.state, pan.state_note) == ("open", "player-dealt: no tray to count")
    assert not pan.may_move_chips and not pan.may_close
    assert pan.books is None  # no tray: no drop, fills, credits or win to show
    gone = pit_card(facts(live=None, opener=None, closed=True))
    assert (gone.state, gone.seats, gone.free, gone.may_open) == ("closed", (), (), False)


def test_the_last_hand_and_payouts_held_for_surveillance() -> None:
    last = VoidedHand(hand=12, number=3, voided=True, by="fiona", reason="spilled drink")
    held = Held(1, ROW.id, ROW.name, 12, 2, "alice",
                Payout(2, "wager", 1_000, 400_000, 20_000, "tray:4"), NOW, "held", None, None,
                None)
    card = pit_card(facts(live=live(last=last), held=(held,)))
    assert card.last == "Hand 12 (table's hand 3) voided by fiona: spilled drink"
    assert card.last_hand == 12
    # returned = stake $10 + win $4,000 - commission $200
    assert card.verifications == ("alice's payout of $3,810.00 (hand 12) waits for "
                                  "surveillance",)


def test_the_books_so_far_are_the_games_report_s(storage: Storage) -> None:
    """The pit's drop, fills, credits and win over the shift so far: the fill of $5,000, a
    credit of $1,000 and $100 bought at the table are what the test did; after the close the
    win is the games report's (its identity: closer - opener + credits - fills + drop)."""
    room, p, t = opened(storage)  # Mini 1 opened on $0 and filled with $5,000
    with room.storage.unit() as conn:
        table_books.drop_buy_in(conn, p["dan"], t, p["alice"], 10_000, "buy-1")
        table_books.credit(conn, t, p["cathy"], p["dan"], p["fiona"], 100_000)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 2_000}, "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    clock = room.settings.clock
    with storage.unit() as conn:
        approvals.ask(conn, p["cathy"], "fill", "fill slip: $50.00 to Mini 1",
                      {"table": t, "amount": 5_000, "number": None},
                      {"dealer": p["dan"], "floor": p["gus"]})
        [mini] = [pit_card(f) for f in gather(conn, room.tables, clock, datetime.now(UTC),
                                              list_tables(conn))]
    assert mini.books is not None
    assert (mini.books.drop, mini.books.fills, mini.books.credits) == (10_000, 500_000, 100_000)
    assert mini.waiting == ("fill slip: $50.00 to Mini 1 (asked by cathy; waiting for dan "
                            "and gus)",)
    assert mini.limits.startswith("Player and Banker: $5.00 to $300.00")
    with storage.read() as conn:
        tray = ledger.balance(conn, ledger.tray(t))
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], tray - 500))
    now = datetime.now(UTC)
    with storage.read() as conn:
        [after] = [pit_card(f) for f in gather(conn, room.tables, clock, now,
                                               list_tables(conn))]
        report = games_report(conn, clock, clock.day_of(now))
    [line] = report.shifts[clock.shift_of(now)]
    assert line.variance == -500  # counted $5 short of the books
    assert after.books is not None
    assert (after.state, after.books.win) == ("closed", line.win)
    assert (after.books.drop, after.books.fills, after.books.credits) == (
        line.drop, line.fills, line.credits)


def test_a_timed_turn_shows_on_the_pit(storage: Storage) -> None:
    """Super Pan 9 (rule 6, issue 23): the seat in turn and its seconds left, as the table's
    own timer counts them; seats free are the ones no one sits in."""
    room, p, t = super_pan_9_room(storage, rules={"turn_seconds": 20})
    assert t is not None
    start_round(room, p, t)
    with storage.read() as conn:
        [card] = [pit_card(f) for f in gather(conn, room.tables, room.settings.clock,
                                              datetime.now(UTC), list_tables(conn))]
    assert (card.to_act, card.seconds_left) == ("alice", 20)
    assert [s.name for s in card.seats] == ["alice", "bob"]
    assert card.free == tuple(range(3, card.max_seats + 1)) and card.hand is not None
    assert card.dealer == "dan"  # who signed the opener with the floor


def test_a_tables_live_part_crosses_to_another_process_as_json() -> None:
    """Issue 25: the pit screen of a process that does not hold a table draws its card from
    what the holder says (`live_json`), the same card but for the last hand, in its words."""
    here = live(last=VoidedHand(hand=9, number=4, voided=True, reason="a card fell",
                                by="fiona"))
    said = live_of_json(json.loads(json.dumps(live_json(here))))
    assert said == live(last=LastSaid(9, "Hand 9 (table's hand 4) voided by fiona: a card "
                                         "fell"))
    assert pit_card(facts(live=here)) == pit_card(facts(live=said))
