"""The fee a Pan table charges (the house does not bank Pan: it lives on fees), and the
maximums of WAC 230-15-080 ("Authorized fees"), read from `data/fees.toml`: one type of fee
per table at a time, per period of time, per hand, or a rake."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cardroom.houserules import Rate
from cardroom.money import Cents, format_money, parse_rate

FeeKind = Literal["time", "hand", "rake"]


@dataclass(frozen=True)
class FeeCaps:
    """The maximums of one section, as the data file states them."""

    section: str
    time_cents_per_hour: Cents
    time_minutes_between: int
    hand_cents: Cents
    rake_rate: Fraction


@cache
def fee_caps() -> FeeCaps:
    text = resources.files("cardroom.games.pan").joinpath("data/fees.toml").read_text(
        encoding="utf-8")
    data = tomllib.loads(text)
    return FeeCaps(data["hand"]["section"], int(data["time"]["max_cents_per_hour"]),
                   int(data["time"]["max_minutes_between_collections"]),
                   int(data["hand"]["max_cents"]), parse_rate(data["rake"]["max_rate"]))


def _percent(rate: Fraction) -> str:
    pct = rate * 100
    return f"{pct.numerator}%" if pct.denominator == 1 else f"{float(pct):g}%"


class PanFee(BaseModel):
    """`[fee]` of a Pan house-rules file. `kind = "time"`: `cents` from each player every
    `every_minutes`; `"hand"`: `cents` from each player before the deal; `"rake"`: `rate` of
    the hand's wagers (the tops: docs/operations.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: FeeKind
    cents: Cents | None = Field(default=None, ge=1, description="time and hand fees")
    every_minutes: int | None = Field(default=None, ge=1, description="time fee only")
    rate: Rate | None = Field(default=None, description="rake only")

    @model_validator(mode="after")
    def _within_the_maximum(self) -> Self:
        caps = fee_caps()
        sec = caps.section
        if self.kind == "rake":
            if self.rate is None or self.cents is not None or self.every_minutes is not None:
                raise ValueError('a rake names its rate only (rate = "5%")')
            if not 0 < self.rate <= caps.rake_rate:
                raise ValueError(f"a rake of {_percent(self.rate)} is more than {sec} allows "
                                 f"(at most {_percent(caps.rake_rate)} of the wagers of a "
                                 "hand)")
            return self
        if self.cents is None or self.rate is not None:
            raise ValueError(f"a {self.kind} fee names its amount in cents only (cents = 100)")
        if self.kind == "hand":
            if self.every_minutes is not None:
                raise ValueError("a fee per hand is collected every hand: no every_minutes")
            if self.cents > caps.hand_cents:
                raise ValueError(f"a fee of {format_money(self.cents)} a hand is more than "
                                 f"{sec} allows (at most {format_money(caps.hand_cents)} a "
                                 "hand a player)")
            return self
        if self.every_minutes is None:
            raise ValueError("a time fee says how often it is collected (every_minutes = 30)")
        if self.every_minutes > caps.time_minutes_between:
            raise ValueError(f"a time fee collected every {self.every_minutes} minutes breaks "
                             f"{sec} (collected at least every {caps.time_minutes_between} "
                             "minutes)")
        if self.cents * 60 > caps.time_cents_per_hour * self.every_minutes:
            raise ValueError(f"a fee of {format_money(self.cents)} every {self.every_minutes} "
                             f"minutes is more than {sec} allows (at most "
                             f"{format_money(caps.time_cents_per_hour)} an hour a player)")
        return self

    def describe(self) -> str:
        """The fee in words, as it is posted."""
        if self.kind == "rake":
            assert self.rate is not None
            return (f"a rake of {_percent(self.rate)} of the tops each hand, taken from the "
                    "tops the winner collects (rounded down to the cent)")
        assert self.cents is not None
        if self.kind == "hand":
            return f"{format_money(self.cents)} a hand from each player, collected before the deal"
        return (f"{format_money(self.cents)} from each player every {self.every_minutes} "
                "minutes of play, collected at the first deal of each period")

    def rake_on(self, cents: Cents) -> Cents:
        """The rake on `cents` of wagers collected, rounded down (never above the rate)."""
        assert self.rate is not None
        return cents * self.rate.numerator // self.rate.denominator
