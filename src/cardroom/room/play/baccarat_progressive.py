"""The Super-9 baccarat progressive jackpot's terms for the room (its registry entry's
`progressive`): the pool, the Super-9 floors on the seed and the contribution, the exact
break-even of the top award on the 8-deck shoe, its award levels' words and the W-2G
wager words."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from cardroom.games.baccarat.rules import (
    DEFAULT_POOL,
    JACKPOT_DECKS,
    JACKPOT_SEED_CENTS,
    MIN_CONTRIBUTION,
)
from cardroom.room.money.progressive_terms import Progressive
from cardroom.room.play.baccarat_pages import award_words


@cache
def break_even_cents() -> Fraction:
    """The top award at which a lone jackpot bettor's expected return is exactly 100%, for the
    8-deck shoe the progressive needs (exact, counted once a process: about a second)."""
    from cardroom.analysis.baccarat import count_coups, progressive_break_even_cents
    be = progressive_break_even_cents(count_coups(JACKPOT_DECKS))
    assert be is not None  # an 8-deck shoe deals the top award
    return be


PROGRESSIVE = Progressive(
    pool=DEFAULT_POOL, least_seed=JACKPOT_SEED_CENTS,
    seed_clause="Super-9 rules: the progressive is seeded with $2,500 by the house",
    least_contribution=MIN_CONTRIBUTION,
    contribution_clause="Super-9 rules: at least 20 cents of every $1",
    break_even=break_even_cents,
    wager_type="Super-9 baccarat progressive jackpot (top award share)",
    award_words=award_words)
