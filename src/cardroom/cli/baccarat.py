"""Mini-Baccarat's commands: `cardroom analyze baccarat` (exact edges, a depleted shoe, the
card-counting exposure), `cardroom simulate baccarat` and `cardroom play baccarat`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from cardroom.analysis.wager import frac
from cardroom.cards import Card, format_cards, parse_cards
from cardroom.cli import options as opt
from cardroom.cli.apps import analyze_app, play_app, simulate_app
from cardroom.cli.catalog import summary
from cardroom.cli.options import (
    console,
    json_or_modifications,
    local_workers,
    modifications_json,
    print_json,
    print_modifications,
    rules_with_overrides,
)
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError, WagerError
from cardroom.games.baccarat.coup import CardDealt, Hand, hand_total
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable, CardsBurned, CoupSettled, ShoeShuffled
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.money import Cents, format_money, parse_money
from cardroom.shoe import SeededRandom, SystemRandom

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardroom.analysis.baccarat import BaccaratReport
    from cardroom.analysis.baccarat_counting import CountingReport
    from cardroom.analysis.dossier.model import Dossier
    from cardroom.cli.report import DossierRun

Decks = Annotated[int | None, typer.Option(
    help="Decks in the shoe (1-16, 8 with the progressive).")]

DEFAULT_COUPS = 100_000_000
DEFAULT_STATES = 200

Paytable = Annotated[int | None, typer.Option(help="Super-9 pay table 1, 2 or 3.")]
Commission = Annotated[str | None, typer.Option(help="Banker commission, e.g. 5% or 0.05.")]
TiePays = Annotated[int | None, typer.Option(help="Tie pays N to 1.")]
JackpotSeed = Annotated[str | None, typer.Option(help="Jackpot seed in dollars.")]
JackpotContribution = Annotated[str | None, typer.Option(
    help="Share of each $1 added to the meter, e.g. 0.20.")]


def what_if_rules(rules: Path | None, decks: int | None, paytable: int | None,
                  commission: str | None, tie_pays: int | None, jackpot_seed: str | None,
                  jackpot_contribution: str | None) -> BaccaratRules:
    """The house rules `analyze baccarat` and `simulate baccarat` figure: the file's (or the
    defaults), with the command line's what-if changes; the progressive only on 8 decks."""
    return rules_with_overrides(
        BaccaratRules, rules, what_if=True, decks=decks, paytable=paytable, commission=commission,
        tie_pays=tie_pays, jackpot_contribution=jackpot_contribution,
        jackpot_seed_cents=None if jackpot_seed is None else parse_money(jackpot_seed),
        jackpot=False if decks not in (None, 8) else None,
    )


