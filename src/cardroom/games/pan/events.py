"""Frozen events of a Pan hand. The log is the audit trail; `to_json` gives its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from cardroom.cards import Card
from cardroom.engine import Event as ProtocolEvent


@dataclass(frozen=True, slots=True)
class Event(ProtocolEvent):
    """A Pan event (the protocol's `cardroom.engine.Event`), with its JSON form."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": type(self).__name__}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(v: object) -> Any:
    if isinstance(v, Card):
        return str(v)
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    return v


@dataclass(frozen=True, slots=True)
class ToppedUp(Event):
    """Each player's top (double condition players two, the second kept apart)."""
    seat: int
    single: int
    double: int


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    dealer: int
    first_hand: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Declared(Event):
    seat: int
    play: bool
    changed: bool


@dataclass(frozen=True, slots=True)
class CountCorrected(Event):
    """House rule 8: a wrong card count found before the player's first action."""
    seat: int
    had: int
    outcome: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class Drew(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Took(Event):
    """The previous player's unused stock card, taken only to meld it at once."""
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Melded(Event):
    seat: int
    meld: int
    cards: tuple[Card, ...]
    action: str
    valid: bool


@dataclass(frozen=True, slots=True)
class ConditionMade(Event):
    seat: int
    meld: int
    units: int
    why: str


@dataclass(frozen=True, slots=True)
class ChipsMoved(Event):
    payer: int | None
    payee: int | None
    chips: int
    reason: str


@dataclass(frozen=True, slots=True)
class CollectionLost(Event):
    seat: int
    units: int
    why: str


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    card: Card
    from_stock: bool


@dataclass(frozen=True, slots=True)
class Irregularity(Event):
    """Something a player did that the house rules make a cause for calling the hand foul."""
    seat: int
    cause: str
    detail: str


@dataclass(frozen=True, slots=True)
class FoulCalled(Event):
    caller: int | None
    seat: int
    causes: tuple[str, ...]
    self_declared: bool


@dataclass(frozen=True, slots=True)
class Forced(Event):
    forcer: int
    seat: int
    card: Card
    rule: str
    outcome: str


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    cards: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    winner: int | None
    reason: str
    split_with: int | None
