"""High Card, the registry's toy game (issue 24): one card to each seat with a wager and one
to the house, from a fresh 52-card pack; the higher rank wins 1 to 1 (aces high), equal ranks
push. Its rules, numbered here, are the clauses its events name:

1. A seat places one wager, between the table's minimum and maximum, before the deal.
2. The deal: one card to each seat with a wager, in seat order, then one to the house.
3. The settlement, at once: a seat whose card outranks the house's wins its wager, a lower
   card loses it, an equal rank returns it.

>>> from cardroom.cards import parse_cards
>>> t = HighCardTable(HighCardRules(), order=parse_cards("Ks 9d Qh"))
>>> t.sit(1, 1_000); t.sit(2, 1_000)
>>> t.place_wager(1, 200).amount, t.place_wager(2, 300).amount
(200, 300)
>>> [(s.seat, s.net) for s in t.deal().seats]
[(1, 200), (2, -300)]
>>> t.stacks
{1: 1200, 2: 700}

Through the engine protocol (`cardroom.engine`): after the deal the hand is over and settled.

>>> t.is_over(), t.settlement()
(True, {1: 200, 2: -300})
>>> [(a.name, a.args) for a in t.legal_actions(1)]
[('place_wager', (1, 100)), ('place_wager', (1, 1200))]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from cardroom.cards import Card, parse_card, standard_pack
from cardroom.engine import (
    TABLE,
    Action,
    Engine,
    Event,
    RuleError,
    Seat,
    Voided,
    WagerRefused,
    able,
    action,
    amounts,
)
from cardroom.houserules import HouseRules
from cardroom.money import Cents
from cardroom.shoe import RandomSource, SystemRandom, fisher_yates

WAGER = "rule 1 (one wager a seat, within the limits)"
DEAL = "rule 2 (one card each, the house last)"
SETTLE = "rule 3 (the higher rank wins 1 to 1, equal ranks push)"


class HighCardRules(HouseRules):
    """The table's house rules: its wager limits."""

    min_wager_cents: int = 100
    max_wager_cents: int = 10_000
    house_banked: ClassVar[bool] = True

    def check_settings(self) -> None:
        self.check_limits(("min_wager_cents", "max_wager_cents"))


@dataclass(frozen=True)
class WagerPlaced(Event):
    clause = WAGER
    seat: int
    amount: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "wager", "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True)
class WagerWithdrawn(Event):
    clause = WAGER
    seat: int
    amount: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "withdraw", "seat": self.seat}


@dataclass(frozen=True)
class SeatSettled:
    seat: int
    card: str
    wager: Cents
    net: Cents


@dataclass(frozen=True)
class Settled(Event):
    clause = SETTLE
    house: str
    seats: tuple[SeatSettled, ...]

    def history_action(self) -> dict[str, Any]:
        return {"type": "deal"}

    def dealt(self) -> tuple[Card, ...]:
        return (*(parse_card(s.card) for s in self.seats), parse_card(self.house))


class HighCardTable(Engine):
    """The table from hand to hand: the seats' stacks, the wagers down, the last deal."""

    def __init__(self, rules: HighCardRules, order: list[Card] | None = None,
                 source: RandomSource | None = None) -> None:
        self.rules = rules
        self.events: list[Event] = []
        self.order = order  # a replay's recorded cards; None: a fresh shuffled pack
        self.source = source or SystemRandom()
        self.stacks: dict[int, Cents] = {}
        self.wagers: dict[int, Cents] = {}
        self.last: Settled | None = None

    def sit(self, seat: int, stack: Cents) -> None:
        self.stacks[seat] = stack

    def leave(self, seat: int) -> None:
        self.stacks.pop(seat, None)

    def verify_place_wager(self, seat: int, amount: Cents) -> None:
        r = self.rules
        if seat not in self.stacks:
            raise RuleError(WAGER, "that seat is empty")
        if seat in self.wagers:
            raise WagerRefused(WAGER, "the seat has its wager down already")
        if isinstance(amount, bool) or not isinstance(amount, int) or \
                not r.min_wager_cents <= amount <= r.max_wager_cents:
            raise WagerRefused(WAGER, "the wager must be between the table's minimum and "
                                      "maximum")
        if amount > self.stacks[seat]:
            raise WagerRefused(WAGER, "the wager is more than the seat's chips")

    can_place_wager = able(verify_place_wager)

    @action
    def place_wager(self, seat: int, amount: Cents) -> WagerPlaced:
        self.stacks[seat] -= amount
        self.wagers[seat] = amount
        return self._log(WagerPlaced(seat, amount))

    def verify_withdraw(self, seat: int) -> None:
        if seat not in self.wagers:
            raise RuleError(WAGER, "the seat has no wager down")

    can_withdraw = able(verify_withdraw)

    @action
    def withdraw(self, seat: int) -> WagerWithdrawn:
        amount = self.wagers.pop(seat)
        self.stacks[seat] += amount
        return self._log(WagerWithdrawn(seat, amount))

    def verify_deal(self) -> None:
        if not self.wagers:
            raise RuleError(DEAL, "no wager is down")

    can_deal = able(verify_deal)

    @action
    def deal(self) -> Settled:
        pack = list(self.order) if self.order is not None else fisher_yates(
            standard_pack(), self.source)
        seats = sorted(self.wagers)
        if len(pack) < len(seats) + 1:
            raise RuleError(DEAL, "the pack has too few cards")
        house = pack[len(seats)]
        settled = []
        for seat, card in zip(seats, pack, strict=False):
            wager = self.wagers[seat]
            net = wager if card.rank > house.rank else -wager if card.rank < house.rank else 0
            self.stacks[seat] += wager + net
            settled.append(SeatSettled(seat, str(card), wager, net))
        self.wagers = {}
        self.last = self._log(Settled(str(house), tuple(settled)))
        return self.last

    def _void(self, reason: str) -> int:
        back = sum(self.wagers.values())
        for seat, amount in self.wagers.items():
            self.stacks[seat] += amount
        self.wagers = {}
        return back

    # ----- the game's flow (the engine protocol) ------------------------------------------
    free = frozenset({"place_wager"})

    def table_seats(self) -> list[Seat]:
        return [*sorted(self.stacks), TABLE]

    def _offers(self, seat: Seat) -> Iterator[Action]:
        if seat == TABLE:
            yield Action("deal")
            return
        r = self.rules
        for amount in amounts(r.min_wager_cents, r.max_wager_cents, self.stacks.get(seat)):
            yield Action("place_wager", (seat, amount), seat)
        yield Action("withdraw", (seat,), seat)

    def is_over(self) -> bool:
        """Over once the deal settles it (or a void), until the next wager."""
        last = next((e for e in reversed(self.events)
                     if isinstance(e, WagerPlaced | WagerWithdrawn | Settled | Voided)), None)
        return isinstance(last, Settled | Voided)

    def _settlement(self) -> dict[int, int]:
        last = self.events[-1]
        return {} if isinstance(last, Voided) else {s.seat: s.net for s in last.seats}

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        """Every card is dealt face up and settled at once: everyone sees the same table."""
        last = self.last
        return {"stacks": dict(self.stacks), "wagers": dict(self.wagers),
                "house": last.house if last else None,
                "cards": {s.seat: s.card for s in last.seats} if last else {}}