@analyze_app.command("baccarat", short_help=summary("analyze baccarat"))
def analyze_baccarat(
    decks: Decks = None,
    paytable: Paytable = None,
    commission: Commission = None,
    tie_pays: TiePays = None,
    jackpot_seed: JackpotSeed = None,
    jackpot_contribution: JackpotContribution = None,
    removed: Annotated[str | None, typer.Option(
        help='Cards taken out of the shoe, e.g. "As 9h 9h Kd": exact edges of that shoe.')]
    = None,
    counting: Annotated[bool, typer.Option(
        "--counting", help="Card-counting exposure of the side bets: effects of removal, the "
                           "best counts, a counter over real shoes.")] = False,
    coups: Annotated[int, typer.Option(help="--counting: coups the counter sees.")]
    = DEFAULT_COUPS,
    states: Annotated[int, typer.Option(
        help="--counting: shoe states checked against the exact edge.")] = DEFAULT_STATES,
    seed: opt.RunSeed = None,
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    rules: opt.RulesFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Exact probabilities and house edges of every wager, by enumeration of the shoe."""
    from cardroom.analysis.baccarat import analyze

    settings = what_if_rules(rules, decks, paytable, commission, tie_pays, jackpot_seed,
                             jackpot_contribution)
    if counting:
        if removed is not None:
            raise CardroomError("--counting starts from a full shoe: leave out --removed")
        run_counting(settings, coups, states, seed, local_workers(workers, scheduler),
                     scheduler, as_json)
        return
    taken = parse_cards(removed) if removed is not None else []
    if taken:
        from cardroom.analysis.baccarat_depleted import DepletedShoe, composition_after

        comp = composition_after(settings.decks, taken)
        report = analyze(settings, counts=DepletedShoe().counts(comp, settings.decks))
    else:
        report = analyze(settings)
    if json_or_modifications(as_json, settings, report.to_json(), taken, settings.shoe_spec.size):
        return
    print_report(settings, report, taken)


def print_report(settings: BaccaratRules, report: BaccaratReport, taken: Sequence[Card]) -> None:
    """The exact report as the terminal shows it: outcomes, nines, wagers, then each wager's
    exact edge as a fraction and the notes."""
    c = report.counts
    shoe = (f"{settings.decks} decks less {len(taken)} card(s) "
            f"({settings.shoe_spec.size - len(taken)} left)" if taken
            else f"{settings.decks} decks")
    head = Table(title=f"Mini-Baccarat, {shoe}: outcomes ({c.total:,} six-card sequences)")
    for col in ("outcome", "sequences", "probability"):
        head.add_column(col, justify="right" if col != "outcome" else "left")
    for name, count in (("Banker wins", c.banker_wins), ("Player wins", c.player_wins),
                        ("Tie", c.ties)):
        head.add_row(name, f"{count:,}", f"{count / c.total:.15f}")
    console.print(head)
    nines = Table(title="Nines (Player-9 and Banker-9 pay every one): probability per coup")
    for col in ("nine", "Player", "Banker"):
        nines.add_column(col, justify="right" if col != "nine" else "left")
    player, banker = c.nines(Hand.PLAYER), c.nines(Hand.BANKER)
    for kind, k in player.items():
        nines.add_row(kind, f"{k / c.total:.10f}", f"{banker[kind] / c.total:.10f}")
    console.print(nines)
    console.print(wagers_table(settings, report))
    print_wager_notes(report)


def wagers_table(settings: BaccaratRules, report: BaccaratReport) -> Table:
    """Each wager's outcomes with its exact edge, spread and the designer's claim checked."""
    table = Table(title=f"Wagers (pay table {settings.paytable}, commission "
                        f"{float(settings.commission) * 100:g}%, tie {settings.tie_pays} to 1)")
    for col in ("wager", "award", "probability", "house edge", "std dev", "claimed"):
        table.add_column(col)
    for w in report.wagers:
        claim = "" if w.claimed_edge_percent is None else f"{w.claimed_edge_percent}%"
        if w.claim_agrees is False:
            claim = f"[bold red]{claim} ≠ {float(w.house_edge) * 100:.4f}%[/bold red]"
        elif w.claim_agrees:
            claim = f"[green]{claim} ✓[/green]"
        for i, o in enumerate(w.outcomes):
            first = i == 0
            table.add_row(
                w.name if first else "", o.label.replace("_", " "), f"{o.count / w.total:.10f}",
                f"{float(w.house_edge) * 100:.4f}%" if first else "",
                f"{w.std_dev:.4f}" if first else "", claim if first else "",
            )
        table.add_section()
    return table


def print_wager_notes(report: BaccaratReport) -> None:
    """Each wager's exact edge as a fraction, its note and its break-even top award."""
    for w in report.wagers:
        console.print(f"exact house edge, {w.name}: "
                      f"{w.house_edge.numerator}/{w.house_edge.denominator}", highlight=False)
        if w.note:
            console.print(f"note ({w.name}): {w.note}")
        if w.break_even_jackpot_cents is not None:
            console.print(f"break-even top award, {w.name}: "
                          f"{format_money(math.ceil(w.break_even_jackpot_cents))} (a lone "
                          "bettor's expected return is 100% there; above it the wager favours "
                          "the player)", highlight=False)
    console.print("Progressive edge = 1 - fixed for-1 awards - contribution - P(top award) x "
                  "seed; a top award is valued at the seed in its std dev.")


def parse_bet_line(line: str) -> dict[WagerKind, Cents]:
    """"banker 25 player_9 5 jackpot 1" -> bets in cents; errors name the bad token."""
    tokens = line.replace(",", " ").split()
    if not tokens or len(tokens) % 2:
        raise WagerError("write bets as pairs: wager amount, e.g. 'banker 25 player_9 5 jackpot 1'")
    bets: dict[WagerKind, Cents] = {}
    for name, amount in zip(tokens[::2], tokens[1::2], strict=True):
        kind = WagerKind.parse(name)
        if kind in bets:
            raise WagerError(f"{kind.value} named twice")
        bets[kind] = parse_money(amount)
    return bets


YOU = 1
"""Your seat at a table of your own."""


@play_app.command("baccarat", short_help=summary("play baccarat"))
def play_baccarat(
    buy_in: Annotated[str, typer.Option(help="Chips to buy, in dollars.")] = "500",
    rules: opt.RulesFile = None,
    seed: opt.ShuffleSeed = None,
) -> None:
    """Play Mini-Baccarat with the Super-9 wagers at a table of your own."""
    settings = rules_with_overrides(BaccaratRules, rules)
    source = SystemRandom() if seed is None else SeededRandom(seed)
    table = BaccaratTable(settings, source)
    table.sit(YOU, parse_money(buy_in))
    console.print(f"[bold]Super-9 Mini-Baccarat[/bold]: {settings.decks} decks, pay table "
                  f"{settings.paytable}, banker commission {float(settings.commission) * 100:g}%,"
                  f" tie {settings.tie_pays} to 1. Wagers: player, banker, tie, player_9, "
                  "banker_9, jackpot ($1).")
    last: dict[WagerKind, Cents] = {}
    while True:
        status = f"balance: [bold]{format_money(table.balances[YOU])}[/bold]"
        if table.pool is not None:
            status = (f"jackpot posted: [bold]{format_money(table.pool.posted)}[/bold] "
                      f"(meter {format_money(table.pool.meter)})   {status}")
        console.print(status)
        line = typer.prompt("bets (Enter repeats the last, q quits)", default="",
                            show_default=False).strip()
        if line.lower() in ("q", "quit", "exit"):
            break
        try:
            bets = parse_bet_line(line) if line else last
            if not bets:
                raise WagerError("no bets yet: e.g. 'banker 25 jackpot 1'")
            table.place_bets(YOU, bets)
        except CardroomError as exc:
            console.print(flagged("", exc), highlight=False)
            continue
        last = bets
        start = len(table.events)
        settled = table.deal()
        _show_coup(table.events[start:], settled)
    console.print(f"You leave with {format_money(table.balances[YOU])}.")


def _show_coup(events: Sequence[object], settled: CoupSettled) -> None:
    for e in events:
        if isinstance(e, ShoeShuffled):
            console.print(f"[dim]new shoe shuffled; commitment {e.commitment[:16]}…[/dim]")
        elif isinstance(e, CardsBurned):
            console.print(f"[dim]burn: {e.exposed} exposed, {e.count} card(s) burned[/dim]")
        elif isinstance(e, CardDealt):
            console.print(f"  {e.hand.value:<6} ← {e.card}")
    p, b = hand_total(settled.player), hand_total(settled.banker)
    console.print(f"Player {format_cards(settled.player)} = {p}   "
                  f"Banker {format_cards(settled.banker)} = {b}")
    table = Table(show_header=True)
    for col in ("wager", "stake", "result", "won/lost", "commission"):
        table.add_column(col)
    for _, s in settled.settlements:
        table.add_row(s.kind.value, format_money(s.stake), s.outcome, format_money(s.won),
                      format_money(s.commission) if s.commission else "")
    console.print(table)



def run_counting(rules: BaccaratRules, coups: int, states: int, seed: int | None, workers: int,
                 scheduler: str | None, as_json: bool) -> None:
    from cardroom.analysis.baccarat_counting import counting_report

    report = counting_report(rules, coups, seed, states=states, workers=workers,
                             scheduler=scheduler, progress=not as_json)
    if as_json:
        print_json(report.to_json())
        return
    print_counting(report)


def _signed_pct(x: float) -> str:
    return f"{x * 100:+.4f}%"


def _turning_cut(behind: float | None, ahead: float | None) -> str:
    """The bracket on the cut where the counter's edge turns positive (95% at each cut)."""
    if ahead is None:
        return "-"
    return f"by {ahead:.1%}" if behind is None else f"{behind:.1%} to {ahead:.1%}"


def print_counting(report: CountingReport) -> None:
    from cardroom.analysis.baccarat_counting import SIDE_BETS, WAGERS

    rules = report.rules
    console.print(f"[bold]Card counting, Super-9 Mini-Baccarat[/bold]: {rules.decks} decks, "
                  f"pay table {rules.paytable}, progressive valued with the top award at the "
                  f"seed ${rules.jackpot_seed_cents / 100:,.2f}", highlight=False)
    eor = Table(title="Effects of removal: change in the player's expectation per unit when one "
                      "card is taken from the full shoe (each rank: the same in all four suits)")
    eor.add_column("card")
    for w in WAGERS:
        eor.add_column(w, justify="right")
    by_rank: dict[str, list[str]] = {}
    for card, effects in report.effects.by_card.items():
        row = [_signed_pct(float(effects[w])) for w in WAGERS]
        rank = card.rank.symbol
        if by_rank.get(rank, row) != row:
            rank = str(card)
        by_rank.setdefault(rank, row)
    for name, row in by_rank.items():
        eor.add_row(name, *row)
    eor.add_row("off the top", *[_signed_pct(float(report.effects.base[w])) for w in WAGERS],
                end_section=True)
    console.print(eor)
    counts = Table(title="Best linear count per side bet (tags by value: 0 = ten and pictures)")
    for col in ("wager", *(str(v) for v in range(10)), "betting correlation"):
        counts.add_column(col, justify="right")
    for c in report.counts:
        counts.add_row(c.wager, *(str(t) for t in c.tags), f"{c.betting_correlation:.3f}")
    console.print(counts)
    sim = Table(title=f"A counter who bets only at a positive count: {report.coups:,} coups "
                      f"from {report.shoes:,} shoes (seed {report.seed})")
    for col in ("wager", "counter's edge", "95% CI", "coups bet", "units per 100 coups",
                "edge turns positive (cut)"):
        sim.add_column(col, justify="right")
    for r in report.counters:
        low, high = r.ci
        sim.add_row(r.wager, "never bet" if r.edge is None else _signed_pct(float(r.edge)),
                    "" if r.edge is None else f"{_signed_pct(low)} .. {_signed_pct(high)}",
                    f"{r.fraction_bet:.3%}", f"{r.units_per_100_coups:+.4f}",
                    _turning_cut(r.behind_until, r.ahead_from))
    console.print(sim)
    check = Table(title="Cross-check on sampled shoe states: the count's estimate against the "
                        "exact depleted-shoe edge")
    for col in ("wager", "states", "correlation", "mean abs error", "bet decision agrees",
                "exact edge where the count bets"):
        check.add_column(col, justify="right")
    for x in report.checks:
        check.add_row(x.wager, str(x.states), f"{x.correlation:.3f}",
                      _signed_pct(x.mean_abs_error).lstrip("+"), f"{x.decisions_agree:.1%}",
                      "-" if x.exact_mean_when_bet is None else _signed_pct(x.exact_mean_when_bet))
    console.print(check)
    assert [r.wager for r in report.counters] == list(SIDE_BETS)
    for r in report.counters:
        console.print(r.answer(), highlight=False, soft_wrap=True)


PROGRESS_FROM = 10_000_000
"""Runs of at least this many coups show a progress bar (on stderr, when it is a terminal)."""


def _pct(x: float | Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


@simulate_app.command("baccarat", short_help=summary("simulate baccarat"))
def simulate_baccarat(
    hands: Annotated[int, typer.Option(help="Coups to deal (at least 2).")],
    seed: opt.RunSeed = None,
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    decks: Decks = None,
    paytable: Paytable = None,
    commission: Commission = None,
    tie_pays: TiePays = None,
    jackpot_seed: JackpotSeed = None,
    jackpot_contribution: JackpotContribution = None,
    rules: opt.RulesFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Deal real shuffled shoes to the cut card; every wager's observed house edge with a 95%
    confidence interval, beside the exact value."""
    from cardroom.analysis.baccarat_sim import simulate
    from cardroom.analysis.parallel import check_count

    n_workers = local_workers(workers, scheduler)
    check_count(hands, "hands", 2)
    settings = what_if_rules(rules, decks, paytable, commission, tie_pays, jackpot_seed,
                             jackpot_contribution)
    report = simulate(settings, hands, seed, workers=n_workers, scheduler=scheduler,
                      progress=hands >= PROGRESS_FROM, exact=True)
    where = f"Dask scheduler {scheduler}" if scheduler else f"{n_workers} local worker(s)"
    if as_json:
        wagers: list[dict[str, Any]] = []
        for w in report.wagers:
            assert w.exact is not None and isinstance(w.house_edge, Fraction)
            wagers.append({
                "name": w.name,
                "house_edge": float(w.house_edge),
                "house_edge_observed_exact": frac(w.house_edge),
                "ci95_low": w.ci_low,
                "ci95_high": w.ci_high,
                "std_error": w.std_error,
                "exact_house_edge": float(w.exact),
                "exact_house_edge_exact": frac(w.exact),
                "exact_within_ci": w.exact_within_ci,
            })
        print_json({"game": "baccarat", "decks": settings.decks, "hands": report.hands,
                    "seed": report.seed, "shoes": report.shoes, "run_on": where,
                    "outcomes": report.winners, "wagers": wagers,
                    **modifications_json(settings)})
        return
    print_modifications(settings)
    console.print(f"Mini-Baccarat / Super-9, {settings.decks} decks: {report.hands:,} coups "
                  f"from {report.shoes:,} shoes (seed {report.seed}, {where})", highlight=False)
    table = Table(title="House edge per unit staked")
    for col in ("wager", "observed", "95% CI", "exact", "exact in CI"):
        table.add_column(col, justify="left" if col == "wager" else "right", no_wrap=True)
    for w in report.wagers:
        assert w.exact is not None
        inside = "[green]yes[/green]" if w.exact_within_ci else "[bold red]no[/bold red]"
        table.add_row(w.name, _pct(w.house_edge), f"{_pct(w.ci_low)} .. {_pct(w.ci_high)}",
                      _pct(w.exact), inside)
    console.print(table)
    won = report.winners
    console.print(", ".join(f"{k} {v:,} ({v / report.hands:.6f})" for k, v in won.items()),
                  highlight=False)
    console.print("Exact values are off the top of a full shoe; the simulation deals to the cut "
                  "card. The progressive's edge counts a jackpot at the seed "
                  "(1 - contribution - E[for-1 award + seed on a jackpot]).", markup=False,
                  highlight=False)


def dossier(run: DossierRun) -> Callable[[], Dossier]:
    """`report math baccarat`: the exact figures, the card counter over `--coups` (default
    `DOSSIER_COUPS`), seeded; a shoe of other than 8 decks has no progressive."""
    from cardroom.analysis.parallel import seed_or_draw

    run.only("decks", "paytable", "commission", "tie_pays", "jackpot_seed",
             "jackpot_contribution", "coups")
    used_seed = seed_or_draw(run.seed)
    g = run.given
    decks, jackpot_seed, coups = g["decks"], g["jackpot_seed"], g["coups"]
    settings = rules_with_overrides(
        BaccaratRules, run.rules, decks=decks, paytable=g["paytable"],
        commission=g["commission"], tie_pays=g["tie_pays"],
        jackpot_contribution=g["jackpot_contribution"],
        jackpot_seed_cents=None if jackpot_seed is None else parse_money(jackpot_seed),
        jackpot=False if decks not in (None, 8) else None)
    n = opt.DOSSIER_COUPS if coups is None else coups

    def build() -> Dossier:
        from cardroom.analysis.dossier import baccarat

        return baccarat.build(settings, n, used_seed, run.n_workers, run.scheduler,
                              progress=run.progress,
                              origin=run.origin(("coups", n), ("seed", used_seed)))
    return build
