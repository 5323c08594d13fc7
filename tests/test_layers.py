"""Layers hold: no module of `cardroom` imports a module of a higher layer.

The layers (docs/architecture.md), lowest first: the base modules (cards, shoe, money,
houserules, errors, engine, history, data), then `games`, `analysis`, `room`, and on top
`server` and `cli`. Every import in every module counts, at any depth: inside functions and under
`TYPE_CHECKING` too, since a deferred import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardroom

SRC = Path(cardroom.__file__).parent

LAYER = {"games": 1, "analysis": 2, "room": 3, "server": 4, "cli": 4}
"""Top-level packages above the base; any other module of `cardroom` is base (layer 0)."""

ROOM_PARTS = ["storage", "people", "money", "compliance", "play", "books", "trust", "views"]
"""The room's sub-packages, lowest first (docs/architecture.md): a module of one imports only its
own part's modules and those of the parts before it; `room.py`, `backup.py` and the migrations,
at the room's top, may import any part."""

CLI_STARTS_SERVER = {"cardroom.cli.room"}
"""`cardroom serve` (and its frame check) starts the web server: the one place the CLI may
import `server`. The server never imports the CLI."""


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> list[str]:
    """Every `cardroom` module that `path` imports, relative imports resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                found.append(node.module)
    return [m for m in found if m == "cardroom" or m.startswith("cardroom.")]


def layer_of(module: str) -> tuple[str, int]:
    top = module.split(".")[1] if "." in module else ""
    return top, LAYER.get(top, 0)


def upward_imports(path: Path) -> list[str]:
    name = module_name(path)
    top, level = layer_of(name)
    bad = []
    for target in imported(path):
        target_top, target_level = layer_of(target)
        sideways = target_level == level and target_top != top and level == LAYER["cli"]
        allowed = top == "cli" and target_top == "server" and name in CLI_STARTS_SERVER
        if (target_level > level or sideways) and not allowed:
            bad.append(f"{name} imports {target}")
    return bad


MODULES = sorted(SRC.rglob("*.py"))


def test_the_walk_sees_every_layer() -> None:
    """A guard on the test itself: it reads modules of every layer, deferred imports too."""
    tops = {layer_of(module_name(p))[0] for p in MODULES}
    assert {"", *LAYER} <= tops
    cli_room = imported(SRC / "cli" / "room.py")
    assert "cardroom.server.app" in cli_room  # imported inside the serve command


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_module_imports_a_higher_layer(path: Path) -> None:
    assert upward_imports(path) == []


def room_part(module: str) -> int:
    """A room module's rank among `ROOM_PARTS`; the room's top (`room.room`, `room.backup`, the
    migrations) ranks above every part, and a module outside `room` ranks -1."""
    parts = module.split(".")
    if parts[:2] != ["cardroom", "room"] or len(parts) < 3:
        return -1
    return ROOM_PARTS.index(parts[2]) if parts[2] in ROOM_PARTS else len(ROOM_PARTS)


ROOM_MODULES = [p for p in MODULES if room_part(module_name(p)) >= 0]


def test_every_room_module_sits_in_a_part_or_at_the_top() -> None:
    """The room is grouped into the parts that say what they hold (issue 24): no flat module
    other than the room itself and its backup."""
    flat = {module_name(p) for p in ROOM_MODULES if room_part(module_name(p)) == len(ROOM_PARTS)
            and "migrations" not in module_name(p)}
    assert flat == {"cardroom.room.room", "cardroom.room.backup"}


@pytest.mark.parametrize("path", ROOM_MODULES, ids=lambda p: module_name(p))
def test_no_room_module_imports_a_later_part(path: Path) -> None:
    rank = room_part(module_name(path))
    later = [t for t in imported(path) if room_part(t) > rank]
    assert later == []
