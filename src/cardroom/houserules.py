"""House rules ("internal controls"): typed, validated settings loaded from TOML.

Each game defines its own model (a subclass of `HouseRules`) beside its engine; this module
holds what they share: strict parsing, exact rates, errors a person can act on, and the named
immaterial modifications ("Card room operators may make immaterial modifications to these game
rules. However, the changes must be properly documented in their internal controls."): a
setting that departs from a rule document is refused unless a `[[modifications]]` entry names
it, and the entries are part of the rules so that wherever the rules are posted they are shown.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Self, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from cardroom.errors import CardroomError, RulesError, describe_validation_error, read_document
from cardroom.money import Cents, CommissionPolicy, Rounding, off_chip, parse_rate
from cardroom.profile import Regulated, profile_in_force


def _to_fraction(value: Any) -> Fraction:
    if isinstance(value, float):
        raise ValueError("write rates as a string such as \"5%\" or \"0.05\", not a float")
    try:
        return parse_rate(value)
    except CardroomError as exc:
        raise ValueError(str(exc)) from exc


Rate = Annotated[
    Fraction,
    BeforeValidator(_to_fraction),
    PlainSerializer(lambda f: f"{f.numerator}/{f.denominator}", return_type=str),
]
"""An exact rate: "5%", "0.05" or "1/20" in a file; a Fraction in code."""


SMALLEST_CHIP_CENTS = 25
"""A house-banked table's smallest chip when its house rules name none: a quarter, so that 5%
of any wager in whole dollars is a whole number of chips and the $1 progressive wager is
four (docs/house-rules.md, "The table's smallest chip")."""
MAX_SMALLEST_CHIP_CENTS = 2_500
"""The largest smallest chip a table may name ($25): every limit is a multiple of it."""
LEGACY_COMMISSION_UNIT = "commission_unit_cents"
"""The older name of `smallest_chip_cents`, when only the commission was rounded to it: read
from the table rows and hand histories written before, as their chip (a record keeps the
amounts it was played for)."""


class TrayRules:
    """Mixin for the rules of a house-banked game, whose table keeps a chip tray (WAC
    230-15-495 to -535): its smallest chip. Every amount that moves through the tray is a
    whole number of it (WAC 230-15-500: chips enter or leave the tray only at equal value), so
    a wager is placed in it and a limit is a multiple of it. Each game declares the field
    itself, in its own place in the dump."""

    if TYPE_CHECKING:
        smallest_chip_cents: int

    @model_validator(mode="before")
    @classmethod
    def _read_legacy_unit(cls, data: Any) -> Any:
        if isinstance(data, dict) and LEGACY_COMMISSION_UNIT in data:
            data = dict(data)
            unit = data.pop(LEGACY_COMMISSION_UNIT)
            data.setdefault("smallest_chip_cents", unit)
        return data

    @property
    def smallest_chip(self) -> Cents:
        return self.smallest_chip_cents

    def check_chips(self, *settings: str) -> None:
        """For `check_settings`: each named setting (a limit, in cents) is a whole number of
        the table's smallest chip."""
        for name in settings:
            why = off_chip(getattr(self, name), self.smallest_chip_cents, name)
            if why is not None:
                raise ValueError(why)

    def refuse_off_chip(self, amount: Cents, what: str) -> str | None:
        """Why a wager of `amount` (`what`: "a wager", "the Tie wager") cannot be placed at
        the table, or None: the engines raise it as their own refusal."""
        return off_chip(amount, self.smallest_chip_cents, what)


class CommissionRules(TrayRules):
    """Mixin for the rules of a game that takes a commission; each declares the settings
    itself (its own default and bound of the rate, in its own place in the dump). The
    commission is rounded down to the table's smallest chip (`commission_rounding`, only
    "down" stands with a rate above zero): the fraction of a chip is waived, the player keeps
    it, and no win is charged above the posted rate."""

    if TYPE_CHECKING:
        commission: Fraction
        commission_rounding: Rounding

    @property
    def commission_policy(self) -> CommissionPolicy:
        return CommissionPolicy(self.commission, self.commission_rounding,
                                self.smallest_chip_cents)

    def check_commission_policy(self) -> None:
        """For `check_settings`: a policy that could not be made (one that would charge some
        win more than the posted rate) becomes the ValueError the validator reports."""
        try:
            self.commission_policy  # noqa: B018 - building the policy is the check
        except CardroomError as exc:
            raise ValueError(str(exc)) from None


@dataclass(frozen=True)
class Departure:
    """A setting whose value differs from what a rule document states."""

    setting: str
    value: str
    """The value as a person reads it ("4%", "9 to 1")."""
    clause: str
    """The document and clause, quoted enough for a person to find it."""


