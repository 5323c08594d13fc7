"""Option parsing shared by the game commands: house rules from a file plus overrides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from cardroom.houserules import HouseRules, build_rules, load_rules

R = TypeVar("R", bound=HouseRules)

console = Console()


def rules_with_overrides(model: type[R], rules_file: Path | None, **overrides: Any) -> R:
    """The house rules from `rules_file` (or the defaults), with command-line overrides on top;
    every value is validated by the model, so a bad one is a clear one-line error."""
    base = load_rules(model, rules_file) if rules_file else build_rules(model, {})
    data = base.model_dump()
    data.update({k: v for k, v in overrides.items() if v is not None})
    return build_rules(model, data, "settings")


def print_json(data: object) -> None:
    print(json.dumps(data, indent=2))
