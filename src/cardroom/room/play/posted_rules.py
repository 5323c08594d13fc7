"""The posted rules of a table (WAC 230-15-060, and the game documents: a house way and a
commission "clearly posted", a jackpot "conspicuously posted"): generated from the table's
house-rules file and the games' own rule tables, so what is posted is what is played. Each
game writes its own sections (its registry entry's `posted`, e.g. `room/play/pai_gow_pages.py`);
the sections every table shares are here. Sections are plain sentences and small tables; the
server renders them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from cardroom import registry
from cardroom.houserules import HouseRules, TurnTimerRules
from cardroom.money import Cents, format_money, format_rate
from cardroom.profile import profile_in_force
from cardroom.room.play.tables import TableRow, parse_rules


@dataclass(frozen=True)
class Section:
    id: str
    heading: str
    lines: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    """A small table: the first row is its header."""


@dataclass(frozen=True)
class PostedRules:
    table: str
    game: str
    title: str
    sections: tuple[Section, ...] = field(default=())


def commission_words(rate: Fraction, chip_cents: int, what: str) -> str:
    """The commission and its rounding to the table's smallest chip, as posted (rounding is
    always down, the fraction waived: docs/house-rules.md explains why no other rounding
    stands)."""
    chips = f"Wagers are placed in whole {format_money(chip_cents)} chips."
    if rate == 0:
        return f"No commission is charged on {what}. {chips}"
    unit = ("the cent" if chip_cents == 1
            else f"the table's smallest chip, {format_money(chip_cents)}")
    return (f"A commission of {format_rate(rate)} is charged on {what}, rounded down to "
            f"{unit}; the house waives the rest, so it is never more than "
            f"{format_rate(rate)}. {chips}")


def _modifications(rules: HouseRules) -> Section:
    if not rules.modifications:
        return Section("modifications", "Changes from the game's approved rules",
                       ("This table plays the game's rules as approved, with no "
                        "modification.",))
    return Section("modifications", "Changes from the game's approved rules", tuple(
        f"{m.description} (instead of {m.clause}; recorded in the internal controls as "
        f"\u201c{m.id}\u201d)." for m in rules.modifications))


def _law(rules: HouseRules) -> Section:
    """The caps of the regulatory profile that govern this table, each once, with its section."""
    profile = profile_in_force()
    lines = dict.fromkeys(f"{a.rule[0].upper()}{a.rule[1:]} ({a.cap.section})."
                          for a in profile.applying(rules.regulated()))
    return Section("law", f"Limits set by law ({profile.title})", tuple(lines))


DISPUTES = Section("disputes", "Questions and disputes", (
    "If you disagree with how a hand was dealt, played or paid, say so at once and ask for "
    "the floor supervisor before the next hand begins; the floor decides from the rules "
    "posted here.",
    "Every hand is recorded move by move: the floor (and you, for your own hands, under "
    "Hand history) can replay it exactly as it was dealt.",
    "If you are not satisfied with the floor's decision, ask for the card room manager. You "
    "may also contact the Washington State Gambling Commission.",
    "Card room employees do not play at the tables.",
))


def decks_words(decks: int) -> str:
    return f"{decks} deck{'s' if decks != 1 else ''}"


def turns_section(r: TurnTimerRules, default: str) -> Section:
    """The action timer (issue 23): how long a turn lasts, what is done for a player who
    does not act, and when they sit out."""
    misses = r.misses_to_sit_out
    return Section("turns", "Time to act", (
        f"On your turn you have {r.turn_seconds} seconds to act; then {default}. The dealer "
        "or the floor may do the same for a player who has left the table.",
        f"After {misses} missed turn{'s' if misses != 1 else ''} in a row you sit out: no hand "
        "is dealt to you until you say you are back."))


def posted_rules(row: TableRow, jackpot: Cents | None = None, maximum: Cents = 0
                 ) -> PostedRules:
    """The table's posted rules, from its house rules as the room stored them: the game's own
    sections (its registry entry's `posted`, given the table's progressive pool's posted
    amount and maximum prize, 0: none, where it has one), then the law's, the modifications
    and how disputes are settled."""
    rules = parse_rules(row.game, row.rules)
    game = registry.game(row.game)
    sections = registry.load(game.posted)
    assert callable(sections)
    body: list[Section] = sections(rules, jackpot, maximum)
    return PostedRules(row.name, row.game, game.title,
                       (*body, _law(rules), _modifications(rules), DISPUTES))


def limits_line(row: TableRow) -> str:
    """The first line of the table's posted limits, as the lobby and the pit screen show a
    table's limits in brief."""
    return next(s.lines[0] for s in posted_rules(row).sections if s.id == "limits")
