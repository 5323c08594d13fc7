"""Issue 20, "Figures to reach": "A property test per game: any legal action sequence played
through the room and through the bare engine gives the same events, refusals and settlement",
for Pan. Two to four people sit at a new table of one room (SQLite) and the bare table driver
(`PanTable`, the engine `PanHand`) gets the same house rules, seats, chips and a copy of the
table's random source, so both deal the same pack and pick the same dealer.

Each hand is dealt, then the drawn moves are played: a legal action of any seat (from
`PanTable.legal`, by index), a seat's legal action sent by another seat, a discard of a card
the seat does not hold, and a discard of a card it holds whatever is due (a meld, the option
card used, another seat's turn). Then plain players play the hand out (declare, draw, discard).
Every move goes to the room as the web table's message (`{"type": "pan", "action": ...}`) and
to the bare driver as the typed action, and after each one the room and the driver agree: the
refusal (the room names the player where the engine says "seat N", nothing else), every engine
event, a settlement on offer, the pack and the tops carried to the next hand, and every seat's
stack; a closed hand's record holds the driver's history."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.cards import Card
from cardroom.engine import Event
from cardroom.errors import CardroomError
from cardroom.games.pan.cards import pan_pack, sort_key
from cardroom.games.pan.commands import Kind, PanAction
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import PanHand, Phase, SeatSpec
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.history import history_of
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import dealer_at
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.shoe import RandomSource, fisher_yates

from .matching import SIT, Move, open_table, play, room_stacks
from .pan_play import CHIP, pan
from .rooms import CAST, make_room

PEOPLE = ("alice", "bob", "carol", "dave")
EXAMPLES = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PLAIN_STEPS = 400
"""Plain moves at most to play a hand out (a plain hand ends well within them)."""


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Room, dict[str, Account]]]:
    engine = make_engine(f"sqlite:///{tmp_path_factory.mktemp('room') / 'room.sqlite3'}")
    migrate(engine)
    made, people, _ = make_room(Storage(engine), seed=26, buyers=(), cast=(
        *CAST, ("carol", Role.PLAYER), ("dave", Role.PLAYER)))
    yield made, people
    engine.dispose()


@dataclass
class BarePan:
    """The bare table: the one driver, the players' names and chips between hands, and the
    table's random source; deals as a table does (the first hand's dealer and pack drawn, then
    the winner first hand on the pack and tops the last hand left)."""

    rules: PanRules
    names: list[str]
    chips: list[int]
    source: RandomSource
    table: PanTable = field(init=False)
    done: list[Event] = field(default_factory=list)
    last_dealer: int | None = None
    winner: int | None = None

    def __post_init__(self) -> None:
        self.table = PanTable(self.source)

    @property
    def bots(self) -> dict[int, None]:
        """Everyone a person, at the table's seats 1, 2, 3..."""
        return dict.fromkeys(range(1, len(self.names) + 1))

    @property
    def events(self) -> list[Event]:
        """Every event of every hand dealt."""
        return self.done + (self.table.hand.events if self.table.hand is not None else [])

    def hand(self) -> PanHand:
        assert self.table.hand is not None
        return self.table.hand

    def deal(self) -> None:
        seats = list(range(1, len(self.names) + 1))
        specs = {seat: SeatSpec(n, c)
                 for seat, n, c in zip(seats, self.names, self.chips, strict=True)}
        if self.last_dealer is None:
            dealer = self.source.randbelow(len(seats))
            pack: list[Card] | None = fisher_yates(pan_pack(self.rules), self.source)
        else:
            dealer, pack = dealer_at(seats, self.winner, self.last_dealer), None
        if self.table.hand is not None:
            self.done += self.table.hand.events
        self.table.deal(self.rules, specs, seats[dealer], pack)
        self.table.play(self.bots)
        self._close()

    def act(self, seat: int, action: PanAction) -> None:
        """`action` of `seat`; a refusal by a rule names the hand's seats as the room names
        them, by the players' names."""
        try:
            self.table.act(seat, action, self.bots)
        except PanRuleError as exc:
            text = str(exc)
            for i in reversed(range(len(self.names))):
                text = re.sub(rf"\bseat {i + 1}\b", self.names[i], text)
            raise CardroomError(text) from None
        self.table.play(self.bots)
        self._close()

    def _close(self) -> None:
        hand = self.hand()
        if hand.phase is Phase.COMPLETE:
            self.chips = [s.chips for s in hand.seats.values()]
            self.last_dealer, self.winner = hand.dealer, hand.winner


def plain(legal: list[PanAction]) -> PanAction | None:
    """A plain player's move, to play a hand out: declare to play, take the tops, go out,
    meld, lay off or borrow what he can, draw, discard (the drawn card first), play on face up;
    never a force, a foul, an offer or a settlement."""
    order = (Kind.PLAY, Kind.TAKE_TOPS, Kind.GO_OUT, Kind.COLLECT, Kind.MELD, Kind.LAY_OFF,
             Kind.BORROW, Kind.DRAW, Kind.DISCARD, Kind.FACE_UP, Kind.ACCEPT_SPLIT,
             Kind.DECLINE_SETTLEMENT)
    mine = [a for a in legal if a.kind in order and not a.choose]
    return min(mine, key=lambda a: (order.index(a.kind), not a.drawn), default=None)


