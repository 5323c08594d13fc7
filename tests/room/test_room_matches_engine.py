"""Issue 20, "a rule lives in the engine, not in the room": any sequence of moves, legal or not,
played through the card room (`Room.act`) and through the bare engine gives the same refusals
(the same sentence, or none), the same events and the same settlement (every seat's chips).

One room (SQLite) serves every example: each example opens a new table, seats alice (seat 1)
and bob (seat 2), and gives the bare engine the same house rules, seats and chips, and a copy
of the room's random source (the table is the only one drawing from it), so both deal the same
cards. The moves are the players' own (a bet, a change of bets, a bank, a dragon hand, a
setting, a draw or stand) and the floor's deal; who may act for whom (staff permissions, whose
seat) is the room's business and not drawn here. The engine side does what the room does
around a move: Super Pan 9's next round on the first wager after a showdown and the dealer's
turn once every seat has acted, Pai Gow's settlement once every hand is set."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.engine import history_actions
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.games.pai_gow.limits import PaiGowTableRules
from cardroom.games.pai_gow.table import PaiGowTable, Phase
from cardroom.games.super_pan_9 import SuperPan9Rules, SuperPan9Table
from cardroom.games.super_pan_9.engine import Phase as RoundPhase
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.shoe import RandomSource

from .matching import SIT, Move, key, open_table, play, room_stacks
from .rooms import make_room, state_profile_with

PLAYERS = ("alice", "bob")
SEAT = {"alice": 1, "bob": 2}
EXAMPLES = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Room, dict[str, Account]]]:
    """One room for every example, each example at a table of its own: the profile's cap on
    house-banked tables (RCW 9.46.0282, 15) is raised for this room alone, since what is
    checked here is play, not how many tables an establishment may have."""
    here = tmp_path_factory.mktemp("room")
    roomy = state_profile_with(here, "[[house_banked_tables.periods]]\ncount = 15",
                               "[[house_banked_tables.periods]]\ncount = 100000")
    engine = make_engine(f"sqlite:///{here / 'room.sqlite3'}")
    migrate(engine)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDROOM_PROFILE", str(roomy))
        made, people, _ = make_room(Storage(engine), seed=20, buyers=())
        yield made, people
    engine.dispose()


def recorded(bare: Any, start: int) -> list[dict[str, Any]]:
    """The actions a hand's record holds: those the bare engine's events of the hand give."""
    return history_actions(bare.events[start:])


def rounds(bet: st.SearchStrategy[Move], any_move: st.SearchStrategy[Move],
           then: st.SearchStrategy[Move], after: int) -> st.SearchStrategy[list[Move]]:
    """Hands of play: some wagers, any moves, the deal, `after` moves that play the hand on
    (`then`), any moves again; one to three hands."""
    one = st.tuples(st.lists(bet, min_size=1, max_size=2), st.lists(any_move, max_size=3),
                    st.lists(then, min_size=after, max_size=after),
                    st.lists(any_move, max_size=2))
    return st.lists(one, min_size=1, max_size=3).map(
        lambda hs: [m for b, a, t, z in hs for m in (*b, *a, ("deal",), *t, *z)])


# Super-9 Mini-Baccarat ------------------------------------------------------------------------
BACCARAT_BETS = st.dictionaries(
    st.sampled_from([k.value for k in WagerKind]),
    st.sampled_from([100, 500, 2_500, 10_000, 600_000, 0, 99]), min_size=1, max_size=3)
BACCARAT_BET = st.tuples(st.just("bet"), st.sampled_from(PLAYERS), BACCARAT_BETS)
BACCARAT_ANY = st.one_of(
    BACCARAT_BET, st.tuples(st.just("deal")),
    st.tuples(st.just("change"), st.sampled_from(PLAYERS),
              st.one_of(st.just({}), BACCARAT_BETS)))
BACCARAT_MOVES = rounds(
    st.one_of(BACCARAT_BET, st.tuples(st.just("bet"), st.sampled_from(PLAYERS),
                                      st.sampled_from([{"banker": 1_000},
                                                       {"banker": 1_075, "progressive": 100},
                                                       {"player": 2_500, "progressive": 100}]))),
    BACCARAT_ANY, BACCARAT_ANY, 0)


def baccarat_message(move: Move, e: BaccaratTable) -> tuple[str, dict[str, Any]]:
    if move[0] == "deal":
        return "fiona", {"type": "deal"}
    kind = "bet" if move[0] == "bet" else "change_bets"
    return move[1], {"type": kind, "bets": move[2], "key": key()}


def baccarat_apply(e: BaccaratTable, move: Move) -> None:
    if move[0] == "deal":
        e.deal()
        return
    bets = {WagerKind.parse(k): v for k, v in move[2].items()}
    if move[0] == "change":
        e.withdraw_bets(SEAT[move[1]])
        if not bets:
            return
    e.place_bets(SEAT[move[1]], bets)


def baccarat_same(live: Any, e: BaccaratTable) -> None:
    assert (live.engine.balances, live.engine.bets) == (e.balances, e.bets)
    assert live.engine.coup_number == e.coup_number
    assert live.engine.pool is not None and e.pool is not None
    assert (live.engine.pool.meter, live.engine.pool.posted) == (e.pool.meter, e.pool.posted)
    assert room_stacks(live) == e.balances


@EXAMPLES
@given(moves=BACCARAT_MOVES)
def test_baccarat_room_and_engine_agree(room: tuple[Room, dict[str, Account]],
                                        moves: list[Move]) -> None:
    """Mini-Baccarat and Super-9 wagers (limits, combinations, the jackpot wager, the stack),
    the coup, its settlement and the progressive's meter: the room refuses and settles exactly
    as `BaccaratTable` does."""
    made, people = room
    source = copy.deepcopy(made.source)
    t = open_table(made, people, "baccarat", {})
    pool = copy.deepcopy(made.table(t).engine.pool)  # the room's progressive, as it stands
    bare = BaccaratTable(BaccaratRules(), source=source, pool=pool)
    for name in PLAYERS:
        bare.sit(SEAT[name], SIT)
    play(made, people, t, bare, moves, baccarat_message, baccarat_apply, baccarat_same,
         None)


# Super Pan 9 -------------------------------------------------------------------------------
SP9_BET = st.tuples(st.just("bet"), st.sampled_from(PLAYERS),
                    st.sampled_from([500, 1_000, 2_500, 19_000, 0, 499, 100_001]),
                    st.sampled_from([0, 0, 100, 1_500, 99]))
SP9_ANY = st.one_of(
    SP9_BET, st.tuples(st.just("withdraw"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("deal")),
    st.tuples(st.sampled_from(["draw", "stand"]), st.sampled_from(PLAYERS)))
SP9_MOVES = rounds(
    st.one_of(SP9_BET, st.tuples(st.just("bet"), st.sampled_from(PLAYERS), st.just(1_000),
                                 st.just(0))),
    SP9_ANY, st.tuples(st.just("turn"), st.booleans()), 2)


def in_turn(e: SuperPan9Table) -> str:
    """The player of the seat in turn (alice when none is)."""
    return next((n for n, s in SEAT.items() if s == e.to_act), "alice")


def sp9_message(move: Move, e: SuperPan9Table) -> tuple[str, dict[str, Any]]:
    if move[0] == "turn":
        return in_turn(e), {"type": "draw" if move[1] else "stand"}
    if move[0] == "deal":
        return "fiona", {"type": "deal"}
    if move[0] == "bet":
        return move[1], {"type": "bet", "bets": {"wager": move[2], "tie": move[3]},
                         "key": key()}
    if move[0] == "withdraw":
        return move[1], {"type": "change_bets", "bets": {}, "key": key()}
    return move[1], {"type": move[0]}


def sp9_apply(e: SuperPan9Table, move: Move) -> None:
    if move[0] == "turn":
        move = ("draw" if move[1] else "stand", in_turn(e))
    if move[0] == "deal":
        e.deal()
    elif move[0] == "bet":
        if e.phase is RoundPhase.COMPLETE:
            e.new_round()  # the room starts the next round with its first wager
        e.place_wager(SEAT[move[1]], move[2], move[3])
    elif move[0] == "withdraw":
        e.withdraw_wagers(SEAT[move[1]])
    else:
        (e.draw if move[0] == "draw" else e.stand)(SEAT[move[1]])
        if e.phase is RoundPhase.DEALER:
            e.finish_dealer()  # the dealer's turn follows the last seat's


def sp9_same(live: Any, e: SuperPan9Table) -> None:
    assert live.engine.snapshot(None) == e.snapshot(None)
    assert live.engine.chips == e.chips
    in_play = {s: h.wager + h.tie_wager for s, h in e.seats.items()
               if e.phase is not RoundPhase.COMPLETE}
    assert room_stacks(live) == {s: c - in_play.get(s, 0) for s, c in e.chips.items()}


@EXAMPLES
@given(moves=SP9_MOVES)
def test_super_pan_9_room_and_engine_agree(room: tuple[Room, dict[str, Account]],
                                           moves: list[Move]) -> None:
    """Super Pan 9 rules 5-9: wagers (limits, the Tie Bet, the stack), the deal, one card or
    none in seat order, the dealer's turn and the settlement, alike in the room and the
    engine."""
    made, people = room
    source = copy.deepcopy(made.source)
    t = open_table(made, people, "super-pan-9", {})
    bare = SuperPan9Table(SuperPan9Rules(), source=source)
    for name in PLAYERS:
        bare.sit(SEAT[name], SIT)
    play(made, people, t, bare, moves, sp9_message, sp9_apply, sp9_same, recorded)


# Pai Gow -------------------------------------------------------------------------------------
PAI_GOW_RULES = {"dragon_hand": "player-sets", "min_wager_cents": 1_000,
                 "max_wager_cents": 15_000}
PAI_GOW_BET = st.tuples(st.just("bet"), st.sampled_from(PLAYERS),
                        st.sampled_from([1_000, 5_000, 15_000, 19_000, 900_000, 999]))
PAI_GOW_ANY = st.one_of(
    PAI_GOW_BET, st.tuples(st.just("withdraw"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("bank"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("dragon"), st.sampled_from(PLAYERS), st.sampled_from([3, 4, 2]),
              st.sampled_from([1_000, 500, 16_000])),
    st.tuples(st.just("deal")),
    st.tuples(st.just("house_way"), st.sampled_from(PLAYERS), st.booleans()))
PAI_GOW_MOVES = rounds(
    st.one_of(PAI_GOW_BET, st.tuples(st.just("bet"), st.sampled_from(PLAYERS),
                                     st.just(2_000)),
              st.tuples(st.just("bank"), st.sampled_from(PLAYERS)),
              st.tuples(st.just("dragon"), st.sampled_from(PLAYERS), st.just(3),
                        st.just(1_000))),
    PAI_GOW_ANY, st.tuples(st.just("next")), 4)


def next_to_set(e: PaiGowTable) -> Move:
    """The first hand a player still has to set, as a house-way move of its player (alice's
    own when none is)."""
    d = e.dragon
    for spot in sorted(e.hands):
        if spot in e.settings or spot in e.out_of_play:
            continue
        if d is not None and spot == d[1]:
            return ("house_way", next(n for n, s in SEAT.items() if s == d[0]), True)
        for name, seat in SEAT.items():
            if seat == spot:
                return ("house_way", name, False)
    return ("house_way", "alice", False)


def own_spot(e: PaiGowTable, who: str, dragon: bool) -> int | None:
    """The dragon spot `who` plays (when asked for and theirs), else None: their own seat's
    (whose hand a player may set is the room's business)."""
    d = e.dragon
    return d[1] if dragon and d is not None and d[0] == SEAT[who] else None


def pai_gow_message(move: Move, e: PaiGowTable) -> tuple[str, dict[str, Any]]:
    if move[0] == "next":
        move = next_to_set(e)
    kind = move[0]
    if kind == "deal":
        return "fiona", {"type": "deal"}
    if kind == "bet":
        return move[1], {"type": "bet", "bets": {"wager": move[2]}, "key": key()}
    if kind == "withdraw":
        return move[1], {"type": "change_bets", "bets": {}, "key": key()}
    if kind == "bank":
        return move[1], {"type": "bank", "key": key()}
    if kind == "dragon":
        return move[1], {"type": "dragon", "spot": move[2], "amount": move[3], "key": key()}
    spot = own_spot(e, move[1], move[2])
    return move[1], {"type": "house_way", **({"spot": spot} if spot else {})}


def pai_gow_apply(e: PaiGowTable, move: Move, source: RandomSource) -> None:
    if move[0] == "next":
        move = next_to_set(e)
    kind, seat = move[0], SEAT.get(move[1]) if len(move) > 1 else None
    assert seat is not None or kind == "deal"
    if kind == "deal":
        e.deal(source)  # the room's deal: the shuffle and the roll from the table's source
    elif kind == "bet":
        e.place_wager(seat, move[2])  # type: ignore[arg-type]
    elif kind == "withdraw":
        e.withdraw_wagers(seat)  # type: ignore[arg-type]
    elif kind == "bank":
        e.bank(seat)  # type: ignore[arg-type]
    elif kind == "dragon":
        e.take_dragon(seat, move[2], move[3])  # type: ignore[arg-type]
    else:
        e.ask_house_way(own_spot(e, move[1], move[2]) or seat)
        if e.can_settle():  # the last hand set: the table settles and clears the layout
            e.settle()
            e.next_hand()


def pai_gow_same(live: Any, e: PaiGowTable) -> None:
    r = live.engine
    assert (r.snapshot(None), r.chips, r.wagers, r.dragon, r.banker_spot) == (
        e.snapshot(None), e.chips, e.wagers, e.dragon, e.banker_spot)
    staked = {s: 0 for s in e.chips}
    for s, amount in e.wagers.items():
        staked[s] += amount
    if e.dragon is not None:
        staked[e.dragon[0]] += e.dragon[2]
    if e.phase is Phase.BETTING or e.phase is Phase.SETTING:
        assert room_stacks(live) == {s: c - staked[s] for s, c in e.chips.items()}


@EXAMPLES
@given(moves=PAI_GOW_MOVES)
def test_pai_gow_room_and_engine_agree(room: tuple[Room, dict[str, Account]],
                                       moves: list[Move]) -> None:
    """Pai Gow clause 10 (one wager a seat, the table limits), the banking clause (every other
    hand, the cover), clause 7 (the dragon hand), the deal, the house way and the settlement:
    the room refuses and settles exactly as `PaiGowTable` does."""
    made, people = room
    source = copy.deepcopy(made.source)
    t = open_table(made, people, "pai-gow", PAI_GOW_RULES)
    bare = PaiGowTable(PaiGowTableRules.model_validate(PAI_GOW_RULES))
    for name in PLAYERS:
        bare.sit(SEAT[name], SIT)
    play(made, people, t, bare, moves, pai_gow_message,
         lambda e, move: pai_gow_apply(e, move, source), pai_gow_same, recorded)

