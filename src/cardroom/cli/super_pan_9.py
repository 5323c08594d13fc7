"""`cardroom analyze|simulate|play super-pan-9`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.panel import Panel
from rich.table import Table

from cardroom.cli import options as opt
from cardroom.cli.apps import analyze_app, play_app, simulate_app
from cardroom.cli.catalog import summary
from cardroom.cli.options import console, json_or_modifications, local_workers, rules_with_overrides
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError
from cardroom.games.super_pan_9.engine import SuperPan9Table
from cardroom.games.super_pan_9.rules import SuperPan9Rules
from cardroom.money import Cents, format_money, parse_money

if TYPE_CHECKING:
    from cardroom.analysis.super_pan_9 import SuperPan9Analysis

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardroom.analysis.dossier.model import Dossier
    from cardroom.cli.report import DossierRun

Decks = Annotated[int | None, typer.Option(help="Decks in the shoe (1-8).")]


def _pct(x: object) -> str:
    return f"{float(x) * 100:+.4f}%"  # type: ignore[arg-type]


@analyze_app.command("super-pan-9", short_help=summary("analyze super-pan-9"))
def analyze_super_pan_9(
    decks: Decks = None,
    commission: Annotated[str | None, typer.Option(
        help="Commission on winning bets, 0% to 5%, e.g. 5% or 0.05.")] = None,
    tie_pays: Annotated[int | None, typer.Option(help="Tie Bet pays N to 1.")] = None,
    removed: Annotated[str | None, typer.Option(
        help='Cards taken out of the shoe, e.g. "As 6h Kd": exact figures for that shoe.')]
    = None,
    rules: opt.RulesFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Exact optimal strategy and house edges, by enumeration of the finite shoe."""
    from cardroom.analysis.super_pan_9 import analyse, shoe_after
    from cardroom.cards import parse_cards

    settings = rules_with_overrides(SuperPan9Rules, rules, what_if=True, decks=decks,
                                    commission=commission, tie_pays=tie_pays)
    taken = parse_cards(removed) if removed is not None else []
    report = analyse(settings.decks, settings.commission, settings.tie_pays,
                     settings.commission_on_tie_bet,
                     shoe_after(settings.decks, taken) if taken else None)
    if json_or_modifications(as_json, settings, report.to_json(), taken, settings.shoe_size):
        return
    pct = float(settings.commission) * 100
    less = f" less {len(taken)} card(s) ({settings.shoe_size - len(taken)} left)" if taken else ""
    console.print(f"[bold]Super Pan 9[/bold]: {settings.decks} deck(s) of 36 cards{less}, "
                  f"commission {pct:g}% on winning bets, Tie Bet {settings.tie_pays} to 1",
                  highlight=False)
    strat = Table(title="Strategy to post (by three-card total)")
    strat.add_column("total")
    strat.add_column("decision")
    for t, draw in report.table.by_total.items():
        strat.add_row(str(t), "draw" if draw else "stand")
    console.print(strat)
    if report.table.exceptions:
        exc = Table(title="Exceptions (by composition)")
        for col in ("cards", "total", "decision", "gain from drawing"):
            exc.add_column(col)
        for r in report.table.exceptions:
            exc.add_row(" ".join(map(str, r.cards)), str(r.total),
                        "draw" if report.strategy[r.cards] else "stand",
                        _pct(r.gain_from_drawing(report.commission)))
        console.print(exc)
    else:
        console.print("No exceptions: every one of the "
                      f"{len(report.results)} three-card compositions follows the table.")
    w = Table(title="Wagers (exact over the finite shoe)")
    for col in ("wager", "win", "push", "loss", "house edge", "exact"):
        w.add_column(col)
    for name, m in (("main, optimal", report.optimal), ("main, draw on 0-5", report.dealer_rule)):
        edge = m.house_edge
        w.add_row(name, f"{float(m.win):.8f}", f"{float(m.push):.8f}", f"{float(m.loss):.8f}",
                  _pct(edge), f"{edge.numerator}/{edge.denominator}")
    tie = report.tie
    w.add_row(f"tie bet {tie.pays} to 1", f"{float(tie.probability):.8f}", "",
              f"{float(1 - tie.probability):.8f}", _pct(tie.house_edge),
              f"{tie.house_edge.numerator}/{tie.house_edge.denominator}")
    console.print(w)
    console.print(f"Tie Bet break-even payout: {float(tie.break_even_pays):.6f} to 1 "
                  f"({tie.break_even_pays.numerator}/{tie.break_even_pays.denominator})",
                  highlight=False)
    console.print(f"Other players at the table: {report.to_json()['other_players']['why']}")
    for warning in report.warnings:
        console.print(Panel(f"[bold]{warning}[/bold]", title="WARNING", style="bold red"))


