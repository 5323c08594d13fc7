"""The registry of games the conformance suite (`test_conformance.py`) plays: one small
adapter per game on a generic base. A new game gets every conformance check by adding its
adapter to `GAMES`.

The base `Game` drives any engine through the engine protocol (`cardroom.engine`): random
legal play from `legal_actions` (seeded) until `is_over`, the next hand by the table's own
step, the moves to try between two moves (legal ones, and wrong ones made from them: the
same action for a seat not to act, an amount above every limit), the views of every viewer
(`Engine.view`). An adapter says how a game starts (`start`), where the money is (`stacks`,
`staked`), the cards each viewer may see (`may_see`) and the hand's history for replay
(`history`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Card, parse_card
from cardroom.engine import TABLE, Action, Engine, Event, Viewer, history_actions, history_pack
from cardroom.errors import CardroomError
from cardroom.games.baccarat.coup import CardDealt
from cardroom.games.baccarat.history import coup_history
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable, BetsPlaced, BetsWithdrawn, CoupSettled
from cardroom.games.pai_gow.rules import DragonHand, PaiGowRules
from cardroom.games.pai_gow.table import DEALER, PLAYER_SEATS, PaiGowTable, Phase
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.history import history_of
from cardroom.games.pan.rules import PanRules
from cardroom.games.super_pan_9 import Phase as SP9Phase
from cardroom.games.super_pan_9 import SuperPan9Rules, SuperPan9Table
from cardroom.history import HandHistory
from cardroom.shoe import SeededRandom, fisher_yates

View = tuple[str, Any, set[str]]
"""A viewer's name, what the engine shows them, and the cards they may see."""

STACK = 100_000
TOO_MUCH = 10**9
"""An amount above every table's limits and every stack."""


