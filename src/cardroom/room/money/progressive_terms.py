"""The terms of the room's progressive jackpot that its game sets (issue 24: no generic module
names a game): the pool's name, the least reset and contribution with the clauses that set them,
the exact break-even of the top award, the words of its award levels and the form words of a
top-award share. The game whose wager feeds the progressive names its `Progressive` in its
registry entry (`progressive`); the progressive controller, the jackpot pages and commands, the
web app and the W-2G read it here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.money import Cents


@dataclass(frozen=True)
class Progressive:
    pool: str
    """The room's progressive pool when a table's house rules link it to no other."""
    least_seed: Cents
    """The least reset (seed) amount the game's rules allow."""
    seed_clause: str
    """The rule that sets it, as the refusal of a smaller reset quotes it."""
    least_contribution: Fraction
    """The least share of each $1 wager added to the meter."""
    contribution_clause: str
    """The rule that sets it, as the refusal of a smaller contribution quotes it."""
    break_even: Callable[[], Fraction]
    """The top award (cents) at which a lone jackpot bettor's expected return is exactly 100%,
    for the shoe the progressive needs (exact; the game caches it)."""
    wager_type: str
    """Form W-2G's box 3 (type of wager) for a top-award share."""
    award_words: Callable[[str], str]
    """An award level as the meters name it ("one_suited_nine") in the layout's words."""


def progressive() -> Progressive:
    """The room's progressive: the one the registered game whose wager feeds it names."""
    for game in registry.games():
        if game.progressive is not None:
            found = registry.load(game.progressive)
            assert isinstance(found, Progressive)
            return found
    raise CardroomError("no registered game has a progressive jackpot")
