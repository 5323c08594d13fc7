"""Issue 24, "no generic module names a game": the modules of `cardroom` outside `games/`, the
registry (`cardroom/registry.py`) and a game's own modules (a module or package named for the
game: `room/play/pan_live.py`, `analysis/dossier/baccarat.py`, `cli/pai_gow.py`) name no registered
game in their code: no import of a game's module, no identifier and no string (docstrings and
comments are prose and may give a game as an example) with a game's name in it. A generic module
reaches a game through the registry. The same holds for the server's Jinja templates: a template
not named for a game (`table_pan.html` is Pan's) names none in its text, its expressions or its
strings (its `{# comments #}` are prose); the route passes the words in (`registry.fees_name`).

A generic module may keep a game's name only where the name is stored outside the code (a
database table, a profile file's keys): those names are listed one by one in
`STORED_NAMES`, each with why; a name that leaves the code must leave the list (the test says
so), any other name is refused."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2

import cardroom
from cardroom import registry

SRC = Path(cardroom.__file__).parent
TEMPLATES = SRC / "server" / "templates"

STORED_NAMES = {
    "room/storage/schema.py": ({"pan_fee_periods"},
                       "the database table of Pan's time-fee periods (migration 0005): its "
                       "name is the books', renaming it needs a migration of every room's "
                       "database"),
    "profile.py": ({"pan_chip_value", "pan_ante", "pan_going_out", "pan_doubling"},
                   "the regulatory profile's caps that the law sets for Panguingue (WAC "
                   "230-15-080): the keys of the profile files operators write and the room "
                   "keeps (data/profiles/*.toml)"),
}
"""Generic modules that name a game only in names stored outside the code (a database table,
a profile file's keys), which stay as the data has them: exactly these names, and why."""


def words(text: str) -> list[str]:
    """The lower-case words of an identifier or a text: snake_case, CamelCase and digits
    apart ("SuperPan9Bet": super, pan, 9, bet)."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", text)]


GAME_WORDS = [words(name) for name in registry.names()]


def names_a_game(text: str) -> bool:
    w = words(text)
    return any(w[i:i + len(g)] == g for g in GAME_WORDS for i in range(len(w)))


def own_module(path: Path) -> bool:
    """`games/`, the registry, migrations, and a module (or package) named for a game."""
    rel = path.relative_to(SRC)
    return (rel.parts[0] == "games" or rel.as_posix() == "registry.py"
            or "migrations" in rel.parts
            or any(names_a_game(part) for part in rel.with_suffix("").parts))


def docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
                        and isinstance(statement.value.value, str):
                    out.add(id(statement.value))
    return out


def named(source: str) -> Iterator[str]:
    """Every identifier, imported module and string (not a docstring) that names a game."""
    tree = ast.parse(source)
    prose = docstrings(tree)
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            texts = [node.name]
        elif isinstance(node, ast.arg):
            texts = [node.arg]
        elif isinstance(node, ast.alias):
            texts = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            texts = [node.module or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in prose:
            texts = [node.value]
        yield from (t for t in texts if names_a_game(t))


def named_in_template(source: str) -> Iterator[str]:
    """Every line of a template's text, and every name and string of its expressions, that
    names a game (its comments are prose)."""
    for _, kind, value in jinja2.Environment().lex(source):
        texts = value.splitlines() if kind == "data" else \
            [value.strip("'\"")] if kind in ("name", "string") else []
        yield from (t.strip() for t in texts if names_a_game(t))


def naming_modules() -> dict[str, list[str]]:
    """Each generic module and template that names a game, with what names it."""
    modules = {path.relative_to(SRC).as_posix(): found for path in sorted(SRC.rglob("*.py"))
               if not own_module(path) and (found := list(named(path.read_text())))}
    templates = {path.relative_to(SRC).as_posix(): found
                 for path in sorted(TEMPLATES.glob("*.html"))
                 if not names_a_game(path.stem)
                 and (found := list(named_in_template(path.read_text())))}
    return modules | templates


def test_no_generic_module_names_a_game_beyond_the_known_few() -> None:
    found = naming_modules()
    new = {m: [n for n in f if n not in STORED_NAMES.get(m, (set(), ""))[0]][:3]
           for m, f in found.items()}
    new = {m: f for m, f in new.items() if f}
    assert not new, f"generic modules that name a game (read it from the registry): {new}"
    cleared = sorted(set(STORED_NAMES) - set(found))
    assert not cleared, f"these name no game any more: take them off the lists: {cleared}"
    unused = {m: sorted(names - set(found[m])) for m, (names, _) in STORED_NAMES.items()
              if m in found and names - set(found[m])}
    assert not unused, f"stored names no longer in the code: take them off: {unused}"


def test_the_modules_issue_24_counted_read_the_registry() -> None:
    """The generic modules a new game had to edit (issue 24's count of 11) name none now."""
    found = naming_modules()
    for module in ("history.py", "room/play/tables.py", "room/room.py", "room/play/protocol.py",
                   "room/play/protocol_state.py", "room/play/posted_rules.py",
                   "room/play/recall.py", "room/money/hands.py", "room/views/floor_view.py",
                   "cli/__init__.py", "cli/report.py"):
        assert module not in found, (module, found.get(module))


def test_the_registry_lists_every_game_once_and_each_part_loads() -> None:
    """The registry's examples run; each entry's parts load and agree with it (the live
    table's game and house rules are the entry's)."""
    assert doctest.testmod(registry).failed == 0
    assert len(set(registry.names())) == len(registry.names())
    for game in registry.games():
        live: Any = registry.load(game.live)
        assert live.game == game.name and live.rules_model is registry.load(game.rules)
        for part in (game.replay, game.posted, game.recall):
            assert part is not None and registry.load(part) is not None
        for module in game.commands:
            importlib.import_module(module)


def test_the_check_sees_each_way_of_naming_a_game() -> None:
    source = '''"""Baccarat in a docstring is prose."""
from cardroom.games.pai_gow.rules import X
import cardroom.room.play.pan_live
def f(pan_fees: int) -> None:
    """Pan here too is prose."""
    y = SuperPan9Table
    z = "super-pan-9"
    # baccarat in a comment
'''
    assert sorted(named(source)) == sorted([
        "cardroom.games.pai_gow.rules", "cardroom.room.play.pan_live", "pan_fees",
        "SuperPan9Table", "super-pan-9"])
    assert not list(named('expand = "panel company"\nspan = 9\n'))


def test_the_check_reads_templates() -> None:
    """A template's text, names and strings are read; its comments and tags are not."""
    source = ('{# baccarat in a comment #}<span class="panel">Pan fees</span>\n'
              '{% if game == "pai-gow" %}{{ super_pan_9 }}{% endif %}<p>{{ fees_name }}</p>')
    assert sorted(named_in_template(source)) == sorted([
        '<span class="panel">Pan fees</span>', "pai-gow", "super_pan_9"])
    assert TEMPLATES.is_dir() and "server/templates/table_pan.html" not in naming_modules()
