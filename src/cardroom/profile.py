"""The regulatory profile: the law the room runs under, as data.

A profile (`data/profiles/<name>.toml`) states every cap the room is bound by, each with its
section and its dated figures: a figure that changed has a period per value, each from its
effective date, so a past day is judged by the rule of that day. The room runs under one
profile, named (or given as a path) in `CARDROOM_PROFILE`; the default is the Washington
state-licensed card room. A table's house rules name the settings that a cap governs
(`HouseRules.regulated`); `Profile.check` refuses any over its cap, naming the section.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cardroom.errors import CardroomError, RulesError, describe_validation_error, read_document
from cardroom.money import Cents, format_money

PROFILE_ENV = "CARDROOM_PROFILE"
DEFAULT_PROFILE = "washington"
PROFILES = ("washington", "tribal-compact-example")
"""The profiles shipped in `data/profiles`."""


class ProfileError(CardroomError):
    """A profile that cannot be found or read, or that is malformed."""


class Figure(BaseModel):
    """One period of a cap: its figure(s), in force from `since` until the next period's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    since: date | None = None
    """The effective date; only the first period may leave it out (then it holds for every
    earlier day)."""
    note: str = ""

    def admits(self, value: int) -> bool:
        """Whether a house-rule value stays within this figure (caps that no setting reaches
        admit everything)."""
        return True

    def show(self, value: int) -> str:
        """A setting's value, in this figure's unit."""
        return str(value)

    def words(self) -> str:
        """The figure as a person reads it."""
        raise NotImplementedError


class Amount(Figure):
    cents: Cents = Field(ge=0)

    def admits(self, value: int) -> bool:
        return value <= self.cents

    def show(self, value: int) -> str:
        return format_money(value)

    def words(self) -> str:
        return format_money(self.cents)


class Count(Figure):
    count: int = Field(ge=0)

    def admits(self, value: int) -> bool:
        return value <= self.count

    def words(self) -> str:
        return str(self.count)


class Chips(Figure):
    chips: int = Field(ge=0)

    def admits(self, value: int) -> bool:
        return value <= self.chips

    def show(self, value: int) -> str:
        return _chips(value)

    def words(self) -> str:
        return _chips(self.chips)


class Years(Figure):
    years: int = Field(ge=0)

    def words(self) -> str:
        return f"{self.years} years"


class Days(Figure):
    days: int = Field(ge=1)

    def words(self) -> str:
        return f"{self.days} days"


class Permission(Figure):
    allowed: bool

    def admits(self, value: int) -> bool:
        return self.allowed or not value

    def show(self, value: int) -> str:
        return "true" if value else "false"

    def words(self) -> str:
        return "allowed" if self.allowed else "prohibited"


class TaxForm(Figure):
    report_cents: Cents = Field(ge=0)
    odds_to_one: int = Field(ge=1)
    withhold_cents: Cents = Field(ge=0)
    withhold_percent: int = Field(ge=0, le=100)

    def words(self) -> str:
        return (f"a win of {format_money(self.report_cents)} or more at {self.odds_to_one} to 1 "
                f"or more; {self.withhold_percent}% withheld from "
                f"{format_money(self.withhold_cents)}")


class CashOnHand(Figure):
    per_table_cents: Cents = Field(ge=0)
    plus: Literal["largest-prize", "gross-receipts-share"]
    receipts_percent: int | None = Field(default=None, ge=0, le=100)
    new_room_cents: Cents | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _share_named(self) -> Self:
        if (self.plus == "gross-receipts-share") != (self.receipts_percent is not None):
            raise ValueError('receipts_percent is given exactly when plus = "gross-receipts-share"')
        return self

    def words(self) -> str:
        table = f"{format_money(self.per_table_cents)} per house-banked table plus "
        if self.plus == "largest-prize":
            return table + "the largest single prize"
        new = ("" if self.new_room_cents is None
               else f" ({format_money(self.new_room_cents)} for a new room)")
        return (table + f"{self.receipts_percent}% of the previous year's gross gambling "
                f"receipts{new}")