class Modification(BaseModel):
    """One immaterial modification documented in the operator's internal controls."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=60, pattern=r"^[a-z0-9][a-z0-9-]*$")
    clause: str = Field(min_length=1, max_length=200)
    description: str = Field(min_length=1, max_length=500)
    settings: tuple[str, ...] = Field(min_length=1)
    """The house-rule settings this modification covers."""


WHAT_IF = "what-if"
"""Validation context key: build rules for analysis, letting departures stand uncovered."""


class HouseRules(BaseModel):
    """Base of every game's settings: unknown keys are errors, values are immutable; a setting
    that departs from the documents needs a named modification."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)

    modifications: tuple[Modification, ...] = Field(default=(), exclude_if=lambda m: not m)
    """Named immaterial modifications; left out of a dump when there are none, so rules that
    follow the documents dump (and hash into records) exactly as before."""

    def check_settings(self) -> None:
        """Raise ValueError for settings the documents (or the game) forbid outright; runs
        before the departures are checked, so a forbidden value is named as such."""

    def check_limits(self, *limits: tuple[str, str]) -> None:
        """For `check_settings`: each (minimum, maximum) pair of settings is in order."""
        for low, high in limits:
            if getattr(self, low) > getattr(self, high):
                raise ValueError(f"{low} is above {high}")

    def departures(self) -> list[Departure]:
        """The settings whose value differs from the rule documents (none by default)."""
        return []

    house_banked: ClassVar[bool] = False
    """Whether a table of the game is house-banked (counted against RCW 9.46.0282)."""

    @property
    def smallest_chip(self) -> Cents:
        """The smallest amount a table of the game moves in chips: a house-banked game's
        smallest chip (`TrayRules`), Pan's one chip; a cent where the game names none."""
        return 1

    @property
    def least_buy_in(self) -> Cents:
        """The least buy-in that can play a hand, as the lobby shows it: the table's least
        wager where the game has one (the room takes any buy-in, but less cannot be wagered);
        the game's own buy-in otherwise; one smallest chip where the game names neither."""
        return self.smallest_chip

    def regulated(self) -> tuple[Regulated, ...]:
        """The settings a cap of the regulatory profile governs (`cardroom.profile`)."""
        return ()

    @model_validator(mode="after")
    def _check_against_the_documents(self, info: ValidationInfo) -> Self:
        self.check_settings()
        ids = [m.id for m in self.modifications]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"modification id {twice[0]!r} is used twice")
        if info.context and info.context.get(WHAT_IF):
            return self
        departing = {d.setting: d for d in self.departures()}
        covered = {s: m for m in self.modifications for s in m.settings}
        for setting, mod in covered.items():
            if setting not in departing:
                raise ValueError(
                    f"modification {mod.id!r} names {setting!r}, which does not depart from "
                    "the rules: list only settings that differ from the documents")
        for setting, d in departing.items():
            if setting not in covered:
                raise ValueError(
                    f"{setting} = {d.value} departs from {d.clause}; a table "
                    "may use it only as an immaterial modification documented in the internal "
                    f"controls: add a [[modifications]] entry with settings = [\"{setting}\"]")
        return self


TURN_SECONDS = 60
"""A turn's time when the house rules name none (issue 23, action timers)."""
MISSES_TO_SIT_OUT = 2
"""Timed-out turns in a row after which a player sits out, when the house rules name none."""


class TurnTimerRules(HouseRules):
    """The rules of a game whose players decide in turn (Super Pan 9, Pan): how long
    a turn may take before the house rules' default action is taken for the player, and after
    how many such misses in a row the player sits out. Left out of a dump at their defaults,
    so rules that do not set them dump (and hash into records) exactly as before."""

    turn_seconds: int = Field(default=TURN_SECONDS, ge=10, le=600,
                              exclude_if=lambda v: v == TURN_SECONDS,
                              description="seconds a player has to act on their turn")
    misses_to_sit_out: int = Field(default=MISSES_TO_SIT_OUT, ge=1, le=10,
                                   exclude_if=lambda v: v == MISSES_TO_SIT_OUT,
                                   description="timed-out turns in a row before the player "
                                               "sits out")


R = TypeVar("R", bound=HouseRules)


def build_rules(model: type[R], data: dict[str, Any], source: str = "house rules") -> R:
    """Validate a mapping into `model`, turning every problem into one clear RulesError."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RulesError(f"{source}: {describe_validation_error(exc)}") from None


def build_what_if_rules(model: type[R], data: dict[str, Any], source: str = "settings") -> R:
    """Rules for analysing hypothetical values: every departure from the documents that `data`
    does not already cover gets an explicit "what-if" modification, so that the figures say
    what they assume; a modification of the rules file that an override has undone (the
    setting follows the documents again) is dropped. Tables never use this: their rules go
    through `build_rules`."""
    try:
        loose = model.model_validate(data, context={WHAT_IF: True})
    except ValidationError as exc:
        raise RulesError(f"{source}: {describe_validation_error(exc)}") from None
    departing = {d.setting for d in loose.departures()}
    kept = [m for m in loose.modifications if set(m.settings) <= departing]
    covered = {s for m in kept for s in m.settings}
    extra = [Modification(id=f"what-if-{d.setting.replace('_', '-')}", clause=d.clause,
                          description="a hypothetical value given for analysis, not a table's "
                                      "house rules", settings=(d.setting,))
             for d in loose.departures() if d.setting not in covered]
    return build_rules(model, {**data, "modifications": [*kept, *extra]}, source)


def load_rules(model: type[R], path: str | Path) -> R:
    """Load and validate a TOML house-rules file; the law comes first: a setting over a cap
    of the profile in force is refused (`check_profile`)."""
    p = Path(path)
    data = read_document(p, tomllib.loads, tomllib.TOMLDecodeError, "TOML", RulesError,
                         "house-rules file")
    return check_profile(build_rules(model, data, str(p)), str(p))


def check_profile(rules: R, source: str) -> R:
    """`rules`, once every setting a cap governs is within the profile in force today."""
    profile_in_force().check(rules.regulated(), source)
    return rules
