"""Handlers call engine actions only (issue 24): a room table (`room/play/*_live.py`) never runs an
engine's `verify_x` and then its action `x` in one function (the action checks itself, and a
refusal rolls the table back: `LiveTable.transaction`), and never reads a private field of
an object other than itself (an engine's `_x`)."""

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


@pytest.mark.parametrize("path", LIVE, ids=lambda p: p.stem)
def test_no_handler_verifies_then_does(path: Path) -> None:
    twice = [f"{fn.name}: verify_{name[len('verify_'):]}"
             for fn in functions(ast.parse(path.read_text(encoding="utf-8")))
             for name in called(fn)
             if name.startswith("verify_") and name[len("verify_"):] in called(fn)]
    assert not twice, f"{path.name} verifies, then runs the action that verifies: {twice}"


@pytest.mark.parametrize("path", LIVE, ids=lambda p: p.stem)
def test_no_private_field_of_another_object(path: Path) -> None:
    private = [f"line {n.lineno}: {ast.unparse(n)}"
               for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(n, ast.Attribute) and n.attr.startswith("_")
               and not n.attr.startswith("__")
               and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
    assert not private, f"{path.name} reads private fields: {private}"
