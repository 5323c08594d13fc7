"""Runnable examples (issue 24): each game's engine module opens with a doctest that plays a
short hand through its public actions, and the suite runs every one of them."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import cardroom.games

ENGINE_MODULES = {
    "baccarat": "cardroom.games.baccarat.table",
    "pai_gow": "cardroom.games.pai_gow.table",
    "pan": "cardroom.games.pan.engine",
    "super_pan_9": "cardroom.games.super_pan_9.engine",
}
"""Each game's public engine module (the one whose class follows `cardroom.engine`)."""


def test_every_game_has_its_engine_module_listed() -> None:
    games = {p.name for p in Path(cardroom.games.__file__).parent.iterdir()
             if p.is_dir() and (p / "__init__.py").exists()}
    assert games == set(ENGINE_MODULES)


@pytest.mark.parametrize("name", sorted(ENGINE_MODULES.values()))
def test_engine_module_opens_with_an_example_hand_that_runs(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__ and ">>> " in module.__doc__, f"{name} has no example in its docstring"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert result.attempted >= 5 and result.failed == 0, result