def chosen_melds(hand: PanHand, seat: int) -> list[PanAction]:
    """The melds a player in his turn may choose from his hand (the listed actions leave the
    cards to him): each way to meld each card (`PanHand.hand_uses`)."""
    if hand.current != seat or not hand.turn_started or hand.drawn is not None:
        return []
    out = []
    for card, use in hand.hand_uses(seat):
        if use[0] == "lay_off":
            out.append(PanAction(Kind.LAY_OFF, (card,), meld=use[1]))
        elif use[0] == "meld":
            out.append(PanAction(Kind.MELD, (card, *use[1])))
        else:
            out.append(PanAction(Kind.BORROW, (card, *use[3]), meld=use[1],
                                 borrowed=tuple(use[2])))
    return out


def resolve(move: Move, e: BarePan) -> tuple[int, PanAction] | None:
    """The seat and the typed action a drawn move stands for now (None: the deal)."""
    kind = move[0]
    if kind == "deal":
        return None
    hand, n = e.hand(), len(e.names)
    ring = list(hand.ring)
    if kind == "plain":
        seats = [*([hand.to_act] if hand.to_act is not None else []), *ring]
        for seat in seats:
            if (a := plain(e.table.legal(seat))) is not None:
                return seat, a
        # nothing plain is listed: the cards he chooses to meld (a borrow), or whatever comes
        # first (a card to force, a foul to call)
        left = [(s, a) for s in seats[:1] for a in chosen_melds(hand, s)] + [
            (s, a) for s in seats for a in e.table.legal(s) if not a.choose]
        assert left, "nobody may act but the hand is not over"
        return min(left, key=lambda sa: sa[1].kind is Kind.FOUL_SELF)
    if kind in ("legal", "other"):
        options = [(s, a) for s in ring for a in e.table.legal(s)]
        if not options:
            return ring[0], PanAction(Kind.DRAW)
        seat, action = options[move[1] % len(options)]
        other = ring[(ring.index(seat) + 1 + move[2] % (n - 1)) % n]
        return (other if kind == "other" else seat), action
    to_act = 0 if hand.to_act is None else ring.index(hand.to_act)
    seat = ring[(to_act + move[1]) % n]  # mostly the seat in turn
    held = hand.seats[seat].hand
    if kind == "held":
        return seat, PanAction(Kind.DISCARD, (held[move[2] % len(held)],) if held else ())
    absent = sorted(set(pan_pack(e.rules)) - set(held), key=sort_key)
    return seat, PanAction(Kind.DISCARD, (absent[move[2] % len(absent)],))


def pan_apply(e: BarePan, move: Move) -> None:
    chosen = resolve(move, e)
    if chosen is None:
        e.deal()
    else:
        e.act(*chosen)


def pan_same(live: Any, e: BarePan) -> None:
    g, t = live.engine, e.table
    assert g.hand is not None and t.hand is not None
    assert g.hand.events == t.hand.events and g.hand.phase is t.hand.phase
    assert (g.offer, g.agreed, g.carried, g.next_pack) == (t.offer, t.agreed, t.carried,
                                                           t.next_pack)
    assert room_stacks(live) == {i: s.chips * CHIP for i, s in t.hand.seats.items()}


def pan_recorded(e: BarePan, start: int) -> list[dict[str, Any]]:
    """The actions of the hand just closed, as its history tells them."""
    actions: list[dict[str, Any]] = history_of(e.hand()).to_json()["actions"]
    return actions


CHOICE = st.one_of(
    st.tuples(st.just("legal"), st.integers(0, 200), st.just(0)),
    st.tuples(st.just("legal"), st.integers(0, 200), st.just(0)),
    st.tuples(st.just("other"), st.integers(0, 200), st.integers(0, 3)),
    st.tuples(st.just("held"), st.sampled_from([0, 0, 0, 1]), st.integers(0, 20)),
    st.tuples(st.just("absent"), st.sampled_from([0, 0, 1]), st.integers(0, 40)))
HANDS = st.lists(st.lists(st.tuples(st.integers(0, 8), CHOICE), min_size=4, max_size=25),
                 min_size=1, max_size=2)
"""One or two hands, each some drawn moves, each after a few plain ones."""


def moves_of(live: Any, hands: list[list[tuple[int, Move]]]) -> Iterator[Move]:
    """Each hand: the deal, the drawn moves (each after its plain ones) while it is in play,
    then plain play to its end."""
    for drawn in hands:
        yield ("deal",)
        for before, move in drawn:
            for _ in range(before):
                if live.hand_id is not None:
                    yield ("plain",)
            if live.hand_id is None:
                break
            yield move
        for _ in range(PLAIN_STEPS):
            if live.hand_id is None:
                break
            yield ("plain",)
        assert live.hand_id is None, "the hand did not finish"


@EXAMPLES
@given(players=st.integers(2, 4), hands=HANDS)
def test_pan_room_and_engine_agree(room: tuple[Room, dict[str, Account]], players: int,
                                   hands: list[list[tuple[int, Move]]]) -> None:
    """Pan, every rule the engine checks (declaring, drawing, taking, melding, laying off,
    discarding, forcing, fouls, the tops, the settlement, a redeal's carried tops): the room
    refuses, plays and settles exactly as the bare `PanTable` does."""
    made, people = room
    names = list(PEOPLE[:players])
    t = open_table(made, people, "pan", {}, names)
    live = pan(made, t)
    bare = BarePan(live.rules, names, [SIT // CHIP] * players, copy.deepcopy(live.source))

    def message(move: Move, e: BarePan) -> tuple[str, dict[str, Any]]:
        chosen = resolve(move, e)
        if chosen is None:
            return "alice", {"type": "deal"}
        seat, action = chosen
        return names[seat - 1], {"type": "pan", "action": action.to_json(), "seq": live.seq}

    play(made, people, t, bare, moves_of(live, hands), message, pan_apply, pan_same,
         pan_recorded)
