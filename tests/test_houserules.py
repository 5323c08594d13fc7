"""House rules loaded from TOML with validated ranges and clear errors."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.errors import RulesError
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.pai_gow.limits import PaiGowTableRules
from cardroom.games.pan.rules import PanRules
from cardroom.games.super_pan_9.rules import SuperPan9Rules
from cardroom.houserules import HouseRules, build_rules, build_what_if_rules, load_rules
from cardroom.money import Rounding


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "rules.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_defaults_are_the_documents() -> None:
    r = BaccaratRules()
    assert r.decks == 8 and r.commission == Fraction(1, 20) and r.tie_pays == 8
    assert r.jackpot_seed_cents == 250_000 and r.jackpot_contribution == Fraction(1, 5)


MODIFIED = """
decks = 8
commission = "4%"
smallest_chip_cents = 5
tie_pays = 9
paytable = 3
bonus_without_main = true
jackpot_contribution = "0.25"

[[modifications]]
id = "banker-commission-4"
clause = "Mini-Baccarat: player pays 5% commission"
description = "banker wins pay 4% commission, rounded down to the nickel"
settings = ["commission"]

[[modifications]]
id = "tie-nine"
clause = "Mini-Baccarat: Winning Tie bets are paid 8 to 1"
description = "a winning tie pays 9 to 1"
settings = ["tie_pays"]
"""


def test_a_valid_file_loads_with_its_named_modifications(tmp_path: Path) -> None:
    r = load_rules(BaccaratRules, write(tmp_path, MODIFIED))
    assert r.commission == Fraction(1, 25) and r.commission_rounding is Rounding.DOWN
    assert r.commission_policy.charge(1000) == 40 and r.commission_policy.charge(990) == 35
    assert r.tie_pays == 9 and r.paytable == 3 and r.bonus_without_main
    assert r.contribution_cents_per_dollar == 25
    assert [(m.id, m.settings) for m in r.modifications] == [
        ("banker-commission-4", ("commission",)), ("tie-nine", ("tie_pays",))]
    assert "9 to 1" in r.modifications[1].description


@pytest.mark.parametrize(("text", "needle"), [
    ('commission = "4%"',
     r'commission = 4% departs from the Mini-Baccarat rules \("Winning Banker hand wagers are '
     r'paid 1 to 1, but player pays 5% commission"\).*settings = \["commission"\]'),
    ("tie_pays = 9", r'tie_pays = 9 to 1 departs from the Mini-Baccarat rules \("Winning Tie '
                     r'bets are paid 8 to 1"\)'),
    ('commission = "6%"', r"between 0% and 5%.*no immaterial modification"),
    ("jackpot_seed_cents = 249999", r"at least \$2,500\.00 \(Super-9 rules.*seeded with \$2500"),
    ('jackpot_contribution = "0.19"', r"at least 20 cents per \$1 \(Super-9 rules.*\.20 cents"),
    ('commission_rounding = "up"', r"'up' to 25 cent\(s\) would charge \$0\.25 on a \$0\.01 "
                                   "win, more than the posted 5%"),
    ('commission_rounding = "half-even"\nsmallest_chip_cents = 25',
     r"would charge \$0\.25 on a \$2\.51 win"),
])
def test_rules_that_contradict_the_documents_are_refused_naming_the_clause(
        tmp_path: Path, text: str, needle: str) -> None:
    """Issue 10: a departure from the documents is refused (with its clause) unless it is a
    named immaterial modification; one beyond the documents' limits is refused outright."""
    with pytest.raises(RulesError, match=needle) as info:
        load_rules(BaccaratRules, write(tmp_path, text))
    assert "\n" not in str(info.value)


def test_the_seed_rule_applies_only_with_the_jackpot() -> None:
    """Super-9: the $2,500 seed is the progressive's; a table without it has no seed to post."""
    assert not build_rules(BaccaratRules, {"jackpot_seed_cents": 0, "jackpot": False}).jackpot
    assert build_rules(BaccaratRules, {"jackpot_seed_cents": 500_000}).jackpot_seed_cents == \
        500_000


