"""The Panguingue dossier: the exact probability of each condition in the first ten cards, the
chips that change hands per hand by seat count (bot simulation, labelled, 95% intervals), and
the house's fee income per table hour under each fee type of WAC 230-15-080."""

from __future__ import annotations

from typing import Any

from cardroom.analysis.dossier.charts import bar_chart, line_chart
from cardroom.analysis.dossier.model import Dossier, Section, TableData
from cardroom.analysis.dossier.provenance import Origin, stamp
from cardroom.analysis.pan_conditions import condition_odds
from cardroom.analysis.pan_sim import SimReport, simulate
from cardroom.analysis.wager import frac
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.rules import HAND_SIZE, PanRules
from cardroom.money import format_money

SEATS = tuple(range(2, 9))
"""Seat counts simulated: two to eight players."""
DOSSIER_HANDS = 100_000
"""Hands simulated per seat count: issue 24's 10^5, on the compiled hand (`games.pan.kernel`,
about 2,000-5,000 hands a CPU-second by seat count), a few minutes of CPU for the seven."""
HANDS_PER_HOUR = 20
"""The pace assumed for the fee income (no rule or source states it; `--hands-per-hour`)."""
TIME_FEE_CENTS_PER_HOUR = 1_000
"""WAC 230-15-080, period of time: at most $10 an hour a player."""
HAND_FEE_CENTS = 100
"""WAC 230-15-080, per hand: at most $1 a hand a player."""
RAKE_PERCENT = 10
"""WAC 230-15-080, rake: at most 10% of the total wagers of a hand."""


def build(rules: PanRules, hands: int, seed: int, hands_per_hour: int = HANDS_PER_HOUR,
          workers: int = 1, scheduler: str | None = None, progress: bool = False,
          origin: Origin | None = None) -> Dossier:
    """`origin`: the command line that asked for it (None: a Python call)."""
    data: dict[str, Any] = {"game": "pan", "rules": rules.model_dump(mode="json"),
                            "hands_per_seat_count": hands, "seed": seed,
                            "hands_per_hour": hands_per_hour}
    reports = [simulate(hands, n, seed, rules=rules, workers=workers, scheduler=scheduler,
                        progress=progress) for n in SEATS]
    sections = (
        _conditions_section(rules, data),
        _collections_section(reports, data),
        _fees_section(rules, reports, hands_per_hour, data),
    )
    pack = len(pan_pack(rules))
    cover = (
        ("Game", "Panguingue (Washington single condition)"),
        ("Pack", f"{rules.packs} packs of 40 cards (no 8s, 9s, 10s): {pack} cards"
                 f"{', one pack of spades removed' if rules.remove_one_spade_pack else ''}"),
        ("Chip", f"{format_money(rules.chip_cents)}; outs {rules.outs_chips} chips; spades "
                 f"{'pay double' if rules.spades_double else 'pay as other suits'}"),
        ("Method", "conditions in the first ten cards: exact (integer counts over the pack); "
                   f"collections: SIMULATION, {hands:,} hands per seat count (seed {seed}), "
                   "sound bots at every seat, 95% intervals"),
        ("Fee income", f"assumes {hands_per_hour} hands an hour (--hands-per-hour)"),
    )
    return Dossier("pan", "Math dossier: Panguingue", cover, sections,
                   stamp("pan", origin, (("the bots' hands at every seat count", seed),)), data)


def _conditions_section(rules: PanRules, data: dict[str, Any]) -> Section:
    odds = condition_odds(pan_pack(rules))
    data["conditions_in_first_ten"] = [
        {"condition": o.label, "probability": float(o.probability),
         "probability_exact": frac(o.probability)} for o in odds]
    rows = tuple((o.label.replace("_", " "), f"{float(o.probability):.6f}",
                  f"1 in {float(1 / o.probability):,.1f}") for o in odds)
    chart = bar_chart("Probability of holding each condition in the first ten cards",
                      "probability (%)", [o.label.replace("_", " ") for o in odds],
                      [("exact", [float(o.probability) * 100 for o in odds])], slant=True)
    return Section("Conditions in the first ten cards (exact)", (
        f"The chance that the {HAND_SIZE} cards a player is dealt (drawn without replacement "
        "from the whole pack) hold at least one of each condition of data/conditions.toml, "
        "its spades form, and any condition at all. Exact: every hand is counted once "
        "(integer counts over the pack's composition, exact fractions in the JSON); three "
        "cards that make a meld carrying the condition are found by the game's own meld "
        "rules, so no condition is simulated.",), (
        TableData("Conditions in the first ten cards", ("condition", "probability",
                                                        "frequency"), rows),), (chart,))


