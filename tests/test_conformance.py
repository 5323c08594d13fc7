"""Conformance of every registered game's engine to the engine protocol (`cardroom.engine`),
the OpenSpiel `api_test` habit: random legal play (seeded, the seed in the test's name) to the
end of many hands, and between any two moves:

- `can_x` agrees with `verify_x` for every move tried, legal or not;
- a refused move raises a `CardroomError` and changes nothing (the engine pickles the same
  before and after);
- the money is conserved (stacks, stakes on the layout and the house's or the tops' share);
- no viewer's view holds a card they may not see (the engine's per-viewer snapshot, or the
  history's redaction where the engine has no such view);

and at each hand's end its history replays (`cardroom.history.replay`) to the same result.
`engine.void` is checked too: every stake back, the table ready for the next hand. A new game
gets all of it by adding its adapter to `conformance_games.GAMES` (the checks are
`conformance_checks`, which a test's own game runs too)."""

from __future__ import annotations

import doctest
import random

import pytest
from conformance_checks import play_checked, void_checked
from conformance_games import GAMES

import cardroom.engine
from cardroom.engine import RuleError


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_legal_play_keeps_the_protocol(name: str) -> None:
    play_checked(GAMES[name])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_void_returns_every_stake_and_is_logged(name: str) -> None:
    void_checked(GAMES[name])


def test_every_registered_engine_writes_its_actions_with_verify_and_can() -> None:
    """The protocol's shape, checked once for every game: each `@action x` has `verify_x`
    and `can_x` (except the composite Pan actions that verify through the ones they call)."""
    composite = {"knock", "foul_by_false_out"}
    for game in GAMES.values():
        e = game.start(random.Random(1)).engine
        for name in e.action_names():
            if name in composite:
                continue
            assert callable(getattr(e, "verify_" + name)), (game.name, name)
            assert callable(getattr(e, "can_" + name)), (game.name, name)


def test_rule_error_names_the_clause() -> None:
    err = RuleError("rule 6 (one card)", "seat 2 has already drawn")
    assert err.clause == "rule 6 (one card)" and str(err) == "seat 2 has already drawn"


def test_engine_protocol_doctests() -> None:
    """The examples in `cardroom.engine`'s docstrings (its public API) run as written."""
    result = doctest.testmod(cardroom.engine)
    assert result.attempted >= 10 and result.failed == 0
