"""The regulatory profile (issue 21, "A regulatory profile, as data"): every cap is data with its
section and dated figures, and every house-rules file is checked against it as it loads. The
figures expected here are the digest's (../shared/reference/compliance.md), not the data file's."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from cardroom import registry
from cardroom.errors import CardroomError, RulesError
from cardroom.houserules import HouseRules, build_rules, check_profile, load_rules
from cardroom.profile import PROFILE_ENV, PROFILES, ProfileError, load_profile, profile_in_force
from cardroom.room.play.tables import rules_model

WASHINGTON = load_profile("washington")
WAC_140 = "WAC 230-15-140"
WAC_135 = "WAC 230-15-135(4)"


def write_rules(tmp_path: Path, settings: dict[str, object], name: str = "house") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text("".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}\n"
                            for k, v in settings.items()), encoding="utf-8")
    return path


def profile_text(**overrides: str) -> str:
    """The Washington profile's text with some caps' tables replaced."""
    text = (Path(__file__).parents[1] / "src/cardroom/data/profiles/washington.toml").read_text()
    for key, table in overrides.items():
        start = text.index(f"[{key}]")
        end = text.find("\n\n[", start)
        text = text[:start] + table + (text[end:] if end != -1 else "\n")
    return text


def test_the_state_profile_states_the_digests_figures_and_sections() -> None:
    """compliance.md, "Caps and tenders": $300 a house-banked wager (WAC 230-15-140, since
    2009), 15 house-banked tables (RCW 9.46.0282), a Pan chip at most $10, the ante one chip,
    going out two chips, no doubling of conditions (WAC 230-15-135(4)), nobody under 18
    (WAC 230-06-010/-011), surveillance over $3,000 (WAC 230-15-320(4)), W-2G from $600 at
    300 to 1 with 24% withheld from $5,000, cash on hand (WAC 230-15-050): $1,000 a table plus
    the largest prize (2022 text), $2,000 a table plus 1% of receipts from 2025."""
    today = date(2026, 11, 26)
    p = WASHINGTON
    assert (p.house_banked_wager.section, p.house_banked_wager.on(today).cents) == (WAC_140,
                                                                                  30_000)
    assert p.house_banked_wager.periods[0].since == date(2009, 1, 1)
    assert (p.house_banked_tables.section, p.house_banked_tables.on(today).count) == (
        "RCW 9.46.0282", 15)
    assert (p.pan_chip_value.on(today).cents, p.pan_ante.on(today).chips,
            p.pan_going_out.on(today).chips, p.pan_doubling.on(today).allowed) == (
        1000, 1, 2, False)
    assert {p.pan_chip_value.section, p.pan_ante.section, p.pan_going_out.section,
            p.pan_doubling.section} == {WAC_135}
    assert p.minimum_age.on(today).years == 18 and "WAC 230-06-010" in p.minimum_age.section
    assert (p.surveillance.section, p.surveillance.on(today).cents) == ("WAC 230-15-320(4)",
                                                                        300_000)
    w2g = p.w2g.on(today)
    assert (w2g.report_cents, w2g.odds_to_one, w2g.withhold_cents, w2g.withhold_percent) == (
        60_000, 300, 500_000, 24)
    assert p.cash_on_hand.section == "WAC 230-15-050"
    before, after = p.cash_on_hand.on(date(2024, 12, 31)), p.cash_on_hand.on(today)
    assert (before.per_table_cents, before.plus) == (100_000, "largest-prize")
    assert (after.per_table_cents, after.plus, after.receipts_percent, after.new_room_cents) == (
        200_000, "gross-receipts-share", 1, 3_000_000)


def test_every_shipped_profile_loads_and_the_default_is_washington(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROFILES:
        assert load_profile(name).name == name
    monkeypatch.delenv(PROFILE_ENV, raising=False)
    assert profile_in_force().name == "washington"
    monkeypatch.setenv(PROFILE_ENV, "tribal-compact-example")
    assert profile_in_force().pan_doubling.on(date(2026, 1, 1)).allowed


def test_a_past_day_is_judged_by_the_figure_of_that_day(tmp_path: Path) -> None:
    """compliance.md: "make the figure a dated setting, not a constant": a profile whose cap
    rose to $400 on 1 July 2027 refuses a $400 maximum before that day and accepts it from it;
    the state profile knows no figure before 2009."""
    path = tmp_path / "raised.toml"
    path.write_text(profile_text(house_banked_wager="""[house_banked_wager]
