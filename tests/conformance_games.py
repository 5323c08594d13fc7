"""The registry of games the conformance suite (`test_conformance.py`) plays: one small
adapter per game. A new game gets every conformance check by adding its adapter to `GAMES`.

An adapter starts an engine, lists the moves worth trying now (`moves`: legal ones and
deliberately wrong ones, as name and arguments of the engine's `@action`s), drives a hand to
its end (`play`: random legal play, seeded), and says what must hold: the money it conserves
(`money`), the cards each viewer may see against what the engine's view shows (`views`), and
the hand's history for replay (`history`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Card, parse_card
from cardroom.engine import Engine, Event, Voided, history_actions, history_pack
from cardroom.errors import CardroomError
from cardroom.games.baccarat.coup import CardDealt
from cardroom.games.baccarat.history import coup_history
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable, BetsPlaced, CoupSettled
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.games.pai_gow.rules import DragonHand, PaiGowRules
from cardroom.games.pai_gow.table import DEALER, PLAYER_SEATS, PaiGowTable, Phase
from cardroom.games.pan.bots import RandomBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.engine import Phase as PanPhase
from cardroom.games.pan.history import history_of
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import next_dealer
from cardroom.games.super_pan_9 import Phase as SP9Phase
from cardroom.games.super_pan_9 import SuperPan9Rules, SuperPan9Table
from cardroom.games.super_pan_9.events import IrregularityHandled, RoundSettled, WagerPlaced
from cardroom.history import HandHistory
from cardroom.shoe import SeededRandom, fisher_yates

Move = tuple[str, tuple[Any, ...]]
View = tuple[str, Any, set[str]]
"""A viewer's name, what the engine shows them, and the cards they may see."""

STACK = 100_000