class Deadline(Figure):
    """When a report to the regulator is due: the last day of the `months_after`-th month
    after its period ends, or `days_after` days after it ends (exactly one is given)."""

    months_after: int | None = Field(default=None, ge=1, le=12)
    days_after: int | None = Field(default=None, ge=1, le=366)

    @model_validator(mode="after")
    def _one_rule(self) -> Self:
        if (self.months_after is None) == (self.days_after is None):
            raise ValueError("a deadline gives months_after or days_after, not both")
        return self

    def due(self, last: date) -> date:
        """The due date of a report whose period ends on `last`."""
        if self.days_after is not None:
            return last + timedelta(days=self.days_after)
        assert self.months_after is not None
        months = last.year * 12 + last.month - 1 + self.months_after + 1
        return date(months // 12, months % 12 + 1, 1) - timedelta(days=1)

    def words(self) -> str:
        if self.days_after is not None:
            return f"{self.days_after} days after the period ends"
        month = "month" if self.months_after == 1 else f"{self.months_after} months"
        return f"the last day of the {month} after the period ends"
class SelfExclusion(Figure):
    """The self-exclusion program's deadlines (WAC 230-23-030), in hours: how old the state's
    list a room holds may be, and how soon an in-room enrolment form and a breach notice go to
    the commission."""

    update_hours: int = Field(ge=1)
    forward_hours: int = Field(ge=1)
    notice_hours: int = Field(ge=1)

    def words(self) -> str:
        return (f"list updates applied within {self.update_hours} hours; enrolment forms "
                f"forwarded and breaches notified within {self.forward_hours} and "
                f"{self.notice_hours} hours")


class Helpline(Figure):
    """The problem-gambling message a room shows where patrons gamble and where cash is
    available, with the helpline's number."""

    message: str = Field(min_length=1)
    number: str = Field(min_length=1)

    def words(self) -> str:
        return f"{self.message} {self.number}"


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


F = TypeVar("F", bound=Figure)


class Cap(BaseModel, Generic[F]):
    """A cap of the law: its section, what it governs, and its figure over time."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    section: str = Field(min_length=1)
    what: str = Field(min_length=1)
    periods: tuple[F, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _dated_in_order(self) -> Self:
        starts = [p.since for p in self.periods]
        if None in starts[1:]:
            raise ValueError("every period but the first needs its effective date (since)")
        dated = [s for s in starts if s is not None]
        if any(a >= b for a, b in pairwise(dated)):
            raise ValueError("periods must be listed in order of their effective dates")
        return self

    def on(self, day: date) -> F:
        """The figure in force on `day`."""
        for period in reversed(self.periods):
            if period.since is None or period.since <= day:
                return period
        raise CardroomError(f"the profile states no figure for {self.what} ({self.section}) "
                            f"before {self.periods[0].since}")


CheckedCap = Literal["house_banked_wager", "pan_chip_value", "pan_ante", "pan_going_out",
                     "pan_doubling"]
"""The caps that a table's house rules are checked against."""


@dataclass(frozen=True)
class Regulated:
    """A house-rule setting that a cap of the profile governs, with its value (cents, chips,
    or 0/1 for a yes-or-no setting)."""

    cap: CheckedCap
    setting: str
    value: int


class Profile(BaseModel):
    """The caps a room runs under (compliance.md, Regulatory profile)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,59}$")
    title: str = Field(min_length=1)
    governed_by: str = Field(min_length=1)
    house_banked_wager: Cap[Amount]
    house_banked_tables: Cap[Count]
    pan_chip_value: Cap[Amount]
    pan_ante: Cap[Chips]
    pan_going_out: Cap[Chips]
    pan_doubling: Cap[Permission]
    minimum_age: Cap[Years]
    surveillance: Cap[Amount]
    w2g: Cap[TaxForm]
    cash_on_hand: Cap[CashOnHand]
    problem_gambling: Cap[Helpline]
    quarterly_report: Cap[Deadline]
    monthly_records: Cap[Deadline]
    ctr_threshold: Cap[Amount]
    """Cash in, or cash out, of one patron in one gaming day over this needs a currency
    transaction report, and their identity on file first (31 CFR 1021.311, 1010.312)."""
    mtl_floor: Cap[Amount]
    """Every cash transaction at or above this goes into the multiple transaction log."""
    ctr_due_days: Cap[Days]
    records_years: Cap[Years]
    self_exclusion: Cap[SelfExclusion]

    def caps(self) -> dict[str, Cap[Any]]:
        """Every cap, by its key in the file, in the file's order."""
        return {key: getattr(self, key) for key in type(self).model_fields
                if key not in ("name", "title", "governed_by")}

    def applying(self, regulated: tuple[Regulated, ...], day: date | None = None
                 ) -> list[Applied]:
        """Each regulated setting with the cap and the figure in force on `day` (today)."""
        when = day or date.today()
        out = []
        for r in regulated:
            cap: Cap[Any] = getattr(self, r.cap)
            out.append(Applied(r, cap, cap.on(when)))
        return out

    def check(self, regulated: tuple[Regulated, ...], source: str,
              day: date | None = None) -> None:
        """Refuse the first setting over its cap on `day` (today by default), naming the
        setting, its value, the cap and its section."""
        for a in self.applying(regulated, day):
            if not a.figure.admits(a.setting.value):
                raise RulesError(f"{source}: {a.setting.setting} = {a.shown} is refused under "
                                 f"{a.cap.section} ({a.rule}; profile {self.name})")

    def check_tables(self, house_banked: int, day: date | None = None) -> None:
        """Refuse a house-banked table beyond the establishment's count."""
        cap = self.house_banked_tables
        figure = cap.on(day or date.today())
        if not figure.admits(house_banked):
            raise CardroomError(
                f"a house-banked table number {house_banked} is refused under {cap.section} "
                f"(at most {figure.words()} {cap.what}; profile {self.name})")


@dataclass(frozen=True)
class Applied:
    """A regulated setting, the cap that governs it and the cap's figure on the day."""

    setting: Regulated
    cap: Cap[Any]
    figure: Figure

    @property
    def shown(self) -> str:
        return self.figure.show(self.setting.value)

    @property
    def limit(self) -> str:
        """The figure as a limit: "at most $300.00", or "prohibited"."""
        words = self.figure.words()
        return words if isinstance(self.figure, Permission) else f"at most {words}"

    @property
    def rule(self) -> str:
        """What the cap governs and its limit: "a single house-banked wager: at most $300.00"."""
        return f"{self.cap.what}: {self.limit}"


def parse_profile(data: dict[str, Any], source: str) -> Profile:
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        raise ProfileError(f"{source}: {describe_validation_error(exc)}") from None


@cache
def load_profile(name_or_path: str) -> Profile:
    """A shipped profile by name, or a profile file by path (a name with `/` or `.toml`)."""
    if "/" in name_or_path or name_or_path.endswith(".toml"):
        path = Path(name_or_path)
        data = read_document(path, tomllib.loads, tomllib.TOMLDecodeError, "TOML",
                             ProfileError, "profile file")
        return parse_profile(data, str(path))
    if name_or_path not in PROFILES:
        raise ProfileError(f"{PROFILE_ENV}={name_or_path!r} names no profile: choose one of "
                           f"{', '.join(PROFILES)}, or give the path of a profile file")
    text = resources.files("cardroom.data").joinpath(
        f"profiles/{name_or_path}.toml").read_text(encoding="utf-8")
    return parse_profile(tomllib.loads(text), f"profile {name_or_path}")


def profile_in_force() -> Profile:
    """The room's profile: `CARDROOM_PROFILE`, or the Washington state-licensed card room."""
    return load_profile(os.environ.get(PROFILE_ENV) or DEFAULT_PROFILE)


def helpline(day: date | None = None) -> Helpline:
    """The problem-gambling message of the profile in force on `day` (today): every page of
    the room carries it (WAC 230-06-068 under the state profile)."""
    return profile_in_force().problem_gambling.on(day or date.today())
