"""The clause inventory (issue 10: "every rule clause of the five documents and of the Pan
digest has at least one test that cites it"): tests/fixtures/clauses.toml lists every clause
of /work/shared/rules and of the Pan digest, each with `cite`, a pattern for how a test names
it; this test checks that some test's name or docstring under tests/ matches it. A clause no
software can enforce (a licensing letter, a dealer's manners) carries a `reason` instead."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
CLAUSES = tomllib.loads((TESTS / "fixtures" / "clauses.toml").read_text())["clause"]
DOCUMENTS = {"mini-baccarat", "super-9-baccarat", "super-pan-9", "pai-gow-poker",
             "panguingue-house-rules", "panguingue-digest"}


def normalise(text: str) -> str:
    """Lower case, every run of other characters one underscore: "Foul rule 3E" and
    `test_pan_house_foul_rule_3e_...` both read "foul_rule_3e"."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower())


def citations() -> list[str]:
    """Each test function's name and docstring, normalised."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    node.name.startswith("test_"):
                found.append(normalise(f"{node.name} {ast.get_docstring(node) or ''}"))
    return found


CITED = citations()


def test_the_inventory_names_every_document_and_each_clause_once() -> None:
    ids = [c["id"] for c in CLAUSES]
    assert len(ids) == len(set(ids))
    assert {i.split("/")[0] for i in ids} == DOCUMENTS
    for c in CLAUSES:
        assert c["text"].strip(), c["id"]
        assert ("cite" in c) != ("reason" in c), f"{c['id']}: a cite or a reason, not both"


@pytest.mark.parametrize("clause", [c for c in CLAUSES if "cite" in c], ids=lambda c: c["id"])
def test_every_clause_is_cited_by_a_test(clause: dict[str, str]) -> None:
    pattern = re.compile(clause["cite"])
    assert any(pattern.search(t) for t in CITED), \
        f"no test name or docstring cites {clause['id']} ({clause['cite']!r})"

