"""Money in integer cents, and commission with an explicit rounding policy."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from cardroom.errors import CardroomError

Cents = int

_MONEY = re.compile(r"^\$?(\d{1,12})(?:\.(\d{1,2}))?$")


def parse_money(text: str) -> Cents:
    """"$12.50", "12.5" or "12" into cents; anything else is refused (no floats)."""
    m = _MONEY.match(text.strip().replace(",", ""))
    if not m:
        raise CardroomError(f"bad amount {text!r}: use dollars and cents, e.g. 25 or 12.50")
    whole, frac = m.group(1), (m.group(2) or "").ljust(2, "0")
    return int(whole) * 100 + int(frac)


def format_money(cents: Cents) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def require_cents(value: object, what: str = "amount") -> Cents:
    """Refuse anything that is not a plain int number of cents (floats, bools, strings)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardroomError(f"{what} must be a whole number of cents, not {value!r}")
    return value


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
    """How a commission that is not a whole number of units is rounded."""

    UP = "up"
    DOWN = "down"
    HALF_UP = "half-up"
    HALF_EVEN = "half-even"


def round_fraction(value: Fraction, mode: Rounding) -> int:
    floor = value.numerator // value.denominator
    rest = value - floor
    if rest == 0:
        return floor
    if mode is Rounding.DOWN:
        return floor
    if mode is Rounding.UP:
        return floor + 1
    if rest > Fraction(1, 2):
        return floor + 1
    if rest < Fraction(1, 2):
        return floor
    if mode is Rounding.HALF_UP:
        return floor + 1
    return floor if floor % 2 == 0 else floor + 1


@dataclass(frozen=True)
class CommissionPolicy:
    """Commission = rate x winnings, rounded to whole `unit_cents` by `rounding`.

    The default rounds up to the cent: 5% of a $1 win is 5 cents, never zero, and the house
    never charges less than the posted rate.
    """

    rate: Fraction = Fraction(1, 20)
    rounding: Rounding = Rounding.UP
    unit_cents: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.rate < 1:
            raise CardroomError(f"commission rate {self.rate} must be at least 0 and below 1")
        if self.unit_cents < 1:
            raise CardroomError("commission unit must be at least one cent")

    def charge(self, winnings: Cents) -> Cents:
        require_cents(winnings, "winnings")
        if winnings <= 0:
            return 0
        units = round_fraction(Fraction(winnings) * self.rate / self.unit_cents, self.rounding)
        return units * self.unit_cents
