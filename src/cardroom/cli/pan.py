"""`cardroom play pan` and `cardroom simulate pan` (`cardroom replay FILE` is in `cli.replay`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from cardroom.cli import options as opt
from cardroom.cli.apps import play_app, simulate_app
from cardroom.cli.catalog import summary
from cardroom.cli.options import console, local_workers, print_json, rules_with_overrides
from cardroom.errors import CardroomError
from cardroom.games.pan.rules import PanRules
from cardroom.history import save_history

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardroom.analysis.dossier.model import Dossier
    from cardroom.cli.report import DossierRun


@simulate_app.command("pan", short_help=summary("simulate pan"))
def simulate_pan(
    hands: Annotated[int, typer.Option(help="Hands to play.")] = 1000,
    players: Annotated[int, typer.Option(help="Players at the table (2-15).")] = 8,
    random_players: Annotated[int, typer.Option(
        "--random", help="How many of the players pick random legal actions.")] = 0,
    seed: opt.RunSeed = None,
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    rules: opt.RulesFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Bots play N hands: hands per second, average length, conditions made, chips won (95%
    intervals). The same seed gives the same result whatever --workers or --scheduler."""
    from cardroom.analysis.pan_sim import simulate
    from cardroom.analysis.parallel import check_count, seed_or_draw

    n_workers = local_workers(workers, scheduler)
    check_count(players, "players", 2, 15)
    check_count(hands, "hands", 1)
    check_count(random_players, "random", 0, players)
    used_seed = seed_or_draw(seed)
    settings = rules_with_overrides(PanRules, rules)
    kinds = ["random" if i < random_players else "sound" for i in range(players)]
    report = {**simulate(hands, players, used_seed, kinds, settings, workers=n_workers,
                         scheduler=scheduler).to_json(), "seed": used_seed}
    if as_json:
        print_json(report)
        return
    console.print(f"[bold]Pan[/bold]: {hands} hands, {players} players in "
                  f"{report['seconds']} s on {report['workers']} "
                  f"({report['hands_per_second']} hands/s), "
                  f"{report['average_turns']} turns a hand, seed {used_seed}", highlight=False)
    t = Table(title="Conditions made per hand")
    t.add_column("condition")
    t.add_column("per hand")
    for k, v in report["conditions_per_hand"].items():
        t.add_row(k, f"{v:.4f}")
    console.print(t)
    s = Table(title="Chips won")
    for col in ("seat", "bot", "chips", "per hand", "95% interval"):
        s.add_column(col)
    for row in report["seats"]:
        lo, hi = row["ci95"]
        s.add_row(str(row["seat"]), row["bot"], str(row["chips_won"]),
                  f"{row['chips_per_hand']:+.4f}", f"{lo:+.4f} to {hi:+.4f}")
    console.print(s)


@play_app.command("pan", short_help=summary("play pan"))
def play_pan(
    bots: Annotated[int, typer.Option(help="Computer players (1-14).")] = 3,
    seed: opt.ShuffleSeed = None,
    history_dir: Annotated[Path | None, typer.Option(
        "--history-dir", help="Write each hand's history here.")] = None,
    waiting: Annotated[bool, typer.Option(
        "--waiting", help="Players are waiting: the seat rule (Pan rule 2) applies.")] = False,
    rules: opt.RulesFile = None,
) -> None:
    """Play Pan against computer players in the terminal (you start at seat 0)."""
    from cardroom.cli.pan_play import play_session

    if not 1 <= bots <= 14:
        raise CardroomError("--bots must be 1 to 14")
    settings = rules_with_overrides(PanRules, rules)
    hist = play_session(settings, bots, seed, console, _ask, waiting)
    if history_dir is not None:
        history_dir.mkdir(parents=True, exist_ok=True)
        for i, h in enumerate(hist):
            save_history(h, history_dir / f"pan-hand-{i + 1}.json")


def _ask(prompt: str) -> str:
    value: Any = typer.prompt(prompt)
    return str(value)


def dossier(run: DossierRun) -> Callable[[], Dossier]:
    """`report math pan`: the simulated figures per seat count (`--hands`, default the
    dossier's), the fee income at `--hands-per-hour`, seeded."""
    from cardroom.analysis.dossier import pan
    from cardroom.analysis.parallel import check_count, seed_or_draw

    run.only("hands", "hands_per_hour")
    used_seed = seed_or_draw(run.seed)
    hands, per_hour = run.given["hands"], run.given["hands_per_hour"]
    n = check_count(pan.DOSSIER_HANDS if hands is None else hands, "hands", 2)
    pace = check_count(pan.HANDS_PER_HOUR if per_hour is None else per_hour,
                       "hands-per-hour", 1)
    rules = rules_with_overrides(PanRules, run.rules)

    def build() -> Dossier:
        return pan.build(rules, n, used_seed, pace, run.n_workers, run.scheduler,
                         progress=run.progress, origin=run.origin(
                             ("hands", n), ("hands_per_hour", pace), ("seed", used_seed)))
    return build