@pytest.mark.parametrize(("extra", "needle"), [
    ('[[modifications]]\nid = "tie"\nclause = "x"\ndescription = "y"\nsettings = ["tie_pays"]',
     "modification 'tie' names 'tie_pays', which does not depart from the rules"),
    ('[[modifications]]\nid = "tie"\nclause = "x"\ndescription = "y"\nsettings = []',
     "settings"),
    ('[[modifications]]\nid = "Tie Nine"\nclause = "x"\ndescription = "y"\n'
     'settings = ["commission"]', "id"),
])
def test_a_modification_must_name_a_real_departure(tmp_path: Path, extra: str,
                                                   needle: str) -> None:
    """A modification that covers nothing would be posted for nothing: refused."""
    with pytest.raises(RulesError, match=needle):
        load_rules(BaccaratRules, write(tmp_path, 'commission = "4%"\n' + extra))


def test_one_modification_id_once(tmp_path: Path) -> None:
    text = MODIFIED.replace('id = "tie-nine"', 'id = "banker-commission-4"')
    with pytest.raises(RulesError, match="'banker-commission-4' is used twice"):
        load_rules(BaccaratRules, write(tmp_path, text))


def test_super_pan_9_commission_above_5_percent_is_refused_naming_rule_8() -> None:
    with pytest.raises(RulesError, match=r"Super Pan 9 rule 8.*up to a 5% commission"):
        build_rules(SuperPan9Rules, {"commission": "5.5%"})


def test_pan_buy_in_other_than_20_chips_needs_a_modification() -> None:
    """Pan house rules: "The buy-in for each game is 20chips of equal denominations"."""
    with pytest.raises(RulesError, match=r"buy_in_chips = 30 chips departs from the Pan house "
                                         r"rules \(\"The buy-in for each game is 20chips"):
        build_rules(PanRules, {"buy_in_chips": 30})
    mod = {"id": "buy-in-30", "clause": "buy-in 20 chips", "description": "30 chips",
           "settings": ["buy_in_chips"]}
    assert build_rules(PanRules, {"buy_in_chips": 30, "modifications": [mod]}).buy_in_chips == 30


def test_what_if_rules_name_every_hypothetical_departure() -> None:
    """Analysis of hypothetical values: each departure becomes an explicit "what-if"
    modification, never a silently accepted number; the documents' limits still hold."""
    r = build_what_if_rules(BaccaratRules, {"tie_pays": 9, "commission": "4%"})
    assert [(m.id, m.settings) for m in r.modifications] == [
        ("what-if-commission", ("commission",)), ("what-if-tie-pays", ("tie_pays",))]
    assert "Winning Tie bets are paid 8 to 1" in r.modifications[1].clause
    with pytest.raises(RulesError, match="between 0% and 5%"):
        build_what_if_rules(BaccaratRules, {"commission": "6%"})
    assert build_what_if_rules(BaccaratRules, {}).modifications == ()
    mods = [{"id": "tie-nine", "clause": "tie 8 to 1", "description": "9 to 1",
             "settings": ["tie_pays"]}]
    back = build_what_if_rules(BaccaratRules, {"tie_pays": 8, "modifications": mods})
    assert back.modifications == ()  # an override back to the documents drops its entry
    kept = build_what_if_rules(BaccaratRules, {"tie_pays": 9, "modifications": mods})
    assert [m.id for m in kept.modifications] == ["tie-nine"]