@simulate_app.command("super-pan-9", short_help=summary("simulate super-pan-9"))
def simulate_super_pan_9(
    hands: Annotated[int, typer.Option(help="Player-hands to deal (whole rounds).")],
    seats: Annotated[int, typer.Option(help="Players at the table (1-9).")] = 7,
    strategy: Annotated[str, typer.Option(help="optimal or dealer-rule (draw on 0-5).")]
    = "optimal",
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    seed: opt.RunSeed = None,
    decks: Decks = None,
    commission: Annotated[str | None, typer.Option(help="Commission, 0% to 5%.")] = None,
    tie_pays: Annotated[int | None, typer.Option(help="Tie Bet pays N to 1.")] = None,
    rules: opt.RulesFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Monte Carlo over real shuffled shoes, with 95% intervals beside the exact values."""
    from cardroom.analysis.super_pan_9_sim import simulate

    settings = rules_with_overrides(SuperPan9Rules, rules, what_if=True, decks=decks,
                                    commission=commission, tie_pays=tie_pays)
    report = simulate(settings, hands, seats, strategy, seed,
                      workers=local_workers(workers, scheduler),
                      scheduler=scheduler, progress=not as_json)
    if json_or_modifications(as_json, settings, report.to_json()):
        return
    console.print(f"[bold]Super Pan 9[/bold]: {report.hands:,} player-hands in "
                  f"{report.rounds:,} rounds of {seats} seat(s), {report.shoes:,} shoes, "
                  f"strategy {strategy}, seed {report.seed}", highlight=False)
    t = Table(title="House edge per unit wagered (95% CI, rounds as the sampling unit)")
    for col in ("wager", "simulated", "95% interval", "exact", "exact inside"):
        t.add_column(col)
    for e in (report.main, report.tie):
        t.add_row(e.name, _pct(e.house_edge), f"[{_pct(e.ci_low)}, {_pct(e.ci_high)}]",
                  _pct(e.exact), "yes" if e.exact_within_ci else "[red]no[/red]")
    console.print(t)


def _show(snap: dict[str, Any], me: int) -> None:
    for s in snap["seats"]:
        who = "you" if s["seat"] == me else "computer"
        cards = " ".join(s["cards"]) if s["cards"] else "(face down) x" + str(s["card_count"])
        total = "" if s["total"] is None else f"  total {s['total']}"
        result = "" if s["result"] is None else f"  {s['result']}"
        console.print(f"  seat {s['seat']} ({who}): {cards}{total}{result}", highlight=False)
    d = snap["dealer"]
    cards = " ".join(d["cards"]) if d["cards"] else "(face down) x" + str(d["card_count"])
    total = "" if d["total"] is None else f"  total {d['total']}"
    console.print(f"  dealer: {cards}{total}", highlight=False)


def _your_turn(table: SuperPan9Table, seat: int, report: SuperPan9Analysis) -> None:
    """One answer at the player's turn: one of the seat's legal actions (rule 6: draw or
    stand) by its first letter, or the optimal choice with its figures."""
    from cardroom.analysis.super_pan_9 import holding_of

    _show(table.snapshot(seat), seat)
    moves = {a.name[0]: a for a in table.legal_actions(seat)}
    choice = typer.prompt("Draw or stand? [d/s, h for the optimal choice]").strip().lower()
    if choice.startswith("h"):
        r = next(r for r in report.results if r.cards == holding_of(table.seats[seat].cards))
        best = "draw" if report.strategy[r.cards] else "stand"
        console.print(
            f"  optimal: {best} (expected return draw "
            f"{float(r.ev(True, report.commission)):+.4f}, stand "
            f"{float(r.ev(False, report.commission)):+.4f} per unit)", highlight=False)
    elif choice[:1] in moves:
        table.apply(moves[choice[:1]])
    else:
        console.print(flagged("error:", f"answer d, s or h, not {choice!r}"), highlight=False)


def _settle_round(table: SuperPan9Table, seat: int) -> Cents:
    """The dealer finishes, the player is told their result; a new round; their chips."""
    settled = table.finish_dealer()
    _show(table.snapshot(seat), seat)
    mine = next(x.settlement for x in settled.seats if x.seat == seat)
    verb = {"win": "win", "loss": "lose", "push": "tie (push)",
            "void": "are void"}[mine.outcome.value]
    console.print(f"  you {verb}: {format_money(mine.net)} "
                  f"(commission {format_money(mine.commission)})", highlight=False)
    table.new_round()
    return table.chips[seat]


@play_app.command("super-pan-9", short_help=summary("play super-pan-9"))
def play_super_pan_9(
    players: Annotated[int, typer.Option(help="Computer players at the table (0-8).")] = 3,
    seat: Annotated[int, typer.Option(help="Your seat (1-9).")] = 2,
    bankroll: Annotated[str, typer.Option(help="Your starting chips in dollars.")] = "200",
    wager: Annotated[str, typer.Option(help="Default wager in dollars.")] = "10",
    tie: Annotated[str, typer.Option(help="Tie Bet each round in dollars (0: none).")] = "0",
    seed: opt.ShuffleSeed = None,
    decks: Decks = None,
    rules: opt.RulesFile = None,
) -> None:
    """Sit at a Super Pan 9 table with computer players; type h at your turn for the optimal
    choice."""
    from cardroom.analysis.super_pan_9 import analyse, strategy_move
    from cardroom.shoe import SeededRandom, SystemRandom

    settings = rules_with_overrides(SuperPan9Rules, rules, decks=decks)
    if not 0 <= players <= 8:
        raise CardroomError(f"--players must be 0 to 8, not {players}")
    if not 1 <= seat <= 9:
        raise CardroomError(f"--seat must be 1 to 9, not {seat}")
    chips = parse_money(bankroll)
    default = parse_money(wager)
    tie_bet = parse_money(tie)
    others = [s for s in range(1, 10) if s != seat][:players]
    report = analyse(settings.decks, settings.commission, settings.tie_pays,
                     settings.commission_on_tie_bet)
    table = SuperPan9Table(settings, SeededRandom(seed) if seed is not None else SystemRandom())
    table.sit(seat, chips)  # the engine refuses a wager the chips cannot cover
    console.print(f"[bold]Super Pan 9[/bold], {settings.decks} decks; you are seat {seat}, "
                  f"with {players} computer player(s). Commission "
                  f"{float(settings.commission) * 100:g}%, Tie Bet {settings.tie_pays} to 1.",
                  highlight=False)

    while True:
        console.print(f"\nRound {table.round_no}. Your chips: {format_money(chips)}",
                      highlight=False)
        answer = typer.prompt(f"Wager (Enter for {format_money(default)}, q to leave)",
                              default="", show_default=False).strip()
        if answer.lower() in ("q", "quit"):
            break
        try:
            amount = parse_money(answer) if answer else default
            table.place_wager(seat, amount, tie_bet)
        except CardroomError as exc:
            console.print(flagged("error:", exc), highlight=False)
            continue
        for s in others:
            table.place_wager(s, settings.min_wager_cents)
        table.deal()
        while (turn := table.to_act) is not None:
            if turn == seat:
                _your_turn(table, seat, report)
            else:
                move = strategy_move(table, turn, report.strategy)
                table.apply(move)
                console.print(f"  seat {turn} {move.name}s.")
        chips = _settle_round(table, seat)
        if chips < settings.min_wager_cents:
            console.print("You are out of chips.")
            break
    console.print(f"You leave with {format_money(chips)}.", highlight=False)


def dossier(run: DossierRun) -> Callable[[], Dossier]:
    """`report math super-pan-9`: the exact figures for the table's rules (no seed, no run
    size)."""
    run.only("decks", "commission", "tie_pays")
    g = run.given
    rules = rules_with_overrides(SuperPan9Rules, run.rules, decks=g["decks"],
                                 commission=g["commission"], tie_pays=g["tie_pays"])

    def build() -> Dossier:
        from cardroom.analysis.dossier import super_pan_9

        return super_pan_9.build(rules, run.origin())
    return build
