"""The options every command shares are defined once (`cardroom.cli.options`): wherever
`--rules`, `--json`, `--workers`, `--scheduler` or `--database` appears it has the same help
and default, and `--seed` is one of two options: the seed of a run, or a replay shuffle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer

import cardroom.cli  # noqa: F401  (registers every command on the app)
from cardroom.cli import app

SHARED = ("--rules", "--json", "--workers", "--scheduler", "--database", "--seed")


def commands(group: Any, path: str = "cardroom") -> Iterator[tuple[str, Any]]:
    """Every command under `group` (typer's own click: groups are the ones with commands)."""
    if hasattr(group, "commands"):
        for name, sub in group.commands.items():
            yield from commands(sub, f"{path} {name}")
    else:
        yield path, group


def shared_options() -> dict[str, set[tuple[str | None, object]]]:
    seen: dict[str, set[tuple[str | None, object]]] = {flag: set() for flag in SHARED}
    for _, command in commands(typer.main.get_command(app)):
        for param in command.params:
            for flag in set(param.opts) & set(SHARED):
                seen[flag].add((getattr(param, "help", None), param.default))
    return seen


@pytest.mark.parametrize("flag", ["--rules", "--json", "--workers", "--scheduler", "--database"])
def test_a_shared_option_reads_the_same_in_every_command(flag: str) -> None:
    variants = shared_options()[flag]
    assert len(variants) == 1, variants


def test_seed_is_a_run_seed_or_a_replay_shuffle() -> None:
    """Simulations draw a seed and report it; play commands shuffle from the OS CSPRNG unless a
    replay seed is given (tests and demos only). Both default to absent."""
    variants = shared_options()["--seed"]
    assert len(variants) == 2, variants
    assert {default for _, default in variants} == {None}
