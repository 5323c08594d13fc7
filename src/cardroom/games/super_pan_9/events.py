"""The frozen events a Super Pan 9 table appends to its log: hand history, audit and replay."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardroom.cards import Card
from cardroom.money import Cents

from .settlement import Settlement


class IrregularityKind(StrEnum):
    """The irregularities the WSGC rules name: misdeals, exposed cards, wrong card counts."""

    MISDEAL = "misdeal"
    EXPOSED_CARD = "exposed-card"
    WRONG_CARD_COUNT = "wrong-card-count"


@dataclass(frozen=True, slots=True)
class ShoeShuffled:
    round_no: int
    reason: str
    commitment: str
    size: int
    cut_index: int


@dataclass(frozen=True, slots=True)
class WagerPlaced:
    round_no: int
    seat: int
    amount: Cents
    tie_amount: Cents


@dataclass(frozen=True, slots=True)
class HandsDealt:
    """Three cards to each seat with a wager, in seat order, and three to the dealer (rule 5).
    The log is the house's record; viewers get only what `snapshot` lets them see."""

    round_no: int
    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerDrew:
    round_no: int
    seat: int
    card: Card
    total: int


@dataclass(frozen=True, slots=True)
class PlayerStood:
    round_no: int
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class DealerRevealed:
    round_no: int
    cards: tuple[Card, ...]
    total: int
    must_draw: bool


@dataclass(frozen=True, slots=True)
class DealerDrew:
    round_no: int
    card: Card
    total: int


@dataclass(frozen=True, slots=True)
class SeatSettled:
    seat: int
    player_total: int | None
    dealer_total: int | None
    settlement: Settlement


@dataclass(frozen=True, slots=True)
class RoundSettled:
    round_no: int
    dealer_total: int
    seats: tuple[SeatSettled, ...]


@dataclass(frozen=True, slots=True)
class IrregularityHandled:
    """The internal-controls record: what went wrong, whose hands were voided, what went back."""

    round_no: int
    kind: IrregularityKind
    seat: int | None
    detail: str
    policy: str
    voided_seats: tuple[int, ...]
    returned: Cents


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_no: int


Event = (ShoeShuffled | WagerPlaced | HandsDealt | PlayerDrew | PlayerStood | DealerRevealed
         | DealerDrew | RoundSettled | IrregularityHandled | RoundStarted)
