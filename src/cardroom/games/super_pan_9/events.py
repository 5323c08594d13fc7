"""The frozen events a Super Pan 9 table appends to its log: hand history, audit and replay."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from cardroom.cards import Card
from cardroom.engine import Event
from cardroom.money import Cents

from .settlement import Settlement

WAGERS = "rule 5 (wagers)"
DEAL = "rule 3 (the deal)"
ONE_CARD = "rule 6 (one card)"
DEALER = "rule 7 (the dealer)"
SETTLEMENT = "rules 4, 8, 9 (settlement)"
IRREGULARITIES = "internal controls: irregularities"
"""The clause each kind of action applies (a refusal that cites a narrower one names it)."""


class IrregularityKind(StrEnum):
    """The irregularities the WSGC rules name: misdeals, exposed cards, wrong card counts."""

    MISDEAL = "misdeal"
    EXPOSED_CARD = "exposed-card"
    WRONG_CARD_COUNT = "wrong-card-count"


@dataclass(frozen=True, slots=True)
class ShoeShuffled(Event):
    clause: ClassVar[str] = "rule 1 (the shoe)"
    round_no: int
    reason: str
    commitment: str
    size: int
    cut_index: int


@dataclass(frozen=True, slots=True)
class WagerPlaced(Event):
    clause: ClassVar[str] = WAGERS
    round_no: int
    seat: int
    amount: Cents
    tie_amount: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "wager", "seat": self.seat, "amount": self.amount,
                "tie": self.tie_amount}


@dataclass(frozen=True, slots=True)
class WagersWithdrawn(Event):
    """A seat's wager and Tie Bet taken back before the deal (they come home; the hand
    history keeps no trace of them)."""

    clause: ClassVar[str] = WAGERS
    round_no: int
    seat: int
    returned: Cents

    def takes_back(self, action: dict[str, Any]) -> bool:
        return action["type"] == "wager" and action.get("seat") == self.seat


@dataclass(frozen=True, slots=True)
class HandsDealt(Event):
    """Three cards to each seat with a wager, in seat order, and three to the dealer (rule 5).
    The log is the house's record; viewers get only what `snapshot` lets them see."""

    clause: ClassVar[str] = DEAL
    round_no: int
    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]

    def history_action(self) -> dict[str, Any]:
        return {"type": "deal"}

    def dealt(self) -> tuple[Card, ...]:
        """Rule 5: one card at a time, each seat in order and then the dealer, three times."""
        return tuple(c for k in range(3) for c in (*(h[k] for _, h in self.hands),
                                                    self.dealer[k]))


@dataclass(frozen=True, slots=True)
class PlayerDrew(Event):
    clause: ClassVar[str] = ONE_CARD
    round_no: int
    seat: int
    card: Card
    total: int

    def history_action(self) -> dict[str, Any]:
        return {"type": "draw", "seat": self.seat}

    def dealt(self) -> tuple[Card, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class PlayerStood(Event):
    clause: ClassVar[str] = ONE_CARD
    round_no: int
    seat: int
    total: int

    def history_action(self) -> dict[str, Any]:
        return {"type": "stand", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class DealerRevealed(Event):
    clause: ClassVar[str] = DEALER
    round_no: int
    cards: tuple[Card, ...]
    total: int
    must_draw: bool

    def history_action(self) -> dict[str, Any]:
        return {"type": "reveal", "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class DealerDrew(Event):
    clause: ClassVar[str] = DEALER
    round_no: int
    card: Card
    total: int

    def history_action(self) -> dict[str, Any]:
        return {"type": "dealer_draw"}

    def dealt(self) -> tuple[Card, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class SeatSettled(Event):
    clause: ClassVar[str] = SETTLEMENT
    seat: int
    player_total: int | None
    dealer_total: int | None
    settlement: Settlement


@dataclass(frozen=True, slots=True)
class RoundSettled(Event):
    clause: ClassVar[str] = SETTLEMENT
    round_no: int
    dealer_total: int
    seats: tuple[SeatSettled, ...]


@dataclass(frozen=True, slots=True)
class IrregularityHandled(Event):
    """The internal-controls record: what went wrong (`detail`: who and why, as the floor
    gave it), at which seat (None: the deal or the dealer's hand), whose hands were voided,
    what went back. An action of the hand history: the replay voids the same hands."""
    clause: ClassVar[str] = IRREGULARITIES

    round_no: int
    kind: IrregularityKind
    seat: int | None
    detail: str
    policy: str
    voided_seats: tuple[int, ...]
    returned: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "irregularity", "kind": self.kind.value, "seat": self.seat,
                "reason": self.detail}


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    clause: ClassVar[str] = "rule 5 (a new round)"
    round_no: int


