"""Measure the two size figures of issue 24: functions over 80 lines and blocks (functions and
methods) of cyclomatic complexity 21 or more, under src/ outside the Alembic migrations and the
numba kernels (functions decorated with numba's njit/jit/vectorize, whose shape the compiler
asks for).

    python scripts/complexity.py [--root src] [--check]

Prints both counts and the list of each, worst first. Complexity is radon's (McCabe's count of
decision points plus one, per function or method; a nested function is its own block). With
--check it exits 1 when a figure misses its goal (no function over 80 lines, at most 8 blocks
of complexity 21 or more); without it, it only measures. docs/architecture.md records the
figures.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function

MAX_LINES = 80
MIN_COMPLEXITY = 21
GOAL_LONG = 0
GOAL_COMPLEX = 8
KERNEL_DECORATORS = frozenset({"njit", "jit", "vectorize", "guvectorize", "stencil"})
EXCLUDED_PARTS = ("migrations",)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    name: str
    value: int

    def worst_first(self) -> tuple[int, str, int]:
        return (-self.value, self.path, self.line)

    def __str__(self) -> str:
        return f"{self.value:4d}  {self.path}:{self.line} {self.name}"


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _kernel_lines(tree: ast.AST) -> set[int]:
    """The `def` lines of the numba kernels in a module."""
    return {node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and any(_decorator_name(d) in KERNEL_DECORATORS for d in node.decorator_list)}


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def _blocks(source: str) -> list[Function]:
    """Every function and method radon measures, closures included (radon lists methods both
    alone and in their class: each is kept once)."""
    out: dict[tuple[int, str], Function] = {}
    todo = [b for b in cc_visit(source) if isinstance(b, Function)]
    while todo:
        block = todo.pop()
        out[(block.lineno, block.name)] = block
        todo.extend(block.closures)
    return list(out.values())


def measure(root: Path) -> tuple[list[Finding], list[Finding]]:
    """(functions over MAX_LINES lines, blocks of complexity >= MIN_COMPLEXITY) under root."""
    long: list[Finding] = []
    complex_: list[Finding] = []
    for path in sorted(root.rglob("*.py")):
        if any(part in EXCLUDED_PARTS for part in path.relative_to(root).parts):
            continue
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, str(path))
        kernels = _kernel_lines(tree)
        name = str(path.relative_to(root))
        for fn in _functions(tree):
            lines = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if fn.lineno not in kernels and lines > MAX_LINES:
                long.append(Finding(name, fn.lineno, fn.name, lines))
        for block in _blocks(source):
            if block.lineno not in kernels and block.complexity >= MIN_COMPLEXITY:
                shown = f"{block.classname}.{block.name}" if block.classname else block.name
                complex_.append(Finding(name, block.lineno, shown, block.complexity))
    return sorted(long, key=Finding.worst_first), sorted(complex_, key=Finding.worst_first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).parents[1] / "src")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 unless no function is over {MAX_LINES} lines and at most "
                        f"{GOAL_COMPLEX} blocks have complexity {MIN_COMPLEXITY} or more")
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"error: {args.root} is not a folder", file=sys.stderr)
        return 2
    long, complex_ = measure(args.root)
    print(f"functions over {MAX_LINES} lines: {len(long)} (goal {GOAL_LONG})")
    for f in long:
        print(f"  {f}")
    print(f"blocks of cyclomatic complexity >= {MIN_COMPLEXITY}: {len(complex_)} "
          f"(goal at most {GOAL_COMPLEX})")
    for f in complex_:
        print(f"  {f}")
    if args.check and (len(long) > GOAL_LONG or len(complex_) > GOAL_COMPLEX):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
