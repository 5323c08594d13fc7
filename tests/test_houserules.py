"""House rules loaded from TOML with validated ranges and clear errors."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cardroom.errors import RulesError
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.houserules import load_rules
from cardroom.money import Rounding


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "rules.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_defaults_are_the_documents() -> None:
    r = BaccaratRules()
    assert r.decks == 8 and r.commission == Fraction(1, 20) and r.tie_pays == 8
    assert r.jackpot_seed_cents == 250_000 and r.jackpot_contribution == Fraction(1, 5)


def test_a_valid_file_loads(tmp_path: Path) -> None:
    r = load_rules(BaccaratRules, write(tmp_path, """
decks = 8
commission = "4%"
commission_rounding = "half-even"
tie_pays = 9
paytable = 3
bonus_without_main = true
jackpot_contribution = "0.25"
"""))
    assert r.commission == Fraction(1, 25) and r.commission_rounding is Rounding.HALF_EVEN
    assert r.tie_pays == 9 and r.paytable == 3 and r.bonus_without_main
    assert r.contribution_cents_per_dollar == 25


@pytest.mark.parametrize(("text", "needle"), [
    ("decks = 9", "decks"),
    ("paytable = 4", "paytable"),
    ("commission = 0.05", "not a float"),
    ("commission = \"12%\"", "between 0% and 10%"),
    ("colour = \"red\"", "colour"),
    ("jackpot_contribution = \"0.10\"", "at least 20 cents"),
    ("decks = 6", "8-deck shoe"),
    ("table_min_cents = 1000\ntable_max_cents = 500", "table_min_cents"),
    ("decks = [", "not valid TOML"),
    ("cut_card_from_end = 10", "at least 11"),
    ("cut_card_from_end = 4\ncoups_after_cut_card = 0", "greater than or equal to 6"),
])
def test_malformed_files_give_one_clear_line(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(RulesError, match=needle) as info:
        load_rules(BaccaratRules, write(tmp_path, text))
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="no such house-rules file"):
        load_rules(BaccaratRules, tmp_path / "nope.toml")


def test_super9_eight_decks_rule_allows_other_shoes_without_the_jackpot() -> None:
    """Super-9: "If the progressive jackpot is not used the house may use more or fewer than 8"."""
    assert BaccaratRules(decks=6, jackpot=False).decks == 6
