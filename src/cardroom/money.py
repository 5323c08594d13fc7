"""Money in integer cents, and commission with an explicit rounding policy."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, overload

from cardroom.errors import CardroomError

if TYPE_CHECKING:  # (arrays are the analyses': money in the books needs no numpy loaded)
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

Cents = int

_MONEY = re.compile(r"\$?([1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]{1,2}))?")
"""Dollars in ASCII digits, commas only between groups of three (1,000 and 12,345.67, never
0,01, 1,0,0 or 1000,0), and at most two digits of cents."""
MAX_DOLLAR_DIGITS = 12


def parse_money(text: str) -> Cents:
    """"$12.50", "12.5", "12" or "1,000" into cents; anything else is refused (no floats, no
    digits of other scripts, no stray commas: "0,01" is not a dollar)."""
    m = _MONEY.fullmatch(text.strip())
    whole = m.group(1).replace(",", "") if m else ""
    if m is None or len(whole) > MAX_DOLLAR_DIGITS:
        raise CardroomError(f"bad amount {text!r}: use dollars and cents, e.g. 25 or 12.50")
    return int(whole) * 100 + int((m.group(2) or "").ljust(2, "0"))


def format_money(cents: Cents) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def require_cents(value: object, what: str = "amount") -> Cents:
    """Refuse anything that is not a plain int number of cents (floats, bools, strings)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardroomError(f"{what} must be a whole number of cents, not {value!r}")
    return value


MAX_FORM_CENTS = 100_000_000
"""The most one form may carry ($1,000,000): a slip, a count, a buy-in at a table, a jackpot
adjustment or reset. More is a typing error, not a transfer."""


def form_amount(amount: Cents, what: str, allow_zero: bool = False) -> Cents:
    """`amount` if it is whole cents, more than nothing (or nothing, with `allow_zero`) and at
    most `MAX_FORM_CENTS`; else refused in one sentence that names `what`."""
    require_cents(amount, what)
    if amount < 0 or (amount == 0 and not allow_zero):
        raise CardroomError(f"{what} must be more than nothing" if not allow_zero else
                            f"{what} cannot be less than nothing")
    if amount > MAX_FORM_CENTS:
        raise CardroomError(f"{what} of {format_money(amount)} is more than one form may "
                            f"carry ({format_money(MAX_FORM_CENTS)}): a typing error, not a "
                            "transfer")
    return amount


def off_chip(amount: Cents, chip: Cents, what: str) -> str | None:
    """Why `amount` cannot be `what` at a table whose smallest chip is `chip` (one sentence for
    a person), or None when it is a whole number of chips: a table's tray holds chips, never
    cents (WAC 230-15-500: chips enter or leave the tray only at equal value)."""
    if amount % chip == 0:
        return None
    low = amount - amount % chip
    nearest = f"{format_money(low)} or {format_money(low + chip)}" if low else \
        format_money(chip)
    return (f"{what} of {format_money(amount)} is not a whole number of this table's "
            f"{format_money(chip)} chips: make it {nearest}")


def parse_rate(text: str | int | Fraction) -> Fraction:
    """"5%", "0.05" or "1/20" as an exact fraction."""
    if isinstance(text, Fraction):
        return text
    if isinstance(text, bool):
        raise CardroomError(f"bad rate {text!r}")
    if isinstance(text, int):
        return Fraction(text)
    raw = str(text).strip()
    try:
        if raw.endswith("%"):
            return Fraction(raw[:-1].strip()) / 100
        return Fraction(raw)
    except (ValueError, ZeroDivisionError) as exc:
        raise CardroomError(f"bad rate {text!r}: use e.g. 5%, 0.05 or 1/20") from exc


class Rounding(StrEnum):
    """How a commission that is not a whole number of units is rounded.

    Only `DOWN` (the default) can never charge more than the posted rate; the others are named
    so that a house-rules file asking for them is refused with the reason, not a bare "unknown
    value"; they stand only with a zero rate.
    """

    DOWN = "down"
    UP = "up"
    HALF_UP = "half-up"
    HALF_EVEN = "half-even"


