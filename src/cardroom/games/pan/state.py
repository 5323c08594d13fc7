"""The parts of a hand's state: phases, seat statuses, foul causes, melds on the board, the
discard pile's entries, and two small checks every action uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from cardroom.cards import Card

from .errors import PanRuleError
from .melds import MeldKind


class Phase(StrEnum):
    DECLARING = "declaring"
    PLAYING = "playing"
    LAST_PLAYER = "last-player"
    COMPLETE = "complete"


class Status(StrEnum):
    IN = "in"
    PASSED = "passed"
    DEAD = "dead"
    FOULED = "fouled"
    SELF_FOULED = "self-fouled"
    BUSTED = "busted"
    OUT = "out"


# Python 3.11 looks an enum's members up through `EnumType.__getattr__`, several times slower
# than a module constant (0.3 us against 0.04 us), and a simulated hand asks thousands of
# times: the engine's and the bots' hot paths compare with these constants.
DECLARING, PLAYING = Phase.DECLARING, Phase.PLAYING
LAST_PLAYER, COMPLETE = Phase.LAST_PLAYER, Phase.COMPLETE
IN, PASSED, DEAD, FOULED = Status.IN, Status.PASSED, Status.DEAD, Status.FOULED
SELF_FOULED, BUSTED, OUT = Status.SELF_FOULED, Status.BUSTED, Status.OUT


class Cause(StrEnum):
    """House foul rule 3 A-F, rule 15 and rule 7 (the floorman)."""

    WRONG_COUNT = "3A wrong card count after touching the deck"
    DISCARD_COUNT = "3B two discards or no discard"
    FLOOR = "3C card thrown on the floor"
    INVALID_MELD = "3D invalid meld not corrected"
    DECK_CARD_IN_HAND = "3E card from the deck put in the hand"
    FALSE_OUT = "3F false declaration of going out"
    BOARD_CARD = "15 card removed from a board spread"
    FLOORMAN = "7 declared foul by the floorman"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    chips: int
    doubles: bool = False


@dataclass
class BoardMeld:
    cards: tuple[Card, ...]
    kind: MeldKind | None
    primary: bool
    deck_card: Card | None = None

    @property
    def valid(self) -> bool:
        return self.kind is not None


@dataclass(eq=False)
class DiscardEntry:
    card: Card
    seat: int
    from_stock: bool
    drawers: set[int] = field(default_factory=set)
    touched: bool = False
    chosen: bool = False
    """Discarded by choice, not the discard owed after a card was forced back on him: if it
    puts him out (his spread and hand unchanged while it may be forced back), discarding it
    was an attempt to pyramid (rule 14A)."""


@dataclass
class SeatState:
    name: str
    chips: int
    doubles: bool
    hand: list[Card] = field(default_factory=list)
    melds: list[BoardMeld] = field(default_factory=list)
    status: Status = Status.IN
    declared: bool | None = None
    collected: Counter[int] = field(default_factory=Counter)
    owed: Counter[int] = field(default_factory=Counter)
    causes: list[Cause] = field(default_factory=list)
    pending: list[tuple[int, str]] = field(default_factory=list)
    touched_deck: bool = False
    kept_drawn: bool = False  # 3E: a deck card in the hand, a cause only if he then discards
    locked_declaration: bool = False
    late_change_allowed: bool = False
    changed_declaration: bool = False
    """He has changed his declaration once: the change stands (house rules header, "may change
    his declaration", one change, not a toggle); foul rule 8C grants a fresh one."""
    threw_in: bool = False
    fouled_by_false_out: bool = False
    foul_value: int = 0
    pays_outs_when_fouled: bool = False
    start_chips: int = 0

    @property
    def melded_count(self) -> int:
        return sum(len(m.cards) for m in self.melds)

    @property
    def card_count(self) -> int:
        return len(self.hand) + self.melded_count


def take_cards(hand: list[Card], cards: Sequence[Card]) -> list[Card] | None:
    """`hand` less `cards` (as a multiset), or None when the hand lacks one of them."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return rest


def check(ok: bool, rule: str, message: str) -> None:
    if not ok:
        raise PanRuleError(rule, message)