@dataclass
class Hand:
    """One hand in progress: the engine, where its log began, the stacks before it."""

    engine: Engine
    rng: random.Random
    mark: int = 0
    before: dict[Any, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    won: int = 0
    """What the seats won in all (the engine's settlement), once the hand is over."""

    @property
    def events(self) -> list[Event]:
        return self.engine.events[self.mark:]


class Game:
    """The generic part: everything the engine protocol gives."""

    name: str
    hands: int

    def start(self, rng: random.Random) -> Hand:
        raise NotImplementedError

    def open(self, h: Hand) -> Hand:
        """The hand begins: the stacks before it."""
        h.before = dict(self.stacks(h))
        return h

    def stacks(self, h: Hand) -> dict[int, int]:
        """Each seat's chips, by the seat numbers of the engine's settlement."""
        raise NotImplementedError

    def staked(self, h: Hand) -> int:
        """Money on the layout that is in no stack (0 where a wager stays in its stack)."""
        return 0

    def money(self, h: Hand) -> int:
        """The stacks, the stakes on the layout, and the house's part of a hand settled."""
        return sum(self.stacks(h).values()) + self.staked(h) - h.won

    def chance(self, h: Hand, a: Action) -> Action:
        """`a` with a seeded random source where the engine would shuffle with the CSPRNG."""
        return a

    def legal(self, h: Hand) -> list[Action]:
        return h.engine.legal_actions()

    def extra_moves(self, h: Hand) -> list[Action]:
        """Wrong moves the generic ones cannot make (the floor's, seating)."""
        return []

    def moves(self, h: Hand) -> list[Action]:
        """Some legal actions, the wrong ones made from them (`wrong`) and `extra_moves`."""
        legal = self.legal(h)
        out = h.rng.sample(legal, min(3, len(legal)))
        return out + [w for a in out for w in wrong(h.engine, a)] + self.extra_moves(h)

    def play(self, h: Hand, step: Callable[[], None]) -> None:
        """Random legal play to the hand's end, `step()` before each action."""
        e = h.engine
        for _ in range(2_000):
            if self.over(h):
                h.won = sum(e.settlement().values())
                return
            step()
            e.apply(self.chance(h, h.rng.choice(self.legal(h))))
        raise AssertionError(f"{self.name}: the hand did not end")

    def over(self, h: Hand) -> bool:
        """The hand is over (the last one still is, at a table whose next hand begins with
        its first wager, until that wager)."""
        return bool(h.events) and h.engine.is_over()

    def next_hand(self, h: Hand) -> Hand:
        """The table's own step that starts the next hand, where it has one."""
        e = h.engine
        log, step = e.events, next(iter(e.legal_actions(TABLE)), None)
        if step is not None:
            e.apply(self.chance(h, step))
        return self.open(Hand(e, h.rng, len(e.events) if e.events is log else 0, extra=h.extra))

    def may_see(self, h: Hand, seat: int | None) -> set[str]:
        """The cards `seat` (None: the dealer, the floor) may see now."""
        raise NotImplementedError

    def views(self, h: Hand) -> list[View]:
        """Every viewer's `Engine.view` (the auditor's log aside)."""
        e = h.engine
        seats = [s for s in e.table_seats() if isinstance(s, int)]
        out: list[View] = [(role, e.view(Viewer(role)).table, self.may_see(h, None))
                           for role in ("dealer", "floor")]
        return out + [(f"seat {s}", e.view(Viewer("player", s)).table, self.may_see(h, s))
                      for s in seats]

    def history(self, h: Hand) -> HandHistory:
        raise NotImplementedError

    def final(self, h: Hand) -> list[int]:
        stacks = self.stacks(h)
        return [stacks[s["seat"]] for s in self.history(h).seats]

    def simple_history(self, h: Hand, seats: list[int], **more: Any) -> HandHistory:
        """A history of the usual shape: the seats with their chips before, the pack and the
        actions from the log, the chips after."""
        e = h.engine
        return HandHistory(
            game=self.name, rules=e.rules.model_dump(mode="json"),  # type: ignore[attr-defined]
            seats=[{"seat": s, "name": f"p{s}", "chips": h.before[s]} for s in seats],
            pack=history_pack(h.events), actions=history_actions(h.events),
            result={"chips": [self.stacks(h)[s] for s in seats]}, **more)


def wrong(e: Engine, a: Action) -> list[Action]:
    """Deliberately wrong moves made from the legal action `a`: the same action for a seat
    with no legal action now (where one sits), and with every amount (`Engine.free`) above
    every limit, or nothing."""
    out = []
    to_act = e.seats_to_act()
    idle = [s for s in e.table_seats() if isinstance(s, int) and s not in to_act]
    if idle and isinstance(a.seat, int) and a.args and a.args[0] == a.seat:
        out.append(Action(a.name, (idle[0], *a.args[1:]), idle[0]))
    if a.name in e.free:
        out += [Action(a.name, tuple(_amount(x, bad) for x in a.args), a.seat)
                for bad in (TOO_MUCH, 0)]
    return out


def _amount(x: Any, bad: int) -> Any:
    """`x` with its amounts (a whole number above 9, or a mapping's values) made `bad`."""
    if isinstance(x, dict):
        return dict.fromkeys(x, bad)
    return bad if isinstance(x, int) and not isinstance(x, bool) and x > 9 else x


# ----------------------------------------------------------------------------- Super Pan 9
class SuperPan9(Game):
    name = "super-pan-9"
    hands = 30

    def start(self, rng: random.Random) -> Hand:
        t = SuperPan9Table(SuperPan9Rules(decks=2), source=SeededRandom(rng.randrange(2**32)))
        for seat in range(1, 10):
            t.sit(seat, STACK)
        return self.open(Hand(t, rng))

    def stacks(self, h: Hand) -> dict[int, int]:
        assert isinstance(h.engine, SuperPan9Table)
        return h.engine.chips

    def may_see(self, h: Hand, seat: int | None) -> set[str]:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        showdown = t.phase is SP9Phase.COMPLETE and not all(x.voided for x in t.seats.values())
        public = {str(c) for c in t.dealer_cards} if t.dealer_revealed else set()
        if showdown:
            public |= {str(c) for x in t.seats.values() if not x.voided for c in x.cards}
        mine = t.seats[seat].cards if seat in t.seats else []
        return public | {str(c) for c in mine}

    def history(self, h: Hand) -> HandHistory:
        assert isinstance(h.engine, SuperPan9Table)
        return self.simple_history(h, sorted(h.engine.seats))


# ----------------------------------------------------------------------------- Pai Gow
class PaiGow(Game):
    name = "pai-gow"
    hands = 12

    def start(self, rng: random.Random) -> Hand:
        t = PaiGowTable(PaiGowRules(dragon_hand=rng.choice(list(DragonHand))))
        for seat in rng.sample(list(PLAYER_SEATS), rng.randint(2, 4)):
            t.sit(seat, STACK)
        return self.open(Hand(t, rng))

    def open(self, h: Hand) -> Hand:
        assert isinstance(h.engine, PaiGowTable)
        h.extra = {"player_banked_last": h.engine.player_banked_last}
        return super().open(h)

    def stacks(self, h: Hand) -> dict[int, int]:
        assert isinstance(h.engine, PaiGowTable)
        return h.engine.chips

    def chance(self, h: Hand, a: Action) -> Action:
        return Action("deal", (SeededRandom(h.rng.randrange(2**32)),)) if a.name == "deal" else a

    def extra_moves(self, h: Hand) -> list[Action]:
        """The floor's moves: a misdeal, a card exposed, a card count reported."""
        t, rng = h.engine, h.rng
        assert isinstance(t, PaiGowTable)
        out = [Action("declare_misdeal", (rng.choice(["", "box jam"]),))]
        for spot, cards in t.hands.items():
            out.append(Action("report_card_count", (spot, rng.choice([6, 7, 8]))))
            if rng.random() < 0.05:
                out.append(Action("expose_card", (spot, rng.choice(cards), rng.random() < 0.5)))
        return out

    def may_see(self, h: Hand, seat: int | None) -> set[str]:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        public = {str(c) for cards in t.exposed.values() for c in cards}
        if t.phase is Phase.SETTLED:
            public |= {str(c) for cards in t.hands.values() for c in cards}
        mine = {str(c) for c in t.hands.get(seat, ())} if seat is not None else set()
        if seat is not None and t.dragon is not None and t.dragon[0] == seat:
            mine |= {str(c) for c in t.hands.get(t.dragon[1], ())}
        return public | mine

    def history(self, h: Hand) -> HandHistory:
        return self.simple_history(h, sorted(h.before), setup={
            "player_banked_last": h.extra["player_banked_last"]})


# ----------------------------------------------------------------------------- Baccarat
NAMES = {1: "ann", 2: "ben", 3: "cy"}
"""The players by seat number (the engine knows the seats, the history the names)."""


class Baccarat(Game):
    name = "baccarat"
    hands = 30

    def start(self, rng: random.Random) -> Hand:
        t = BaccaratTable(BaccaratRules(), SeededRandom(rng.randrange(2**32)))
        for seat in NAMES:
            t.sit(seat, STACK)
        return self.open(Hand(t, rng, len(t.events)))

    def open(self, h: Hand) -> Hand:
        pool = h.engine.pool  # type: ignore[attr-defined]
        h.extra = {"jackpot": None if pool is None else {
            "meter": pool.meter, "posted": pool.posted, "seeded_total": pool.seeded_total}}
        return super().open(h)

    def stacks(self, h: Hand) -> dict[int, int]:
        assert isinstance(h.engine, BaccaratTable)
        return h.engine.balances

    def staked(self, h: Hand) -> int:
        assert isinstance(h.engine, BaccaratTable)
        return sum(sum(b.values()) for b in h.engine.bets.values())

    def extra_moves(self, h: Hand) -> list[Action]:
        return [Action("sit", (h.rng.choice([*NAMES, -1]), h.rng.choice([0, 500])))]

    def may_see(self, h: Hand, seat: int | None) -> set[str]:
        """Every card of a coup is dealt face up."""
        return {str(e.card) for e in h.engine.events if isinstance(e, CardDealt)}

    def history(self, h: Hand) -> HandHistory:
        t = h.engine
        assert isinstance(t, BaccaratTable)
        settled = next(e for e in h.events if isinstance(e, CoupSettled))
        down: dict[int, dict[Any, int]] = {}  # the bets down at the deal, in order
        for e in h.events:
            if isinstance(e, BetsPlaced | BetsWithdrawn):
                down.pop(e.seat, None)
            if isinstance(e, BetsPlaced):
                down[e.seat] = dict(e.bets)
        seats, bets = sorted(down), list(down.items())
        dealt: list[Card] = [e.card for e in h.events if isinstance(e, CardDealt)]
        return coup_history(t.rules, [(s, NAMES[s], h.before[s]) for s in seats], bets, dealt,
                            settled, [t.balances[s] for s in seats], shoe={},
                            jackpot=h.extra["jackpot"])

    def final(self, h: Hand) -> list[int]:
        seat_of = {name: seat for seat, name in NAMES.items()}
        return [self.stacks(h)[seat_of[s["name"]]] for s in self.history(h).seats]


# ----------------------------------------------------------------------------- Pan
class Pan(Game):
    """One `PanTable` (Pan's engine) for the whole game: each hand is dealt on the pack the
    last one left, with the tops a redeal carried."""

    name = "pan"
    hands = 3

    def start(self, rng: random.Random) -> Hand:
        rules = PanRules()
        n = rng.randint(3, 6)
        source = SeededRandom(rng.randrange(2**32))
        pack = fisher_yates(pan_pack(rules), source)
        t = PanTable(source)
        t.deal(rules, [SeatSpec(f"p{i}", 30) for i in range(n)], rng.randrange(n), pack)
        return self.open(Hand(t, rng))

    @staticmethod
    def _hand(h: Hand) -> PanHand:
        t = h.engine
        assert isinstance(t, PanTable) and t.hand is not None
        return t.hand

    def open(self, h: Hand) -> Hand:
        h.before = {i: s.chips for i, s in enumerate(self._hand(h).specs)}
        return h

    def stacks(self, h: Hand) -> dict[int, int]:
        return {i: s.chips for i, s in self._hand(h).seats.items()}

    def money(self, h: Hand) -> int:
        hand = self._hand(h)
        return sum(self.stacks(h).values()) + hand.tops_single + hand.tops_double

    def extra_moves(self, h: Hand) -> list[Action]:
        """Moves at random (any seat, a card it holds, on any other seat): mostly refused."""
        hand, rng = self._hand(h), h.rng
        seat, other = rng.randrange(hand.n), rng.randrange(hand.n)
        held = hand.seats[seat].hand
        card = rng.choice(held) if held else hand.pack[0]
        meld = tuple(rng.sample(held, min(3, len(held))))
        return [] if self.over(h) else [
            Action(name, (seat, *args), seat) for name, args in (
                ("discard", (card,)), ("meld", (meld, False)), ("drop_card", (card,)),
                ("take", ()), ("go_out", ()), ("collect", ()), ("take_tops", ()),
                ("keep_drawn", ()), ("declare_own_foul", ()))] + [
            Action(name, (other, seat), other) for name in ("call_foul", "force_back")]

    def views(self, h: Hand) -> list[View]:
        """The history's redaction: every card still unseen in the stock is hidden (Pan's pack
        holds each card many times over: the positions are checked, not the names)."""
        hand = self._hand(h)
        unseen = {i for r, i in hand.unseen_cards() if r == 0}
        seen = {str(c) for i, c in enumerate(hand.pack) if i not in unseen}
        pack = self.history(h).pack
        assert [i for i, c in enumerate(pack) if c == "??"] == sorted(unseen)
        return [("history", pack, seen | {"??"})]

    def history(self, h: Hand) -> HandHistory:
        return history_of(self._hand(h))

    def final(self, h: Hand) -> list[int]:
        return list(self.stacks(h).values())


GAMES: dict[str, Game] = {g.name: g for g in (Baccarat(), SuperPan9(), PaiGow(), Pan())}
"""Every registered game: the conformance suite runs on each."""


@functools.cache
def _card(word: str) -> str | None:
    if word == "??":
        return word
    try:
        return str(parse_card(word))
    except CardroomError:
        return None


def cards_in(view: Any) -> Iterator[str]:
    """Every card text anywhere in a view (a JSON-like value)."""
    if isinstance(view, dict):
        for v in view.values():
            yield from cards_in(v)
    elif isinstance(view, list | tuple):
        for v in view:
            yield from cards_in(v)
    elif isinstance(view, str):
        for word in view.split():
            card = _card(word)
            if card is not None:
                yield card


__all__ = ["DEALER", "GAMES", "STACK", "Game", "Hand", "cards_in", "wrong"]