@dataclass
class Hand:
    """One hand in progress: the engine, where its log began, the stacks before it."""

    engine: Engine
    rng: random.Random
    mark: int = 0
    before: dict[Any, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def events(self) -> list[Event]:
        return self.engine.events[self.mark:]


class Game:
    name: str
    hands: int

    def start(self, rng: random.Random) -> Hand:
        raise NotImplementedError

    def actor(self, h: Hand) -> Engine:
        """What takes the moves of `moves` now: the engine, or the hand in play of an engine
        that holds its hand as a part of its own (Pan's `PanTable.hand`)."""
        return h.engine

    def moves(self, h: Hand) -> list[Move]:
        raise NotImplementedError

    def play(self, h: Hand, step: Callable[[], None]) -> None:
        """Random legal play to the hand's end, `step()` before each action."""
        for _ in range(500):
            if self.over(h):
                return
            step()
            name, args = h.rng.choice(self.legal(h))
            getattr(self.actor(h), name)(*args)
        raise AssertionError(f"{self.name}: the hand did not end")

    def legal(self, h: Hand) -> list[Move]:
        """The legal moves among `moves` (drawn at random: drawn again until one is legal)."""
        for _ in range(100):
            legal = [(n, a) for n, a in self.moves(h)
                     if getattr(self.actor(h), "can_" + n)(*a)]
            if legal:
                return legal
        raise AssertionError(f"{self.name}: no legal move in {self.moves(h)}")

    def over(self, h: Hand) -> bool:
        raise NotImplementedError

    def next_hand(self, h: Hand) -> Hand:
        raise NotImplementedError

    def money(self, h: Hand) -> int:
        raise NotImplementedError

    def views(self, h: Hand) -> list[View]:
        return []

    def history(self, h: Hand) -> HandHistory:
        raise NotImplementedError

    def final(self, h: Hand) -> list[int]:
        raise NotImplementedError


# ----------------------------------------------------------------------------- Super Pan 9
class SuperPan9(Game):
    name = "super-pan-9"
    hands = 30

    def start(self, rng: random.Random) -> Hand:
        t = SuperPan9Table(SuperPan9Rules(decks=2), source=SeededRandom(rng.randrange(2**32)))
        h = Hand(t, rng, extra={"stacks": dict.fromkeys(range(1, 10), STACK)})
        h.before = dict(h.extra["stacks"])
        return h

    def moves(self, h: Hand) -> list[Move]:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        seat = h.rng.randint(0, 10)
        amount = h.rng.choice([0, 499, 500, 1_000, 5_000, 100_001])
        tie = h.rng.choice([0, 0, 100, 99])
        turn = t.to_act if t.to_act is not None else h.rng.randint(1, 9)
        out: list[Move] = [("place_wager", (seat, amount, tie)), ("deal", ()),
                           ("draw", (turn,)), ("stand", (turn,)), ("draw", (turn % 9 + 1,)),
                           ("reveal", ()), ("dealer_draw", ()), ("settle", ())]
        if t.phase is SP9Phase.BETTING and len(t.seats) >= h.rng.randint(1, 4):
            out = [m for m in out if m[0] != "place_wager"]  # deal sometimes
        return out

    def over(self, h: Hand) -> bool:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        return t.phase is SP9Phase.COMPLETE

    def next_hand(self, h: Hand) -> Hand:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        t.new_round()
        nxt = Hand(t, h.rng, len(t.events), extra=h.extra)
        nxt.before = dict(h.extra["stacks"])
        return nxt

    def money(self, h: Hand) -> int:
        """The players' stacks as the room keeps them (stakes out when placed, returns back),
        the stakes still on the layout (engine state) and what the house kept."""
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        players = sum(h.before.values())
        house = 0
        for e in h.events:
            if isinstance(e, WagerPlaced):
                players -= e.amount + e.tie_amount
            elif isinstance(e, IrregularityHandled | Voided):
                players += e.returned
            elif isinstance(e, RoundSettled):
                for s in e.seats:
                    if s.player_total is not None:  # voided seats were returned already
                        st = s.settlement
                        players += st.returned
                        house += st.wager + st.tie_wager - st.returned
                        h.extra["stacks"][s.seat] = h.before[s.seat] - st.wager \
                            - st.tie_wager + st.returned
        on_table = sum(x.wager + x.tie_wager for x in t.seats.values()
                       if not x.voided and x.settlement is None)
        for seat, x in t.seats.items():
            if x.voided:
                h.extra["stacks"][seat] = h.before[seat]
        return players + on_table + house

    def views(self, h: Hand) -> list[View]:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        showdown = t.phase is SP9Phase.COMPLETE and not all(x.voided for x in t.seats.values())
        public = {str(c) for c in t.dealer_cards} if t.dealer_revealed else set()
        if showdown:
            public |= {str(c) for x in t.seats.values() if not x.voided for c in x.cards}
        out: list[View] = [("spectator", t.snapshot(None), public)]
        for seat, hand in t.seats.items():
            out.append((f"seat {seat}", t.snapshot(seat), public | {str(c) for c in hand.cards}))
        return out

    def history(self, h: Hand) -> HandHistory:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        seats = sorted(t.seats)
        return HandHistory(
            game=self.name, rules=t.rules.model_dump(mode="json"),
            seats=[{"seat": s, "name": f"p{s}", "chips": h.before[s]} for s in seats],
            pack=history_pack(h.events), actions=history_actions(h.events),
            result={"chips": self.final(h)})

    def final(self, h: Hand) -> list[int]:
        t = h.engine
        assert isinstance(t, SuperPan9Table)
        return [h.extra["stacks"][s] for s in sorted(t.seats)]


# ----------------------------------------------------------------------------- Pai Gow
class PaiGow(Game):
    name = "pai-gow"
    hands = 12

    def start(self, rng: random.Random) -> Hand:
        rules = PaiGowRules(dragon_hand=rng.choice(list(DragonHand)))
        t = PaiGowTable(rules)
        for seat in rng.sample(list(PLAYER_SEATS), rng.randint(2, 4)):
            t.sit(seat, STACK)
        h = Hand(t, rng)
        h.before = dict(t.chips)
        return h

    def moves(self, h: Hand) -> list[Move]:
        t, rng = h.engine, h.rng
        assert isinstance(t, PaiGowTable)
        seat = rng.randint(0, 7)
        amount = rng.choice([0, 500, 1_000, 2_000, STACK * 2])
        out: list[Move] = [("place_wager", (seat, amount)), ("bank", (seat,)),
                           ("take_dragon", (seat, rng.randint(0, 7), amount)),
                           ("deal", (SeededRandom(rng.randrange(2**32)),)),
                           ("declare_misdeal", (rng.choice(["", "box jam"]),))]
        for spot, cards in t.hands.items():
            front = rng.sample(list(cards), 2)
            out += [("set_hand", (spot, front)), ("ask_house_way", (spot,)),
                    ("report_card_count", (spot, rng.choice([6, 7, 8])))]
            if rng.random() < 0.05:
                out.append(("expose_card", (spot, rng.choice(cards), rng.random() < 0.5)))
        if t.phase is Phase.BETTING and len(t.wagers) >= 2 and rng.random() < 0.5:
            out = [m for m in out if m[0] == "deal"] + [("place_wager", (seat, amount))]
        return out

    def over(self, h: Hand) -> bool:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        if t.phase is Phase.SETTING and t.can_settle():
            t.settle()  # the table settles after the last setting
        return t.phase is Phase.SETTLED

    def next_hand(self, h: Hand) -> Hand:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        banked = t.player_banked_last
        nxt = Hand(t, h.rng, len(t.events), extra={"player_banked_last": banked})
        t.next_hand()
        nxt.extra["player_banked_last"] = t.player_banked_last
        nxt.before = dict(t.chips)
        return nxt

    def money(self, h: Hand) -> int:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        return sum(t.chips.values()) + t.house_result

    def views(self, h: Hand) -> list[View]:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        public = {str(c) for cards in t.exposed.values() for c in cards}
        if t.phase is Phase.SETTLED:
            public |= {str(c) for cards in t.hands.values() for c in cards}
        out: list[View] = [("spectator", t.snapshot(None), public)]
        for seat in t.chips:
            mine = {str(c) for c in t.hands.get(seat, ())}
            if t.dragon is not None and t.dragon[0] == seat:
                mine |= {str(c) for c in t.hands.get(t.dragon[1], ())}
            out.append((f"seat {seat}", t.snapshot(seat), public | mine))
        return out

    def history(self, h: Hand) -> HandHistory:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        return HandHistory(
            game=self.name, rules=t.rules.model_dump(mode="json"),
            seats=[{"seat": s, "name": f"p{s}", "chips": c} for s, c in sorted(h.before.items())],
            pack=history_pack(h.events), actions=history_actions(h.events),
            setup={"player_banked_last": h.extra.get("player_banked_last", False)},
            result={"chips": self.final(h)})

    def final(self, h: Hand) -> list[int]:
        t = h.engine
        assert isinstance(t, PaiGowTable)
        return [t.chips[s] for s in sorted(h.before)]


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
        h = Hand(t, rng, len(t.events))
        return self._open(h)

    def _open(self, h: Hand) -> Hand:
        t = h.engine
        assert isinstance(t, BaccaratTable)
        h.before = dict(t.balances)
        pool = t.pool
        h.extra = {"jackpot": None if pool is None else {
            "meter": pool.meter, "posted": pool.posted, "seeded_total": pool.seeded_total},
            "house": 0}
        return h

    def moves(self, h: Hand) -> list[Move]:
        t, rng = h.engine, h.rng
        assert isinstance(t, BaccaratTable)
        seat = rng.choice([*NAMES, 7])  # 7: nobody sits there
        main = rng.choice([WagerKind.PLAYER, WagerKind.BANKER, WagerKind.TIE])
        bets = {main: rng.choice([0, 100, 500, 2_000, 10 * STACK])}
        if rng.random() < 0.4:
            bets[WagerKind.PROGRESSIVE] = rng.choice([100, 200])
        if rng.random() < 0.3:
            bets[rng.choice([WagerKind.PLAYER_9, WagerKind.BANKER_9])] = 100
        out: list[Move] = [("place_bets", (seat, bets)), ("deal", ()),
                           ("sit", (rng.choice([*NAMES, -1]), rng.choice([0, 500])))]
        if len(t.bets) >= rng.randint(1, 3):
            out = [m for m in out if m[0] != "place_bets"]
        return out

    def over(self, h: Hand) -> bool:
        return any(isinstance(e, CoupSettled) for e in h.events)

    def next_hand(self, h: Hand) -> Hand:
        t = h.engine
        assert isinstance(t, BaccaratTable)
        return self._open(Hand(t, h.rng, len(t.events)))

    def money(self, h: Hand) -> int:
        t = h.engine
        assert isinstance(t, BaccaratTable)
        house = -sum(s.net for e in h.events if isinstance(e, CoupSettled)
                     for _, s in e.settlements)
        staked = sum(sum(b.values()) for b in t.bets.values())
        return sum(t.balances.values()) + staked + house

    def views(self, h: Hand) -> list[View]:
        """Every card of a coup is dealt face up: the history shows the coup's cards, never
        one the shoe still holds."""
        dealt = {str(e.card) for e in h.events if isinstance(e, CardDealt)}
        return [("history", self.history(h).pack, dealt)] if self.over(h) else []

    def history(self, h: Hand) -> HandHistory:
        t = h.engine
        assert isinstance(t, BaccaratTable)
        settled = next(e for e in h.events if isinstance(e, CoupSettled))
        seats = sorted({e.seat for e in h.events if isinstance(e, BetsPlaced)})
        bets = [(e.seat, dict(e.bets)) for e in h.events if isinstance(e, BetsPlaced)]
        dealt: list[Card] = [e.card for e in h.events if isinstance(e, CardDealt)]
        return coup_history(t.rules, [(s, NAMES[s], h.before[s]) for s in seats], bets, dealt,
                            settled, [t.balances[s] for s in seats], shoe={},
                            jackpot=h.extra["jackpot"])

    def final(self, h: Hand) -> list[int]:
        t = h.engine
        assert isinstance(t, BaccaratTable)
        seat_of = {name: seat for seat, name in NAMES.items()}
        return [t.balances[seat_of[s["name"]]] for s in self.history(h).seats]


# ----------------------------------------------------------------------------- Pan
class Pan(Game):
    """One `PanTable` (Pan's engine) for the whole game: each hand is dealt on the pack the
    last one left, with the tops a redeal carried; its moves go to the hand in play."""

    name = "pan"
    hands = 3

    def start(self, rng: random.Random) -> Hand:
        rules = PanRules()
        n = rng.randint(3, 6)
        source = SeededRandom(rng.randrange(2**32))
        pack = fisher_yates(pan_pack(rules), source)
        t = PanTable(source)
        t.deal(rules, [SeatSpec(f"p{i}", 30) for i in range(n)], rng.randrange(n), pack)
        return self._open(Hand(t, rng))

    def _open(self, h: Hand) -> Hand:
        h.before = {i: s.chips for i, s in enumerate(self._hand(h).specs)}
        return h

    @staticmethod
    def _hand(h: Hand) -> PanHand:
        t = h.engine
        assert isinstance(t, PanTable) and t.hand is not None
        return t.hand

    def actor(self, h: Hand) -> Engine:
        hand = self._hand(h)
        return h.engine if hand.phase is PanPhase.COMPLETE else hand

    def moves(self, h: Hand) -> list[Move]:
        hand, rng = self._hand(h), h.rng
        if hand.phase is PanPhase.COMPLETE:  # the table's next move: the next deal
            return [("deal", (hand.rules, self._specs(hand), hand.dealer))]
        seat = rng.randrange(hand.n)
        other = rng.randrange(hand.n)
        held = hand.seats[seat].hand
        card = rng.choice(held) if held else hand.pack[0]
        return [("declare", (seat, rng.random() < 0.5)), ("draw", (seat,)), ("take", (seat,)),
                ("discard", (seat, card)), ("go_out", (seat,)), ("collect", (seat,)),
                ("take_tops", (seat,)), ("call_foul", (other, seat)),
                ("force_back", (other, seat)), ("declare_own_foul", (seat,)),
                ("meld", (seat, tuple(rng.sample(held, min(3, len(held)))), False)),
                ("drop_card", (seat, card)), ("keep_drawn", (seat,))]

    @staticmethod
    def _specs(hand: PanHand) -> list[SeatSpec]:
        return [SeatSpec(s.name, s.chips) for s in hand.seats.values()]

    def play(self, h: Hand, step: Callable[[], None]) -> None:
        t, hand = h.engine, self._hand(h)
        assert isinstance(t, PanTable)
        bots = [RandomBot(h.rng) for _ in range(hand.n)]
        with instrumented(hand, step):
            t.play(bots)
        assert self.over(h), f"{self.name}: the hand did not end"

    def over(self, h: Hand) -> bool:
        return self._hand(h).phase is PanPhase.COMPLETE

    def next_hand(self, h: Hand) -> Hand:
        """The same table deals again: the winner first hand, on the pack the hand left."""
        t, hand = h.engine, self._hand(h)
        assert isinstance(t, PanTable)
        t.deal(hand.rules, self._specs(hand), next_dealer(hand.n, hand.winner, hand.dealer))
        return self._open(Hand(t, h.rng))

    def money(self, h: Hand) -> int:
        hand = self._hand(h)
        return sum(s.chips for s in hand.seats.values()) + hand.tops_single + hand.tops_double

    def views(self, h: Hand) -> list[View]:
        """No engine view per viewer: the history's redaction. Every card still unseen in the
        stock is hidden; the history names only cards someone has seen."""
        hand = self._hand(h)
        unseen = {i for r, i in hand.unseen_cards() if r == 0}
        seen = {str(c) for i, c in enumerate(hand.pack) if i not in unseen}
        pack = self.history(h).pack
        assert [i for i, c in enumerate(pack) if c == "??"] == sorted(unseen)
        return [("history", pack, seen | {"??"})]

    def history(self, h: Hand) -> HandHistory:
        return history_of(self._hand(h))

    def final(self, h: Hand) -> list[int]:
        return [s.chips for s in self._hand(h).seats.values()]


class instrumented:
    """Run `step()` before each top-level action the bots take (the checks between moves)."""

    def __init__(self, engine: Engine, step: Callable[[], None]) -> None:
        self.engine, self.step, self.depth = engine, step, 0

    def __enter__(self) -> None:
        for name in self.engine.action_names():
            setattr(self.engine, name, self._wrap(getattr(self.engine, name)))

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.depth == 0:
                self.step()
            self.depth += 1
            try:
                return fn(*args, **kwargs)
            finally:
                self.depth -= 1
        return call

    def __exit__(self, *exc: object) -> None:
        for name in self.engine.action_names():
            self.engine.__dict__.pop(name, None)


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


__all__ = ["DEALER", "GAMES", "STACK", "Game", "Hand", "Move", "cards_in"]
