"""Option parsing shared by the game commands: house rules from a file plus overrides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from cardroom.houserules import HouseRules, build_rules, build_what_if_rules, load_rules

R = TypeVar("R", bound=HouseRules)

console = Console()


def rules_with_overrides(model: type[R], rules_file: Path | None, *, what_if: bool = False,
                         **overrides: Any) -> R:
    """The house rules from `rules_file` (or the defaults), with command-line overrides on top;
    every value is validated by the model, so a bad one is a clear one-line error.

    A rules file is always held to the documents (a departure needs its named modification).
    With `what_if` (analysis and simulation, never play), an override that departs from the
    documents is analysed as a "what-if" modification, which the command then prints."""
    base = load_rules(model, rules_file) if rules_file else build_rules(model, {})
    data = base.model_dump()
    data.update({k: v for k, v in overrides.items() if v is not None})
    if what_if:
        return build_what_if_rules(model, data, "settings")
    return build_rules(model, data, "settings")


def modifications_json(rules: HouseRules) -> dict[str, object]:
    """The modifications the figures assume, for a command's JSON output."""
    return {"modifications": [m.model_dump(mode="json") for m in rules.modifications]}


def print_modifications(rules: HouseRules) -> None:
    """Name every modification the figures assume, so none passes silently."""
    for m in rules.modifications:
        console.print(f"[bold yellow]modification[/bold yellow] {m.id}: {m.description} "
                      f"({', '.join(m.settings)}; departs from {m.clause})", highlight=False)


def print_json(data: object) -> None:
    print(json.dumps(data, indent=2))
