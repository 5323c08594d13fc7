"""Money in integer cents and commission rounding policies."""

from __future__ import annotations

from fractions import Fraction

import pytest

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


def test_five_percent_of_a_small_win_is_never_rounded_to_nothing() -> None:
    """The peers' mistake: integer division that charges 0 on a $0.19 win."""
    assert CommissionPolicy().charge(19) == 1
    assert CommissionPolicy().charge(100) == 5
    assert CommissionPolicy().charge(2500) == 125


@pytest.mark.parametrize(("mode", "win", "expected"), [
    (Rounding.UP, 110, 6), (Rounding.DOWN, 110, 5), (Rounding.HALF_UP, 110, 6),
    (Rounding.HALF_EVEN, 110, 6), (Rounding.HALF_EVEN, 130, 6), (Rounding.HALF_UP, 130, 7),
    (Rounding.HALF_UP, 108, 5), (Rounding.HALF_UP, 112, 6),
])
def test_rounding_modes(mode: Rounding, win: int, expected: int) -> None:
    """5% of 110 is 5.5, of 130 is 6.5, of 108 is 5.4, of 112 is 5.6 cents."""
    assert CommissionPolicy(Fraction(1, 20), mode).charge(win) == expected


def test_rounding_to_a_chip_unit() -> None:
    """5% of $7 is 35 cents: to the next quarter that is 50 cents, down it is 25."""
    assert CommissionPolicy(Fraction(1, 20), Rounding.UP, 25).charge(700) == 50
    assert CommissionPolicy(Fraction(1, 20), Rounding.DOWN, 25).charge(700) == 25


def test_no_commission_on_a_loss_and_bad_policies_refused() -> None:
    assert CommissionPolicy().charge(0) == 0
    with pytest.raises(CardroomError):
        CommissionPolicy(Fraction(3, 2))
    with pytest.raises(CardroomError):
        CommissionPolicy(unit_cents=0)