section = "WAC 230-15-140"
what = "a single house-banked wager"
[[house_banked_wager.periods]]
since = 2009-01-01
cents = 30000
[[house_banked_wager.periods]]
since = 2027-07-01
cents = 40000"""), encoding="utf-8")
    raised = load_profile(str(path))
    rules = build_rules(rules_model("pai-gow"), {"max_wager_cents": 40_000})
    with pytest.raises(RulesError, match=r"max_wager_cents = \$400\.00 is refused under WAC "
                                         r"230-15-140 .*at most \$300\.00"):
        raised.check(rules.regulated(), "house.toml", date(2027, 6, 30))
    raised.check(rules.regulated(), "house.toml", date(2027, 7, 1))
    with pytest.raises(CardroomError, match="no figure for a single house-banked wager"):
        WASHINGTON.check(rules.regulated(), "house.toml", date(2008, 12, 31))


def ante_cap(*periods: str, section: str = 'section = "s"\n') -> str:
    """A `[pan_ante]` table with these periods (each its lines)."""
    return (f'[pan_ante]\n{section}what = "w"\n'
            + "".join(f"[[pan_ante.periods]]\n{p}\n" for p in periods))


@pytest.mark.parametrize("table, problem", [
    (ante_cap("since = 2020-01-01\nchips = 1", "since = 2019-01-01\nchips = 2"),
     "pan_ante: periods must be listed in order of their effective dates"),
    (ante_cap("chips = 1", "chips = 2"),
     "pan_ante: every period but the first needs its effective date"),
    (ante_cap("cents = 1"), "pan_ante.periods.0.chips: Field required"),
    (ante_cap("chips = 1", section=""), "pan_ante.section: Field required"),
])
def test_a_malformed_profile_is_refused_with_what_is_wrong(tmp_path: Path, table: str,
                                                           problem: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(profile_text(pan_ante=table), encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(str(path))
    assert str(err.value).startswith(f"{path}: ") and problem in str(err.value)


def test_an_unknown_or_missing_profile_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="'nevada' names no profile: choose one of "
                                           "washington, tribal-compact-example"):
        load_profile("nevada")
    with pytest.raises(ProfileError, match="no such profile file"):
        load_profile(str(tmp_path / "missing.toml"))


@pytest.mark.parametrize("game", sorted(registry.names()))
def test_the_defaults_of_every_game_fit_the_state_profile(game: str) -> None:
    """Issue 21: "The defaults of every game fit the default profile (a $300 cap means the tie
    and bonus maxima fit too)"."""
    rules = build_rules(rules_model(game), {})
    WASHINGTON.check(rules.regulated(), "defaults")
    if game != "pan":
        assert rules.house_banked
        assert max(r.value for r in rules.regulated()) <= 30_000


CAPPED = [  # (game, setting, the cap from the digest, its section)
    ("baccarat", "table_max_cents", 30_000, WAC_140),
    ("baccarat", "tie_max_cents", 30_000, WAC_140),
    ("baccarat", "bonus_max_cents", 30_000, WAC_140),
    ("super-pan-9", "max_wager_cents", 30_000, WAC_140),
    ("super-pan-9", "tie_max_cents", 30_000, WAC_140),
    ("pai-gow", "max_wager_cents", 30_000, WAC_140),
    ("pan", "chip_cents", 1000, WAC_135),
    ("pan", "outs_chips", 2, WAC_135),
]


@pytest.mark.parametrize("game, setting, cap, section", CAPPED)
def test_wac_230_15_140_and_135_a_house_rules_file_one_over_a_cap_is_refused_at_it_accepted(
        tmp_path: Path, game: str, setting: str, cap: int, section: str) -> None:
    """Super-9: the operator "cannot allow wagering limits to exceed the authorized limits set
    out in WAC 230-15-040 and WAC 230-15-140"; WAC 230-15-135(4) caps a Pan chip at $10 and
    going out at two chips from each player. One chip over (a house-banked table's limits are
    whole numbers of its smallest chip, 25 cents by default; one of Pan's chips or one cent
    of their value): refused, the section named; at the cap: accepted."""
    model = rules_model(game)
    step = build_rules(model, {}).smallest_chip if model.house_banked else 1
    over = write_rules(tmp_path, {setting: cap + step})
    with pytest.raises(RulesError) as err:
        load_rules(model, over)
    message = str(err.value)
    assert message.startswith(f"{over}: {setting} = ")
    assert f"is refused under {section} (" in message and "\n" not in message
    at: HouseRules = load_rules(model, write_rules(tmp_path, {setting: cap}))
    assert getattr(at, setting) == cap


@pytest.mark.parametrize("setting", ["allow_double_condition", "spades_double"])
def test_wac_230_15_135_doubling_of_pan_conditions_is_refused_under_the_state_profile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    """WAC 230-15-135(4) prohibits doubling of conditions: double condition play and doubled
    spade conditions are refused under the state profile, and allowed under a profile that
    allows them (the tribal example)."""
    path = write_rules(tmp_path, {setting: True})
    with pytest.raises(RulesError, match=rf"{setting} = true is refused under WAC "
                                         r"230-15-135\(4\) \(doubling of Pan conditions: "
                                         "prohibited"):
        load_rules(rules_model("pan"), path)
    assert not getattr(load_rules(rules_model("pan"), write_rules(tmp_path, {setting: False},
                                                            "straight")), setting)
    monkeypatch.setenv(PROFILE_ENV, "tribal-compact-example")
    assert getattr(load_rules(rules_model("pan"), path), setting)


def test_wac_230_15_135_a_pan_ante_over_one_chip_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ante is at most one chip: a double condition player antes two (one to the tops,
    one to the double tops), so even a profile that allowed doubling but kept the one-chip
    ante refuses double condition by the ante's cap; a single condition table antes one."""
    profile = tmp_path / "doubling.toml"
    profile.write_text(profile_text(pan_doubling="""[pan_doubling]
section = "the compact"
what = "doubling of Pan conditions"
[[pan_doubling.periods]]
allowed = true"""), encoding="utf-8")
    monkeypatch.setenv(PROFILE_ENV, str(profile))
    with pytest.raises(RulesError, match=r"the ante of a double condition player "
                                         r"\(allow_double_condition\) = 2 chips is refused "
                                         r"under WAC 230-15-135\(4\) \(a Pan player's ante: "
                                         "at most 1 chip"):
        load_rules(rules_model("pan"), write_rules(tmp_path, {"allow_double_condition": True}))
    check_profile(build_rules(rules_model("pan"), {}), "defaults")
