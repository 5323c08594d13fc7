"""scripts/complexity.py (issue 24, figures to reach): functions over 80 lines and blocks of
cyclomatic complexity 21 or more, outside migrations and numba kernels."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).parents[1] / "scripts" / "complexity.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("complexity_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while it is built
    spec.loader.exec_module(module)
    return module


def _long(name: str, lines: int, decorator: str = "") -> str:
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 1))
    return f"{decorator}def {name}():\n{body}"


def _branchy(name: str, branches: int) -> str:
    body = "".join(f"        if x == {i}:\n            return {i}\n" for i in range(branches))
    return f"class K:\n    def {name}(self, x):\n{body}        return -1\n"


def test_long_and_complex_blocks_are_counted_outside_kernels_and_migrations(
        tmp_path: Path) -> None:
    script = _script()
    (tmp_path / "pkg" / "migrations").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text(
        _long("long_one", 81) + _long("just_fits", 80)
        + "from numba import njit\n" + _long("kernel", 200, "@njit(cache=True)\n")
        + _branchy("complex_one", 20) + _branchy("simple_enough", 19))
    (tmp_path / "pkg" / "migrations" / "m.py").write_text(_long("migration", 300))
    long, complex_ = script.measure(tmp_path)
    assert [(f.name, f.value) for f in long] == [("long_one", 81)]
    assert [(f.name, f.value) for f in complex_] == [("K.complex_one", 21)]
    assert script.main(["--root", str(tmp_path)]) == 0
    assert script.main(["--root", str(tmp_path), "--check"]) == 1
    assert script.main(["--root", str(tmp_path / "absent")]) == 2


def test_the_project_meets_the_goals() -> None:
    """Issue 24: no function over 80 lines and at most 8 blocks of complexity 21 or more in
    src/ (outside migrations and numba kernels): `scripts/complexity.py --check` passes."""
    assert _script().main(["--check"]) == 0
