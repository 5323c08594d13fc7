"""Frozen events of a Pan hand. The log is the audit trail; `to_json` gives its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar

from cardroom.cards import Card, card_label, cards_label
from cardroom.engine import Event as ProtocolEvent
from cardroom.games.pan.errors import (
    CHIPS,
    CONDITIONS,
    DECLARATIONS,
    FORCING,
    FOUL_8,
    FOUL_CALLED,
    GOING_OUT,
    MELDS,
    NOTED,
    PAYS_1,
    ROTATION,
    STOCK_OUT,
    TURN_1,
    TURN_4,
)


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
    clause: ClassVar[str] = DECLARATIONS
    seat: int
    single: int
    double: int


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    clause: ClassVar[str] = ROTATION
    dealer: int
    first_hand: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Declared(Event):
    clause: ClassVar[str] = DECLARATIONS
    seat: int
    play: bool
    changed: bool


@dataclass(frozen=True, slots=True)
class CountCorrected(Event):
    """House rule 8: a wrong card count found before the player's first action."""
    clause: ClassVar[str] = FOUL_8
    seat: int
    had: int
    outcome: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class Drew(Event):
    clause: ClassVar[str] = TURN_1
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Took(Event):
    """The previous player's unused stock card, taken only to meld it at once."""
    clause: ClassVar[str] = TURN_1
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Melded(Event):
    clause: ClassVar[str] = MELDS
    seat: int
    meld: int
    cards: tuple[Card, ...]
    action: str
    valid: bool


@dataclass(frozen=True, slots=True)
class ConditionMade(Event):
    clause: ClassVar[str] = CONDITIONS
    seat: int
    meld: int
    units: int
    why: str


@dataclass(frozen=True, slots=True)
class ChipsMoved(Event):
    clause: ClassVar[str] = CHIPS
    payer: int | None
    payee: int | None
    chips: int
    reason: str


@dataclass(frozen=True, slots=True)
class CollectionLost(Event):
    clause: ClassVar[str] = PAYS_1
    seat: int
    units: int
    why: str


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    clause: ClassVar[str] = TURN_4
    seat: int
    card: Card
    from_stock: bool


@dataclass(frozen=True, slots=True)
class Irregularity(Event):
    """Something a player did that the house rules make a cause for calling the hand foul."""
    clause: ClassVar[str] = NOTED
    seat: int
    cause: str
    detail: str


@dataclass(frozen=True, slots=True)
class FoulCalled(Event):
    clause: ClassVar[str] = FOUL_CALLED
    caller: int | None
    seat: int
    causes: tuple[str, ...]
    self_declared: bool


@dataclass(frozen=True, slots=True)
class Forced(Event):
    clause: ClassVar[str] = FORCING
    forcer: int
    seat: int
    card: Card
    rule: str
    outcome: str


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    clause: ClassVar[str] = STOCK_OUT
    cards: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    clause: ClassVar[str] = GOING_OUT
    seat: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    clause: ClassVar[str] = GOING_OUT
    winner: int | None
    reason: str
    split_with: int | None


def _chips(n: int) -> str:
    return f"{n} chip{'s' if n != 1 else ''}"


def event_line(ev: Event, names: Mapping[int, str]) -> str | None:
    """One event as a line of the table's log, in plain words, naming seats by `names` (None:
    an event with nothing public to say, such as the deal). Only what every player at the
    table has seen: a stock card is drawn face up, melds, discards and forced cards lie on
    the table."""
    def who(seat: int | None) -> str:
        return "the tops" if seat is None else names[seat]

    match ev:
        case ChipsMoved(payer, payee, chips, reason):
            return f"{who(payer)} pays {who(payee)} {_chips(chips)} ({reason})"
        case Declared(seat, play, changed):
            verb = ("changes to play" if play else "changes to pass") if changed else \
                ("plays" if play else "passes")
            return f"{names[seat]} {verb}"
        case Drew(seat, card):
            return f"{names[seat]} draws {card_label(card)}"
        case Took(seat, card):
            return f"{names[seat]} takes {card_label(card)}"
        case Melded(seat, meld, cards, action, _):
            return f"{names[seat]}: {action} spread {meld + 1}" + (
                f" ({cards_label(cards)})" if cards else "")
        case ConditionMade(seat, _, units, why):
            return f"{names[seat]} makes a condition worth {units} ({why})"
        case CollectionLost(seat, units, why):
            return f"{names[seat]} loses a collection of {units} ({why})"
        case Discarded(seat, card, _):
            return f"{names[seat]} discards {card_label(card)}"
        case Irregularity(seat, _, detail):
            return f"{names[seat]} {detail}"
        case FoulCalled(caller, seat, _, self_declared):
            if self_declared:
                return f"{names[seat]} declares the hand foul"
            return f"{'the floor' if caller is None else names[caller]} calls " \
                f"{names[seat]}'s hand foul"
        case Forced(forcer, seat, card, _, outcome):
            return f"{names[forcer]} forces {card_label(card)}: {names[seat]} {outcome}"
        case StockReshuffled(cards):
            return f"the discards ({cards} cards) are shuffled into a new stock"
        case WentOut(seat):
            return f"{names[seat]} goes out"
        case HandEnded(winner, reason, split_with):
            if split_with is not None and winner is not None:
                return f"{names[winner]} and {names[split_with]} split the tops"
            return f"hand over: {reason}" + ("" if winner is None else
                                             f", {names[winner]} wins")
        case CountCorrected(seat, _, outcome, _):
            return f"{names[seat]}'s card count is corrected ({outcome})"
    return None
