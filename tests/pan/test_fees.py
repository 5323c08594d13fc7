"""Pan fees (WAC 230-15-080, "Authorized fees"): the maximums the room enforces are the ones
the digest states (`tests/fixtures/pan/wac-fee-caps.toml`, written from the digest, not from
the code), a house-rules file above any of them is refused naming the section, and a rake
never takes more than its rate."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cardroom.errors import RulesError
from cardroom.games.pan.fees import fee_caps
from cardroom.games.pan.rules import PanRules
from cardroom.houserules import build_rules, load_rules

CAPS = tomllib.loads((Path(__file__).parents[1] / "fixtures" / "pan" / "wac-fee-caps.toml")
                     .read_text(encoding="utf-8"))


def rules(fee: dict[str, Any]) -> PanRules:
    return build_rules(PanRules, {"fee": fee})


def test_wac_230_15_080_caps_are_the_digest_s() -> None:
    caps = fee_caps()
    assert caps.section == "WAC 230-15-080"
    assert caps.time_cents_per_hour == CAPS["time_max_cents_per_hour"]
    assert caps.time_minutes_between == CAPS["time_max_minutes_between_collections"]
    assert caps.hand_cents == CAPS["hand_max_cents"]
    assert caps.rake_rate == Fraction(CAPS["rake_max_percent"], 100)


def test_wac_230_15_080_fees_at_the_maximum_are_accepted() -> None:
    hourly = CAPS["time_max_cents_per_hour"]
    assert rules({"kind": "hand", "cents": CAPS["hand_max_cents"]}).fee is not None
    assert rules({"kind": "time", "cents": hourly, "every_minutes": 60}).fee is not None
    assert rules({"kind": "time", "cents": hourly // 2, "every_minutes": 30}).fee is not None
    assert rules({"kind": "rake", "rate": f"{CAPS['rake_max_percent']}%"}).fee is not None


@pytest.mark.parametrize("fee, words", [
    ({"kind": "hand", "cents": CAPS["hand_max_cents"] + 1}, "a hand a player"),
    ({"kind": "time", "cents": CAPS["time_max_cents_per_hour"] + 1, "every_minutes": 60},
     "an hour a player"),
    ({"kind": "time", "cents": CAPS["time_max_cents_per_hour"] // 2 + 1,
      "every_minutes": 30}, "an hour a player"),
    ({"kind": "time", "cents": 100,
      "every_minutes": CAPS["time_max_minutes_between_collections"] + 1}, "at least every"),
    ({"kind": "rake", "rate": f"{CAPS['rake_max_percent'] + 1}%"}, "of the wagers of a hand"),
    ({"kind": "rake", "rate": "10.01%"}, "of the wagers of a hand"),
])
def test_wac_230_15_080_a_fee_above_the_maximum_is_refused(fee: dict[str, Any],
                                                           words: str) -> None:
    with pytest.raises(RulesError) as err:
        rules(fee)
    assert "WAC 230-15-080" in str(err.value) and words in str(err.value)


def test_a_house_rules_file_with_a_fee_above_the_maximum_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pan.toml"
    path.write_text('[fee]\nkind = "hand"\ncents = 150\n', encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_rules(PanRules, path)
    assert str(err.value) == (f"{path}: fee: a fee of $1.50 a hand is more than WAC 230-15-080 "
                              "allows (at most $1.00 a hand a player)")


@pytest.mark.parametrize("fee", [
    {"kind": "hand", "cents": 50, "rate": "5%"},
    {"kind": "hand", "cents": 50, "every_minutes": 30},
    {"kind": "time", "cents": 50},
    {"kind": "rake", "rate": "5%", "cents": 10},
    {"kind": "rake"},
    {"kind": "drop", "cents": 10},
])
def test_one_fee_type_at_a_time_stated_in_full(fee: dict[str, Any]) -> None:
    """WAC 230-15-080: only one type of fee at a table at a time; each names what it needs."""
    with pytest.raises(RulesError):
        rules(fee)


def test_no_fee_leaves_the_rules_dump_as_it_was() -> None:
    assert "fee" not in build_rules(PanRules, {}).model_dump(mode="json")


def test_a_rake_rounds_down_never_above_its_rate() -> None:
    fee = rules({"kind": "rake", "rate": "10%"}).fee
    assert fee is not None
    assert [fee.rake_on(c) for c in (0, 9, 10, 199, 200, 2_000)] == [0, 0, 1, 19, 20, 200]
