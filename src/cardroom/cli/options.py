"""The options every command shares, defined once (same flag, help and default wherever the
meaning is the same), and the parsing behind them: house rules from a file plus overrides, the
seed of a run, local workers or a Dask scheduler."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

if TYPE_CHECKING:  # the rules models (pydantic) load with the commands that read rules
    from cardroom.cards import Card
    from cardroom.houserules import HouseRules

R = TypeVar("R", bound="HouseRules")

console = Console()

RulesFile = Annotated[Path | None, typer.Option("--rules", help="House-rules TOML file.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON only.")]
RunSeed = Annotated[int | None, typer.Option(
    "--seed", help="Seed for a reproducible run (>= 0); drawn from the OS and reported if absent.")]
ShuffleSeed = Annotated[int | None, typer.Option(
    "--seed", help="Replay seed: a predictable shuffle for tests and demos only (without it the "
    "OS CSPRNG shuffles).")]
Workers = Annotated[int | None, typer.Option(
    "--workers", help="Local processes (default 1: in this process).")]
Scheduler = Annotated[str | None, typer.Option(
    "--scheduler", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786, instead of local "
    "workers.")]
DATABASE_ENV = "CARDROOM_DATABASE"
Database = Annotated[str | None, typer.Option(
    "--database", envvar=DATABASE_ENV, show_envvar=True,
    help="SQLite file path or postgresql://... URL (default: $CARDROOM_DATABASE, else a file "
    "under the user data directory)")]
KeyFile = Annotated[Path | None, typer.Option(
    "--audit-key-file", help="the audit key (default: $CARDROOM_AUDIT_KEY_FILE, else audit.key "
    "beside the default database; created, mode 0600, by the first command that writes to new "
    "books, never for books that hold entries)")]
IdentityKeyFile = Annotated[Path | None, typer.Option(
    "--identity-key-file", help="the identity key that indexes document numbers, the company's "
    "one key where rooms share a head office (default: $CARDROOM_IDENTITY_KEY_FILE, else "
    "identity.key beside the default database)")]
HeadOffice = Annotated[str, typer.Option(
    "--head-office", help="the head office's database URL (read only), e.g. "
    "'postgresql+psycopg://room@hq.example/headoffice?sslmode=verify-full'")]
AcceptFailedAudit = Annotated[bool, typer.Option(
    "--accept-failed-audit", help="write even though the books fail the audit check (the "
    "room refuses otherwise); recorded in the audit log with the problems found")]


def local_workers(workers: int | None, scheduler: str | None) -> int:
    """The local processes a run uses: 1 unless --workers says more; --workers and --scheduler
    exclude each other."""
    from cardroom.analysis.parallel import SimulationError, check_count

    if workers is not None and scheduler is not None:
        raise SimulationError("use either --workers (local cores) or --scheduler (a Dask "
                              "cluster), not both")
    return 1 if workers is None else check_count(workers, "workers", 1)


def rules_with_overrides(model: type[R], rules_file: Path | None, *, what_if: bool = False,
                         **overrides: Any) -> R:
    """The house rules from `rules_file` (or the defaults), with command-line overrides on top;
    every value is validated by the model, so a bad one is a clear one-line error.

    A rules file is always held to the documents (a departure needs its named modification).
    With `what_if` (analysis and simulation, never play), an override that departs from the
    documents is analysed as a "what-if" modification, which the command then prints."""
    from cardroom.houserules import build_rules, build_what_if_rules, load_rules

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


def json_or_modifications(as_json: bool, rules: HouseRules, report: dict[str, Any],
                          taken: Sequence[Card] = (), shoe_size: int = 0) -> bool:
    """With --json, print `report` with the modifications its figures assume and the cards a
    what-if took out of the shoe (of `shoe_size`), and say the command is done (True); without,
    name the modifications before the text report (False)."""
    if not as_json:
        print_modifications(rules)
        return False
    data = {**report, **modifications_json(rules)}
    if taken:
        data["removed"] = [str(c) for c in taken]
        data["cards_left"] = shoe_size - len(taken)
    print_json(data)
    return True


def print_json(data: object) -> None:
    print(json.dumps(data, indent=2))


DOSSIER_HANDS = 1_000_000
"""The simulated hands a figure of a game's math dossier rests on, by default (`report math`)."""
DOSSIER_COUPS = 10_000_000
"""The counter's coups in a dossier (kept under a minute on two cores); a regulator's run
passes --coups 100000000."""
