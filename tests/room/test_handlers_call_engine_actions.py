"""Handlers call engine actions only (issue 24): a room table (`room/play/*_live.py`) never runs an
engine's `verify_x` or `can_x` and then its action `x` in one function (the action checks
itself, and a refusal rolls the table back: `LiveTable.transaction`; a step the engine has just
said is legal runs `engine.unchecked`), and never reads a private field of an object other
than itself (an engine's `_x`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardroom.room

LIVE = sorted((Path(cardroom.room.__file__).parent / "play").glob("*_live.py"))


def functions(tree: ast.AST) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


def called(fn: ast.FunctionDef) -> set[str]:
    return {n.func.attr for n in ast.walk(fn)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}


def test_every_live_table_is_checked() -> None:
    assert {p.stem for p in LIVE} >= {"baccarat_live", "pai_gow_live", "pan_live",
                                       "super_pan_9_live"}


def checked_twice(source: str) -> list[str]:
    """The functions of `source` that call a `verify_x` or `can_x` and the action `x`."""
    return [f"{fn.name}: {name}" for fn in functions(ast.parse(source))
            for name in called(fn)
            if name.startswith(("verify_", "can_")) and name.split("_", 1)[1] in called(fn)]


def test_a_check_then_the_action_is_found() -> None:
    """The check itself fails where it should (a test that cannot fail checks nothing)."""
    assert checked_twice("def f(e):\n    if e.can_settle():\n        e.settle()\n") == [
        "f: can_settle"]
    assert checked_twice("def f(e):\n    e.verify_bank(1)\n    e.bank(1)\n") == [
        "f: verify_bank"]
    assert checked_twice("def f(e):\n    if e.can_settle():\n        unchecked(e.settle)\n"
                         ) == []


@pytest.mark.parametrize("path", LIVE, ids=lambda p: p.stem)
def test_no_handler_verifies_then_does(path: Path) -> None:
    twice = checked_twice(path.read_text(encoding="utf-8"))
    assert not twice, f"{path.name} checks, then runs the action that checks again: {twice}"


@pytest.mark.parametrize("path", LIVE, ids=lambda p: p.stem)
def test_no_private_field_of_another_object(path: Path) -> None:
    private = [f"line {n.lineno}: {ast.unparse(n)}"
               for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(n, ast.Attribute) and n.attr.startswith("_")
               and not n.attr.startswith("__")
               and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
    assert not private, f"{path.name} reads private fields: {private}"