def _ci(report: SimReport, heading: str) -> str:
    mean, half = report.paid_per_hand(heading)
    return f"{mean:.2f} ± {half:.2f}"


def _collections_section(reports: list[SimReport], data: dict[str, Any]) -> Section:
    rows = []
    entries = []
    for r in reports:
        rows.append((str(r.players), _ci(r, "tops"), _ci(r, "conditions"), _ci(r, "outs"),
                     _ci(r, "wagers")))
        entries.append({"seats": r.players, "hands": r.hands, **{
            k: {"chips_per_hand": m, "ci95_half_width": h}
            for k in ("tops", "conditions", "outs", "wagers") for m, h in [r.paid_per_hand(k)]}})
    data["collections_by_seats"] = entries
    series = [(name, [r.players for r in reports],
               [r.paid_per_hand(k)[0] for r in reports])
              for name, k in (("condition pays", "conditions"), ("outs", "outs"),
                              ("wagers (all)", "wagers"))]
    chart = line_chart("Chips that change hands per hand (simulation)", "seats",
                       "chips per hand", series)
    return Section("Collections per hand by seat count (simulation)", (
        "SIMULATION: sound bots at every seat, 40 chips each at the start of every hand, the "
        "deal rotating; 95% intervals (normal approximation over hands). Chips per hand for "
        "the whole table: the tops (one a player), the condition pays collected (after table "
        "stakes), the outs (a foul hand's value plus 2 counted with them) and their sum, the "
        "wagers of the hand.",), (
        TableData("Chips per hand by seat count (95%)", (
            "seats", "tops", "condition pays", "outs", "wagers"), tuple(rows)),), (chart,))


def fee_income_cents(players: int, hands_per_hour: int, wagers_per_hand: float,
                     chip_cents: int) -> dict[str, float]:
    """The most the house takes in an hour at one table under each WAC 230-15-080 fee type."""
    return {"period of time": players * TIME_FEE_CENTS_PER_HOUR,
            "per hand": players * HAND_FEE_CENTS * hands_per_hour,
            "rake": wagers_per_hand * chip_cents * hands_per_hour * RAKE_PERCENT / 100}


def _fees_section(rules: PanRules, reports: list[SimReport], hands_per_hour: int,
                  data: dict[str, Any]) -> Section:
    rows = []
    entries = []
    for r in reports:
        mean, half = r.paid_per_hand("wagers")
        fees = fee_income_cents(r.players, hands_per_hour, mean, rules.chip_cents)
        rake_half = fee_income_cents(r.players, hands_per_hour, half, rules.chip_cents)["rake"]
        rows.append((str(r.players), format_money(round(fees["period of time"])),
                     format_money(round(fees["per hand"])),
                     f"{format_money(round(fees['rake']))} ± {format_money(round(rake_half))}"))
        entries.append({"seats": r.players, **{k: v for k, v in fees.items()},
                        "rake_ci95_half_width": rake_half})
    data["fee_income_cents_per_hour"] = entries
    chart = bar_chart("House fee income per table hour (at the maximum of each fee type)",
                      "dollars per hour", [str(r.players) for r in reports],
                      [(k, [e[k] / 100 for e in entries])
                       for k in ("period of time", "per hand", "rake")])
    return Section("The house's fee income per table hour", (
        "Pan is not banked by the house: its income is a fee, one type at a table at a time "
        f"(WAC 230-15-080), each here at its maximum: a period-of-time fee of "
        f"{format_money(TIME_FEE_CENTS_PER_HOUR)} an hour a player, a per-hand fee of "
        f"{format_money(HAND_FEE_CENTS)} a hand a player, or a rake of {RAKE_PERCENT}% of the "
        "wagers of a hand (the tops, condition pays and outs of the simulation above, at "
        f"{format_money(rules.chip_cents)} a chip; its interval is the simulation's).",
        f"ASSUMPTION: {hands_per_hour} hands an hour at every seat count (no rule states the "
        "pace; pass --hands-per-hour). Every seat is taken and plays every hand.",), (
        TableData("Fee income per table hour by seat count", (
            "seats", "period of time", "per hand", "rake (95%)"), tuple(rows)),), (chart,))
