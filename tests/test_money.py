"""Money in integer cents and commission rounding policies."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.errors import CardroomError
from cardroom.money import (
    CommissionPolicy,
    Rounding,
    format_money,
    parse_money,
    parse_rate,
    require_cents,
)


@pytest.mark.parametrize(("text", "cents"), [("12.50", 1250), ("$12.5", 1250), ("7", 700),
                                              ("0.05", 5), ("2,500", 250000)])
def test_parse_money(text: str, cents: int) -> None:
    assert parse_money(text) == cents


@pytest.mark.parametrize("bad", ["", "-5", "1.234", "abc", "1e3", "$"])
def test_bad_amounts_are_refused(bad: str) -> None:
    with pytest.raises(CardroomError):
        parse_money(bad)


@pytest.mark.parametrize("bad", ["0,01", "1,0,0", "1000,0", "1,000,00", "0,001", ",100",
                                 "100,", "1,,000", "12,34.56", "1 000",
                                 "\u0661\u0660\u0660\u0660\u0660\u0660\u0660",
                                 "\uff11\uff10\uff10", "\u0967\u0966", "1\u0660"])
def test_stray_commas_and_other_scripts_digits_are_refused(bad: str) -> None:
    """Issue 26: money fields stripped every comma and read any Unicode digit, so `0,01` was
    $1.00, `1,0,0` $100 and Arabic-Indic `1000000` a $1,000,000 fill. Only ASCII digits, with
    commas only between groups of three."""
    with pytest.raises(CardroomError):
        parse_money(bad)


@given(st.integers(min_value=0, max_value=10**14 - 1))
def test_every_amount_reads_back_as_written_with_or_without_its_commas(cents: int) -> None:
    """Any amount a page shows ("$12,345.67") is read back as itself, commas or none."""
    shown = format_money(cents)
    assert parse_money(shown) == cents
    assert parse_money(shown.replace(",", "")) == cents


@given(st.integers(min_value=1_000, max_value=10**12 - 1), st.data())
def test_a_comma_out_of_its_place_is_refused(dollars: int, data: st.DataObject) -> None:
    """A comma anywhere but between groups of three digits (counted from the point) is
    refused, never dropped."""
    digits = str(dollars)
    places = [i for i in range(1, len(digits)) if (len(digits) - i) % 3 != 0]
    at = data.draw(st.sampled_from(places))
    with pytest.raises(CardroomError):
        parse_money(digits[:at] + "," + digits[at:])


@given(st.characters(categories=["Nd"]).filter(lambda c: not "0" <= c <= "9"))
def test_a_digit_of_another_script_is_refused(digit: str) -> None:
    for text in (digit, "1" + digit, digit * 3 + ".00"):
        with pytest.raises(CardroomError):
            parse_money(text)


def test_format_money() -> None:
    assert format_money(1000000) == "$10,000.00"
    assert format_money(-5) == "-$0.05"


def test_floats_never_pass_as_cents() -> None:
    with pytest.raises(CardroomError):
        require_cents(1.0)
    with pytest.raises(CardroomError):
        require_cents(True)
    with pytest.raises(CardroomError):
        CommissionPolicy().charge(100.0)  # type: ignore[arg-type]


def test_rates_parse_exactly() -> None:
    assert parse_rate("5%") == parse_rate("0.05") == parse_rate("1/20") == Fraction(1, 20)
    with pytest.raises(CardroomError):
        parse_rate("five")


def test_five_percent_is_charged_in_whole_cents_never_above_the_rate() -> None:
    """Mini-Baccarat: "player pays 5% commission"; Super Pan 9 rule 8 and the Pai Gow rules:
    "up to a 5% commission". Money is cents, so 5% of a $1 win is 5 cents and of $25 is $1.25
    exactly; a fraction of a cent is left to the player (19 cents win: 0.95 cents, charged 0)."""
    assert CommissionPolicy().charge(100) == 5
    assert CommissionPolicy().charge(2500) == 125
    assert CommissionPolicy().charge(19) == 0


@pytest.mark.parametrize(("win", "unit", "charged"), [(510, 1, 25), (25, 1, 1), (100, 25, 0),
                                                      (700, 25, 25), (2000, 25, 100)])
def test_the_default_rounds_down_in_the_players_favour(win: int, unit: int, charged: int) -> None:
    """Issue 10: rounding up charged 26 cents on a $5.10 win (5% is 25.5), 2 cents on $0.25
    (1.25) and, to a 25-cent unit, 25 cents on $1 (5 cents). Down: 25, 1 and 0; 5% of $7 is
    35 cents, 25 to the quarter; of $20 exactly $1."""
    assert CommissionPolicy(Fraction(1, 20), unit_cents=unit).charge(win) == charged


RATES = (Fraction(1, 20), Fraction(1, 25), Fraction(3, 100), Fraction(1, 30), Fraction(0))
UNITS = (1, 5, 25, 100)
AMOUNTS = np.arange(1, 100_001, dtype=np.int64)
"""Every win from 1 cent to $1,000.00."""
SAMPLE = np.concatenate([np.arange(1, 1001), np.arange(1001, 100_001, 997)])
"""The wins also charged one at a time, as a table does: the two must agree."""


@pytest.mark.parametrize("rate", RATES, ids=str)
def test_no_policy_ever_charges_above_the_posted_rate(rate: Fraction) -> None:
    """Issue 10 (every game): whatever the rounding and the unit, the commission on a win is
    never above `rate` of it. Every policy is either refused when made, and then it really
    would overcharge (its error names such a win), or it charges every amount from 1 cent to
    $1,000.00 at most the rate, and less than one unit below it."""
    for mode in Rounding:
        for unit in UNITS:
            try:
                policy = CommissionPolicy(rate, mode, unit)
            except CardroomError as exc:
                assert mode is not Rounding.DOWN and rate > 0, exc
                win, charged = _example(str(exc))
                assert charged * rate.denominator > win * rate.numerator, exc
                continue
            charged = policy.charges(AMOUNTS)
            assert [policy.charge(w) for w in SAMPLE.tolist()] == charged[SAMPLE - 1].tolist()
            exact_x_den = AMOUNTS * rate.numerator
            assert np.all(charged * rate.denominator <= exact_x_den), (mode, unit)
            assert np.all((charged + unit) * rate.denominator > exact_x_den), (mode, unit)
            assert np.all(charged % unit == 0), (mode, unit)


def _example(message: str) -> tuple[int, int]:
    """The win and the charge a refusal names ("would charge $0.26 on a $5.10 win")."""
    found = re.search(r"charge (\$[0-9.,]+) on a (\$[0-9.,]+) win", message)
    assert found, message
    return parse_money(found.group(2)), parse_money(found.group(1))


@pytest.mark.parametrize("mode", [Rounding.UP, Rounding.HALF_UP, Rounding.HALF_EVEN])
def test_rounding_up_is_refused_with_a_win_it_would_overcharge(mode: Rounding) -> None:
    """Rounding up (or to the nearest) charges 5.5 cents as 6 on a $1.10 win: refused."""
    with pytest.raises(CardroomError, match=r"more than the posted 5%.*round down"):
        CommissionPolicy(Fraction(1, 20), mode)
    assert CommissionPolicy(Fraction(0), mode).charge(110) == 0


def test_no_commission_on_a_loss_and_bad_policies_refused() -> None:
    assert CommissionPolicy().charge(0) == 0
    with pytest.raises(CardroomError):
        CommissionPolicy(Fraction(3, 2))
    with pytest.raises(CardroomError):
        CommissionPolicy(unit_cents=0)
