"""House rules ("internal controls"): typed, validated settings loaded from TOML.

Each game defines its own model (a subclass of `HouseRules`) beside its engine; this module
holds what they share: strict parsing, exact rates, and errors a person can act on.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, PlainSerializer, ValidationError

from cardroom.errors import CardroomError, RulesError
from cardroom.money import parse_rate


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


class HouseRules(BaseModel):
    """Base of every game's settings: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)


R = TypeVar("R", bound=HouseRules)


def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)


def build_rules(model: type[R], data: dict[str, Any], source: str = "house rules") -> R:
    """Validate a mapping into `model`, turning every problem into one clear RulesError."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RulesError(f"{source}: {describe_validation_error(exc)}") from None


def load_rules(model: type[R], path: str | Path) -> R:
    """Load and validate a TOML house-rules file."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"{p}: no such house-rules file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"{p}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{p}: not valid TOML: {exc}") from None
    return build_rules(model, data, str(p))