@pytest.mark.parametrize(("text", "needle"), [
    ("decks = 9", "decks"),
    ("paytable = 4", "paytable"),
    ("commission = 0.05", "not a float"),
    ("commission = \"12%\"", "between 0% and 5%"),
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


def test_modifications_travel_with_the_rules_and_are_absent_when_none(tmp_path: Path) -> None:
    """Modifications are part of the posted rules: a table row or hand history keeps them
    (dump, then load again, gives the same rules); rules that follow the documents dump
    without the key, exactly as before modifications existed."""
    r = load_rules(BaccaratRules, write(tmp_path, MODIFIED))
    again = build_rules(BaccaratRules, r.model_dump(mode="json"))
    assert again == r and again.modifications[0].id == "banker-commission-4"
    assert "modifications" not in BaccaratRules().model_dump(mode="json")


# The table's smallest chip (issue 23: trays hold chips, never cents) ---------------------------
@pytest.mark.parametrize(("model", "rules", "sentence"), [
    (BaccaratRules, {"table_min_cents": 510},
     "table_min_cents of $5.10 is not a whole number of this table's $0.25 chips: make it "
     "$5.00 or $5.25"),
    (SuperPan9Rules, {"smallest_chip_cents": 100, "tie_min_cents": 150},
     "tie_min_cents of $1.50 is not a whole number of this table's $1.00 chips"),
    (PaiGowTableRules, {"smallest_chip_cents": 500, "min_wager_cents": 1_000,
                        "max_wager_cents": 30_100},
     "max_wager_cents of $301.00 is not a whole number of this table's $5.00 chips"),
    (BaccaratRules, {"smallest_chip_cents": 500, "table_min_cents": 1_000,
                     "tie_min_cents": 500, "bonus_min_cents": 500},
     "the progressive jackpot wager of $1.00 (Super-9 rules) is not a whole number of $5.00 "
     "chips"),
])
def test_limits_are_whole_numbers_of_the_smallest_chip(model: type[HouseRules],
                                                       rules: dict[str, object],
                                                       sentence: str) -> None:
    """WAC 230-15-500: chips enter and leave a tray at equal value, so a wager, and with it
    every limit, is a whole number of the table's smallest chip; a file that says otherwise is
    refused in one sentence naming the setting (and the Super-9 jackpot's $1 wager needs a
    chip that makes it)."""
    with pytest.raises(RulesError, match=re.escape(sentence)) as info:
        build_rules(model, rules)
    assert "\n" not in str(info.value)


def test_the_default_chip_is_a_quarter_and_older_records_keep_theirs() -> None:
    """A quarter by default (5% of a whole-dollar wager is whole quarters; the $1 jackpot wager
    is four); a table row or hand history written when the rules named only the commission's
    unit (`commission_unit_cents`) reads it as the table's chip, so it replays as it was
    played (5% of $5.10 rounded down to the cent is 25 cents)."""
    assert BaccaratRules().smallest_chip_cents == 25
    assert SuperPan9Rules().smallest_chip == 25 and PaiGowTableRules().smallest_chip == 25
    old = build_rules(BaccaratRules, {"commission_unit_cents": 1})
    assert old.smallest_chip_cents == 1 and old.commission_policy.charge(510) == 25
    assert "commission_unit_cents" not in old.model_dump()
    assert PanRules(chip_cents=200).smallest_chip == 200


@given(chip=st.sampled_from([1, 5, 25, 50, 100, 500]), chips=st.integers(1, 1_200),
       rate=st.sampled_from([Fraction(1, 20), Fraction(1, 25), Fraction(3, 100), Fraction(0)]))
def test_commission_is_rounded_down_to_the_chip_never_above_the_rate(
        chip: int, chips: int, rate: Fraction) -> None:
    """Mini-Baccarat ("player pays 5% commission"), Super Pan 9 rule 8 and the Pai Gow note to
    rule 10 ("up to a 5% commission"): on any win of whole chips the commission is whole chips,
    at most the posted rate of the win, and less than one chip below it (the fraction waived:
    the player keeps it)."""
    rules = build_rules(SuperPan9Rules, {"commission": str(rate), "smallest_chip_cents": chip,
                                         "min_wager_cents": chip, "max_wager_cents": chip,
                                         "tie_min_cents": chip, "tie_max_cents": chip})
    win = chips * chip
    charged = rules.commission_policy.charge(win)
    assert charged % chip == 0
    assert charged <= rate * win < charged + chip