@overload
def round_div(numerator: int, denominator: int, mode: Rounding) -> int: ...


@overload
def round_div(numerator: IntArray, denominator: int, mode: Rounding) -> IntArray: ...


def round_div(numerator: Any, denominator: int, mode: Rounding) -> Any:
    """numerator / denominator (non-negative; an int, or an array element by element) rounded
    to a whole number by `mode`."""
    whole, rest = numerator // denominator, numerator % denominator
    if mode is Rounding.DOWN:
        return whole
    if mode is Rounding.UP:
        return whole + (rest > 0)
    above, half = 2 * rest > denominator, 2 * rest == denominator
    if mode is Rounding.HALF_UP:
        return whole + (above | half)
    return whole + (above | (half & (whole % 2 == 1)))


def format_rate(rate: Fraction) -> str:
    """5% for 1/20; an exact fraction where the percentage is not a whole number of hundredths."""
    pct = rate * 100
    if (pct * 100).denominator == 1:
        return f"{float(pct):g}%"
    return f"{rate.numerator}/{rate.denominator}"


@dataclass(frozen=True)
class CommissionPolicy:
    """Commission = rate x winnings, rounded to whole `unit_cents` by `rounding`.

    The rules allow a commission of *up to* 5% (Mini-Baccarat's 5%, Super Pan 9 rule 8, Pai Gow
    rules note to 10), so no win is ever charged more than `rate` of it: the default rounds
    down to the cent, in the player's favour, and a policy that would charge more on some win is
    refused when it is made (a 5% rate rounded up charges 26 cents on $5.10).
    """

    rate: Fraction = Fraction(1, 20)
    rounding: Rounding = Rounding.DOWN
    unit_cents: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.rate < 1:
            raise CardroomError(f"commission rate {self.rate} must be at least 0 and below 1")
        if isinstance(self.unit_cents, bool) or not isinstance(self.unit_cents, int) \
                or self.unit_cents < 1:
            raise CardroomError("commission unit must be a whole number of cents, at least one")
        win = self.first_overcharge()
        if win is not None:
            raise CardroomError(
                f"commission rounding {self.rounding.value!r} to {self.unit_cents} cent(s) "
                f"would charge {format_money(self.charge(win))} on a {format_money(win)} win, "
                f"more than the posted {format_rate(self.rate)} of it: a commission may be up "
                "to the posted rate, never above; round down instead")

    def charge(self, winnings: Cents) -> Cents:
        require_cents(winnings, "winnings")
        if winnings <= 0:
            return 0
        units = round_div(winnings * self.rate.numerator,
                          self.rate.denominator * self.unit_cents, self.rounding)
        return units * self.unit_cents

    def charges(self, winnings: IntArray) -> IntArray:
        """`charge` of every win of an array of positive cents at once (audits, tests)."""
        units = round_div(winnings * self.rate.numerator,
                          self.rate.denominator * self.unit_cents, self.rounding)
        return units * self.unit_cents

    def first_overcharge(self) -> Cents | None:
        """A win this policy would charge more than `rate` of, or None if there is none.

        Rounding down never does. Any other rounding of a positive rate does: with s = rate /
        unit (0 < s < 1), rounding up overcharges a 1-cent win; rounding to the nearest
        overcharges 1 cent if s > 1/2, 3 cents if s = 1/2 (1.5 units rounds to 2 either way),
        and otherwise the first win whose share of a unit passes one half (it stays below one).
        """
        if self.rounding is Rounding.DOWN or self.rate == 0:
            return None
        num, den = self.rate.numerator, self.rate.denominator
        candidates = sorted({1, 3, den * self.unit_cents // (2 * num) + 1})
        return next((w for w in candidates if self.charge(w) * den > w * num), None)
