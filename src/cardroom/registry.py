"""The one game registry (issue 24): every game the room and the command line play, registered
once, and read by every generic module (replay, tables, the live room, the protocol, the posted
rules, the floor page, the command line). No generic module names a game.

An entry names each of the game's parts by reference (``"module:attribute"``), loaded only when
a caller needs that part: the base layer keeps the list without importing a game, a command
line loads only its own game's modules, and a part may live in whichever layer it belongs to
(the engine and its replay in `games/`, the live table and its posted rules in `room/`, the
commands in `cli/`). Adding a game is one entry in `GAMES` (docs/architecture.md, "Adding a
game"); a test registers a game of its own for a while with `registered`.

>>> [g.name for g in games()]
['baccarat', 'super-pan-9', 'pai-gow', 'pan']
>>> game("pai-gow").title
'Pai Gow Poker'
>>> play_kinds()
('pan',)
>>> fees_name()
'Pan fees'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from cardroom.errors import CardroomError


@dataclass(frozen=True)
class Game:
    """One game's parts. Each reference is ``"module:attribute"``."""

    name: str
    """The game's name in table rows, hand histories and URLs ("pai-gow")."""
    title: str
    """The game's name for people ("Pai Gow Poker")."""
    rules: str
    """The house-rules model a table's rules are read as (a `houserules.HouseRules`)."""
    replay: str
    """The replay adapter (a `history.GameReplay`), which drives the engine."""
    live: str
    """The room's live table (a `room.live_table.LiveTable`): its messages, its snapshot
    model, its hand records and its floor hooks are its class attributes and methods."""
    posted: str
    """The posted-rules sections: ``f(rules, jackpot, maximum) -> list[posted_rules.Section]``."""
    recall: str | None = None
    """How its recorded hands read on the recall page (a `room.recall.RecallView`; None: the
    default view)."""
    dossier: str | None = None
    """Its math dossier for `cardroom report math GAME`: ``f(run) -> build``, which checks the
    settings given (`cli.report.DossierRun`) and returns the builder of the `Dossier`."""
    dossier_options: tuple[tuple[str, str], ...] = ()
    """The `report math` options its dossier takes that not every dossier does, each with its
    help for this game (``("coups", "Baccarat: coups the card counter sees (default
    {coups:,})")``: `{coups}` and `{hands}` are the command line's default run sizes); the
    command's help joins them, game by game."""
    commands: tuple[str, ...] = ()
    """The command-line modules that add the game's commands (`cardroom.cli.apps`)."""
    progressive: str | None = None
    """The room's progressive jackpot its wager feeds (a `room.progressive_terms.Progressive`:
    the pool, its floors, its break-even, its W-2G words); None: none."""
    fees: str | None = None
    """The fees the house collects at its tables, for the jackpot page's list: ``f(conn) ->
    lines`` (day, table_id, kind, count, cents), newest day first; None: no fees."""
    fees_name: str | None = None
    """Its fees' name for people, in the reports' columns and on the audit page ("Pan
    fees")."""
    play_kinds: tuple[str, ...] = ()
    """The ledger kinds of the game's own play beyond the shared ones (`wager`, `settle`,
    `void`...): postings that move a player's chips into play (Pan's steps: `pan`)."""
    lines: tuple[tuple[str, str], ...] = ()
    """Its command lines and their one-line help, ``("analyze baccarat", "Exact ...")``: the
    command line's table of contents (`cli.catalog`), which lists them without importing the
    game and imports its `commands` only to run one."""


def builtin(name: str, title: str, package: str, rules: str, live: str,
            lines: dict[str, str], progressive: bool = False,
            play_kinds: tuple[str, ...] = (), fees: str | None = None,
            fees_name: str | None = None, dossier_options: dict[str, str] | None = None
            ) -> Game:
    """A game of this project, its parts where the project keeps them: the engine's package
    `games/<package>/` (`rules` its house-rules model there, ``"module:Class"``; the replay
    adapter `replay.Replay`), the live table `room/play/<package>_live.py` (class `live`), the
    posted rules and recall view `room/play/<package>_pages.py`, the commands and the dossier
    `cli/<package>.py`; `lines` its commands' one-line help, by group ("analyze": the help of
    `cardroom analyze <name>`; "": a group of its own, `cardroom <name>`); a game with a
    `progressive` keeps its terms in `room/play/<package>_progressive.py` (`PROGRESSIVE`); `fees`
    names its fee lines in `room/money/<package>_<fees>` (``"module:function"``)."""
    return Game(name, title, rules=f"cardroom.games.{package}.{rules}",
                replay=f"cardroom.games.{package}.replay:Replay",
                live=f"cardroom.room.play.{package}_live:{live}",
                posted=f"cardroom.room.play.{package}_pages:sections",
                recall=f"cardroom.room.play.{package}_pages:Recall",
                dossier=f"cardroom.cli.{package}:dossier",
                dossier_options=tuple((dossier_options or {}).items()),
                commands=(f"cardroom.cli.{package}",),
                progressive=(f"cardroom.room.play.{package}_progressive:PROGRESSIVE" if progressive
                             else None),
                play_kinds=play_kinds,
                fees=fees and f"cardroom.room.money.{package}_{fees}", fees_name=fees_name,
                lines=tuple((f"{group} {name}".strip(), text) for group, text in lines.items()))


