"""The progressive's terms come from the game whose wager feeds it (issue 24: no generic module
names a game; the registry's `progressive`): the Super-9 floors on the reset and the
contribution (/work/shared/rules/super-9-baccarat.wsgc.txt, "PROGRESSIVE JACKPOT": "seeded with
$2500 by the house", "a minimum of .20 cents" of every $1), the W-2G words and the award
levels' words, and the outcomes' words the hand page shows."""

from __future__ import annotations

import pytest

from cardroom.errors import CardroomError
from cardroom.room.money.progressive_terms import progressive
from cardroom.room.play.progressive import Settings
from cardroom.room.play.recall import result_words


def test_the_reset_and_the_contribution_keep_the_super9_floors_in_the_refusals() -> None:
    with pytest.raises(CardroomError) as seed:
        Settings(249_999, 20).check()
    assert str(seed.value) == ("the reset amount must be at least $2,500.00 (Super-9 rules: "
                               "the progressive is seeded with $2,500 by the house)")
    with pytest.raises(CardroomError) as contribution:
        Settings(250_000, 19).check()
    assert str(contribution.value) == ("the contribution must be between 20 cents and $1 of "
                                       "each $1 wager (Super-9 rules: at least 20 cents of "
                                       "every $1)")
    Settings(250_000, 20).check()


def test_the_progressive_terms_are_the_super9_ones() -> None:
    terms = progressive()
    assert (terms.pool, terms.least_seed) == ("super9", 250_000)
    assert terms.wager_type == "Super-9 baccarat progressive jackpot (top award share)"
    assert terms.award_words("one_suited_nine") == "Player or Banker has a suited 9"
    assert terms.award_words("some_level") == "some level"


def test_an_outcome_reads_in_the_words_of_the_game_that_knows_it() -> None:
    assert result_words("suited nine") == "wins on a suited 9"
    assert result_words("lose") == "loses"
    assert result_words("fouled") == "fouled"
