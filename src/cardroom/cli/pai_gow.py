"""`cardroom pai-gow set|calc`: the house way's setting, and the exact hand calculator."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardroom.analysis.pai_gow_calc import CalcResult, SettingResult, calculate
from cardroom.analysis.pai_gow_outcomes import outcome_table
from cardroom.analysis.parallel import progress_bar, seed_or_draw
from cardroom.cards import format_cards, parse_cards
from cardroom.cli import options as opt
from cardroom.cli.apps import app, play_app, simulate_app
from cardroom.cli.catalog import summary
from cardroom.cli.options import local_workers, print_json, rules_with_overrides
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError, RulesError
from cardroom.games.pai_gow.evaluate import describe
from cardroom.games.pai_gow.houseway import DEFAULT_WAY, house_way, set_hand
from cardroom.games.pai_gow.settings import validate_seven
from cardroom.money import format_money, parse_money, parse_rate

if TYPE_CHECKING:
    from collections.abc import Callable

    from cardroom.analysis.dossier.model import Dossier
    from cardroom.cli.report import DossierRun

pai_gow_app = typer.Typer(help=summary("pai-gow"),
                          no_args_is_help=True)
app.add_typer(pai_gow_app, name="pai-gow")
console = Console()

HouseWayOpt = Annotated[str, typer.Option("--house-way", help=(
    "built-in house way (trump-plaza, ballys) or a house-way .toml file"))]
WheelOpt = Annotated[bool, typer.Option("--wheel-second", help=(
    "rank A-2-3-4-5 second-highest (house rule); default: lowest straight"))]


def _cards(text: str) -> list[str]:
    return [str(c) for c in parse_cards(text)]


CardsArg = Annotated[str, typer.Argument(help='seven cards, e.g. "As Kd JK 9c 7h 5s 2d"')]
CommissionOpt = Annotated[str, typer.Option(help="commission on wins, e.g. 5%")]


@pai_gow_app.command("set")
def set_command(cards: CardsArg,
                house_way_name: HouseWayOpt = DEFAULT_WAY, wheel_second: WheelOpt = False,
                json_out: opt.AsJson = False) -> None:
    """Set seven cards the house way."""
    seven = validate_seven(parse_cards(cards))
    way = house_way(house_way_name)
    d = set_hand(seven, way, wheel_second)
    s = d.setting
    if json_out:
        print_json({"house_way": way.name, "front": [str(c) for c in s.front],
                    "back": [str(c) for c in s.back], "rule": d.rule,
                    "front_hand": describe(s.front_score), "back_hand": describe(s.back_score)})
        return
    console.print(f"[bold]{way.title}[/bold]: {format_cards(seven)}")
    console.print(f"  front: {format_cards(s.front)}  ({describe(s.front_score)})")
    console.print(f"  back:  {format_cards(s.back)}  ({describe(s.back_score)})")
    console.print(f"  rule:  {d.rule}")


HandsArg = Annotated[list[str], typer.Argument(help=(
    'one or more hands of seven cards, each quoted, e.g. "As Kd JK 9c 7h 5s 2d"'))]


@pai_gow_app.command("calc")
def calc_command(hands: HandsArg,
                 house_way_name: HouseWayOpt = DEFAULT_WAY, wheel_second: WheelOpt = False,
                 commission: CommissionOpt = "5%",
                 direct: Annotated[bool, typer.Option("--direct", help=(
                     "set every dealer hand again instead of reading the cached outcome "
                     "table (8-15 s a hand, nothing cached)"))] = False,
                 json_out: opt.AsJson = False) -> None:
    """Exact EV of every legal setting against the dealer's house way (all C(46,7) hands).

    The first use of a house way counts its outcome table once (about a minute on two cores,
    617 MB in the user cache directory); later hands take well under a second each. Several
    hands in one command share the start-up (JSON: a list, one object a hand)."""
    sevens = [validate_seven(parse_cards(cards)) for cards in hands]  # all checked first
    way = house_way(house_way_name)
    rate = parse_rate(commission)
    if not 0 <= rate <= parse_rate("5%"):
        raise RulesError(f"commission {commission} must be between 0 and 5%")
    outcomes = None if direct else outcome_table(way, wheel_second, progress=lambda total: (
        progress_bar(True, total, "counting the house way's outcome table (once)")))
    answers = []
    for seven in sevens:
        start = time.perf_counter()
        result = calculate(seven, way, rate, wheel_second, table=outcomes, direct=direct)
        elapsed = time.perf_counter() - start
        rows = sorted(result.settings, key=lambda r: r.ev, reverse=True)
        if json_out:
            answers.append(_calc_json(result, rows, way.name, rate, elapsed))
        else:
            _print_calc(result, rows, way.title, elapsed)
    if json_out:
        print_json(answers[0] if len(answers) == 1 else answers)


def _calc_json(result: CalcResult, rows: list[SettingResult], way: str, rate: Fraction,
               elapsed: float) -> dict[str, Any]:
    return {
        "cards": [str(c) for c in result.cards], "house_way": way,
        "commission": f"{rate.numerator}/{rate.denominator}",
        "dealer_hands": result.dealer_hands,
        "settings": [{
            "front": [str(c) for c in r.setting.front],
            "back": [str(c) for c in r.setting.back],
            "win": r.tally.win, "push": r.tally.push, "loss": r.tally.loss,
            "ev": f"{r.ev.numerator}/{r.ev.denominator}", "ev_decimal": f"{float(r.ev):.6f}",
            "optimal": r.optimal, "house_way": r.house_way} for r in rows],
        "seconds": round(elapsed, 2)}


def _print_calc(result: CalcResult, rows: list[SettingResult], way: str, elapsed: float) -> None:
    table = Table(title=f"{format_cards(result.cards)} vs dealer's {way}, "
                        f"{result.dealer_hands:,} dealer hands")
    for col in ("front", "back", "win", "push", "loss", "EV", ""):
        table.add_column(col, justify="right" if col in ("win", "push", "loss", "EV") else "left")
    for r in rows:
        marks = " ".join(m for m, on in (("optimal", r.optimal), ("house way", r.house_way)) if on)
        t = r.tally
        table.add_row(format_cards(r.setting.front), format_cards(r.setting.back),
                      f"{t.win / t.total:.4%}", f"{t.push / t.total:.4%}",
                      f"{t.loss / t.total:.4%}",
                      f"{float(r.ev):+.5f}", marks)
    console.print(table)
    console.print(f"exact over all dealer hands in {elapsed:.1f} s")


@simulate_app.command("pai-gow", short_help=summary("simulate pai-gow"))
def simulate_command(
    hands: Annotated[int, typer.Option(help="player hands to deal")] = 1_000_000,
    house_way_name: HouseWayOpt = DEFAULT_WAY,
    player_strategy: Annotated[str, typer.Option(help=(
        "house-way, or optimal: EV-maximising against the house way's full-deck "
        "distribution (counted once, about a minute, then cached)"))] = "house-way",
    commission: CommissionOpt = "5%",
    wheel_second: WheelOpt = False,
    seed: opt.RunSeed = None,
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    banking: Annotated[bool, typer.Option(help="the player banks every other hand")] = False,
    other_players: Annotated[int, typer.Option(help=(
        "with --banking: other players (0-5, house way, one unit each) against the bank"))] = 0,
    json_out: opt.AsJson = False,
) -> None:
    """Monte Carlo of the player's setting against the dealer's house way, 95% intervals."""
    from cardroom.analysis.pai_gow_sim import simulate

    rate = parse_rate(commission)
    if not 0 <= rate <= parse_rate("5%"):
        raise RulesError(f"commission {commission} must be between 0 and 5%")
    way = house_way(house_way_name)
    used_seed = seed_or_draw(seed)
    report = simulate(hands, used_seed, way, rate, wheel_second,
                      local_workers(workers, scheduler), scheduler,
                      progress=not json_out, banking=banking, strategy=player_strategy,
                      others=other_players)
    if json_out:
        print_json(report.to_json())
        return
    table = Table(title=f"Pai Gow, player {player_strategy} vs dealer {way.title}, "
                        f"{hands:,} hands, seed {used_seed}")
    table.add_column("")
    table.add_column("observed", justify="right")
    table.add_column("95% interval", justify="right")
    rows = [("win", report.rate(report.player.win)), ("push", report.rate(report.player.push)),
            ("loss", report.rate(report.player.loss))]
    if report.banked:
        rows += [("edge, house banks", report.player_edge),
                 ("bank result/hand", report.bank_result),
                 ("cost per hand", report.house_edge)]
    else:
        rows.append(("house edge", report.house_edge))
    hw, gain = report.house_way_edge, report.optimal_gain
    if hw is not None and gain is not None:
        rows += [("house way, same hands", hw), ("optimal - house way", gain)]
    for name, (v, h) in rows:
        table.add_row(name, f"{v:.4%}", f"{v - h:.4%} .. {v + h:.4%}")
    console.print(table)
    if report.banked:
        n = report.bank.total
        console.print(f"as banker ({report.banked:,} hands, {report.others} other players and "
                      f"the house dealer), per opponent hand: bank won {report.bank.win / n:.4%}, "
                      f"push {report.bank.push / n:.4%}, lost {report.bank.loss / n:.4%}")


@play_app.command("pai-gow", short_help=summary("play pai-gow"))
def play_command(
    buy_in: Annotated[str, typer.Option(help="chips to buy, in dollars")] = "500",
    wager: Annotated[str, typer.Option(help="wager per hand, in dollars")] = "25",
    rules: opt.RulesFile = None,
    house_way_name: Annotated[str | None, typer.Option(
        "--house-way", help="house way (default: the rules' house way)")] = None,
    seed: opt.ShuffleSeed = None,
) -> None:
    """Play Pai Gow Poker against the house dealer: set your hand or ask for the house way."""
    from cardroom.games.pai_gow.rules import PaiGowRules
    from cardroom.games.pai_gow.table import PaiGowTable
    from cardroom.shoe import SeededRandom, SystemRandom

    settings = rules_with_overrides(PaiGowRules, rules, house_way=house_way_name)
    source = SystemRandom() if seed is None else SeededRandom(seed)
    table = PaiGowTable(settings)
    table.sit(1, parse_money(buy_in))
    stake = parse_money(wager)
    way = table.house_way
    console.print(f"[bold]Pai Gow Poker[/bold]: house way {way.title}, commission "
                  f"{float(settings.commission) * 100:g}%. Type the two cards for your front "
                  "hand (e.g. 'Kd 9c'), 'h' for the house way, 'q' to quit.")
    while True:
        console.print(f"balance: [bold]{format_money(table.chips[1])}[/bold]")
        try:
            table.place_wager(1, stake)
        except CardroomError as exc:
            console.print(flagged("", exc), highlight=False)
            return
        table.deal(source)
        console.print(f"your cards: [bold]{format_cards(table.hands[1])}[/bold]")
        while True:
            line = typer.prompt("front", default="h").strip()
            if line.lower() in ("q", "quit", "exit"):
                return
            try:
                if line.lower() in ("h", "house", "house-way"):
                    event = table.ask_house_way(1)
                else:
                    event = table.set_hand(1, parse_cards(line))
                break
            except CardroomError as exc:
                console.print(flagged("", exc), highlight=False)
        s = event.setting
        foul = " [red]FOUL[/red]" if event.foul else ""
        console.print(f"you:    front {format_cards(s.front)} ({describe(s.front_score)}), "
                      f"back {format_cards(s.back)} ({describe(s.back_score)}){foul}")
        settled = table.settle()
        d = settled.banker_setting
        console.print(f"dealer: front {format_cards(d.front)} ({describe(d.front_score)}), "
                      f"back {format_cards(d.back)} ({describe(d.back_score)})")
        r = settled.results[0]
        commission = f", commission {format_money(r.commission)}" if r.commission else ""
        console.print(f"[bold]{r.outcome.value}[/bold]: {format_money(r.net)}{commission}")
        table.next_hand()


def dossier(run: DossierRun) -> Callable[[], Dossier]:
    """`report math pai-gow`: the simulated figures, `--hands` a figure (default
    `DOSSIER_HANDS`), seeded."""
    from cardroom.analysis.parallel import check_count
    from cardroom.games.pai_gow.rules import PaiGowRules

    run.only("commission", "hands")
    used_seed = seed_or_draw(run.seed)
    hands = run.given["hands"]
    n = check_count(opt.DOSSIER_HANDS if hands is None else hands, "hands", 2)
    rules = rules_with_overrides(PaiGowRules, run.rules, commission=run.given["commission"])

    def build() -> Dossier:
        from cardroom.analysis.dossier import pai_gow

        return pai_gow.build(rules, n, used_seed, run.n_workers, run.scheduler,
                             progress=run.progress,
                             origin=run.origin(("hands", n), ("seed", used_seed)))
    return build
