"""The 21 ways to set seven cards, and foul detection (the back must outrank the front)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from cardroom.cards import Card, format_cards
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.evaluate import evaluate2, evaluate5

FRONT_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(7), 2))
"""Setting index i puts cards FRONT_PAIRS[i] of the seven in front (the same order everywhere,
kernels included)."""


class FoulSettingError(CardroomError):
    """A setting whose five-card back does not outrank its two-card front."""


def validate_seven(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Seven distinct cards of the 53-card deck, or a clear error."""
    if len(cards) != 7:
        raise CardroomError(f"a Pai Gow hand has 7 cards, not {len(cards)}")
    if sum(c.is_joker for c in cards) > 1:
        raise CardroomError("the Pai Gow deck has one joker, the hand holds two")
    if len(set(cards)) != 7:
        dup = next(c for c in cards if cards.count(c) > 1)
        raise CardroomError(f"the hand holds {dup} twice; the deck has one of each card")
    return tuple(cards)


@dataclass(frozen=True)
class Setting:
    """Seven cards arranged: two in front (low hand), five in back (high hand)."""

    front: tuple[Card, Card]
    back: tuple[Card, Card, Card, Card, Card]
    wheel_second: bool = False

    @property
    def front_score(self) -> int:
        return evaluate2(self.front)

    @property
    def back_score(self) -> int:
        return evaluate5(self.back, self.wheel_second)

    @property
    def is_foul(self) -> bool:
        return self.back_score <= self.front_score

    def __str__(self) -> str:
        return f"front {format_cards(self.front)} | back {format_cards(self.back)}"


def setting_at(cards: Sequence[Card], index: int, wheel_second: bool = False) -> Setting:
    i, j = FRONT_PAIRS[index]
    back = tuple(c for k, c in enumerate(cards) if k not in (i, j))
    return Setting((cards[i], cards[j]), back, wheel_second)  # type: ignore[arg-type]


def all_settings(cards: Sequence[Card], wheel_second: bool = False) -> list[Setting]:
    """All 21 settings, foul ones included, in FRONT_PAIRS order."""
    seven = validate_seven(cards)
    return [setting_at(seven, i, wheel_second) for i in range(21)]


def legal_settings(cards: Sequence[Card], wheel_second: bool = False) -> list[Setting]:
    return [s for s in all_settings(cards, wheel_second) if not s.is_foul]


def make_setting(
    cards: Sequence[Card], front: Sequence[Card], wheel_second: bool = False
) -> Setting:
    """The setting of `cards` with `front` in front; refuses cards not held and fouls."""
    seven = validate_seven(cards)
    if len(front) != 2 or len(set(front)) != 2:
        raise CardroomError("the front (low) hand is two different cards")
    missing = [c for c in front if c not in seven]
    if missing:
        raise CardroomError(f"{format_cards(missing)} not in the hand {format_cards(seven)}")
    back = tuple(c for c in seven if c not in front)
    setting = Setting((front[0], front[1]), back, wheel_second)  # type: ignore[arg-type]
    return setting
