"""The tests' own layout holds: no module under tests/ imports a test module.

A test module imported by another is collected twice over (its tests run again, or not at all
under a different name), and its fixtures arrive by name, hidden from plain `pytest`. Shared
helpers live in modules without the `test_` prefix and shared fixtures in a `conftest.py`
(docs/architecture.md, "Tests"). Every import counts, at any depth.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent


def imports_of_tests(path: Path) -> list[str]:
    """The imports in `path` that name a module (or a name) starting with `test_`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom):
            modules = ["." * node.level + (node.module or "")]
            names = [alias.name for alias in node.names]
        else:
            continue
        if any(part.startswith("test_") for m in modules for part in m.lstrip(".").split(".")):
            found += modules
        found += [f"{modules[0]} import {n}" for n in names if n.startswith("test_")]
    return found


def test_no_test_module_imports_another() -> None:
    bad = {str(p.relative_to(TESTS)): found for p in sorted(TESTS.rglob("*.py"))
           if (found := imports_of_tests(p))}
    assert not bad, f"test modules imported (move the helper or fixture out): {bad}"


def test_the_check_sees_each_form_of_import(tmp_path: Path) -> None:
    source = tmp_path / "test_example.py"
    source.write_text("import pan.test_engine\nfrom .test_app import room\n"
                      "from room import test_ledger\nfrom .rooms import make_room\n")
    assert imports_of_tests(source) == ["pan.test_engine", ".test_app", "room import test_ledger"]