GAMES: list[Game] = [
    builtin("baccarat", "Mini-Baccarat", "baccarat", "rules:BaccaratRules", "BaccaratLive", {
        "analyze": "Exact probabilities and house edges of every wager, by enumeration of the "
                   "shoe.",
        "simulate": "Deal real shuffled shoes to the cut card: every wager's observed house "
                    "edge with a 95% interval.",
        "play": "Play Mini-Baccarat with the Super-9 wagers at a table of your own."},
        progressive=True, dossier_options={
            "paytable": "Baccarat: Super-9 pay table 1-3",
            "jackpot_seed": "Baccarat: jackpot seed in dollars",
            "jackpot_contribution": "Baccarat: share of each $1 added to the meter, e.g. 0.20",
            "coups": "Baccarat: coups the card counter sees (default {coups:,})"}),
    builtin("super-pan-9", "Super Pan 9", "super_pan_9", "rules:SuperPan9Rules",
            "SuperPan9Live", {
                "analyze": "Exact optimal strategy and house edges, by enumeration of the "
                           "finite shoe.",
                "simulate": "Monte Carlo over real shuffled shoes, with 95% intervals beside "
                            "the exact values.",
                "play": "Sit at a Super Pan 9 table with computer players."}),
    builtin("pai-gow", "Pai Gow Poker", "pai_gow", "limits:PaiGowTableRules", "PaiGowLive", {
        "": "Pai Gow Poker: house-way setting and the exact calculator.",
        "simulate": "Monte Carlo of the player's setting against the dealer's house way, 95% "
                    "intervals.",
        "play": "Play Pai Gow Poker against the house dealer."},
        dossier_options={"hands": "Pai Gow: hands per simulated figure (default {hands:,})"}),
    builtin("pan", "Panguingue (Pan)", "pan", "rules:PanRules", "PanLive", {
        "simulate": "Bots play N hands: hands per second, average length, conditions made, "
                    "chips won.",
        "play": "Play Pan against computer players in the terminal."}, play_kinds=("pan",),
        fees="fees:fees_collected", fees_name="Pan fees", dossier_options={
            "hands": "Pan: hands per seat count (default 400)",
            "hands_per_hour": "Pan: hands an hour assumed for the fee income (default 20)"}),
]
"""The registry list: every game, in the order the pages and the help list them."""


def games() -> list[Game]:
    return list(GAMES)


def names() -> list[str]:
    return [g.name for g in GAMES]


def find(name: str) -> Game | None:
    """The game of that name, or None."""
    return next((g for g in GAMES if g.name == name), None)


def game(name: str) -> Game:
    """The game of that name; an unknown one is refused with the games there are."""
    found = find(name)
    if found is None:
        raise CardroomError(f"unknown game {name!r}: choose one of {', '.join(names())}")
    return found


def play_kinds() -> tuple[str, ...]:
    """Every game's own ledger kinds of play (`Game.play_kinds`), in the registry's order."""
    return tuple(kind for g in GAMES for kind in g.play_kinds)


def fees_name() -> str:
    """The name people give the fees the games collect, in the reports' columns ("Pan fees";
    several games' names joined by " and "; no game's: "fees")."""
    return " and ".join(g.fees_name for g in GAMES if g.fees_name) or "fees"


def title(name: str) -> str:
    """The game's name for people (an unknown name as it is)."""
    found = find(name)
    return name if found is None else found.title


def load(reference: str) -> object:
    """The object a ``"module:attribute"`` reference names, its module imported now."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@contextmanager
def registered(extra: Game) -> Iterator[Game]:
    """`extra` registered while the block runs (a test's own game), then removed."""
    if find(extra.name) is not None:
        raise CardroomError(f"a game named {extra.name!r} is already registered")
    GAMES.append(extra)
    try:
        yield extra
    finally:
        GAMES.remove(extra)
