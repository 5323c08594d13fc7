"""The `cardroom` command imports only the modules a command line needs (`cli.OWNERS`): a
command owned by one module starts without the others (the Pai Gow calculator's cold start,
docs/pai-gow.md), and every other line, `--help` included, still finds every command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cardroom.cli import COMMAND_MODULES, OWNERS

CARDROOM = Path(sys.executable).parent / "cardroom"


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_each_owner_is_the_only_module_that_adds_its_command() -> None:
    """Importing the modules one by one, in a fresh interpreter: the top-level commands each
    adds; every command of `OWNERS` is added by exactly the modules named for it."""
    added = json.loads(run_python(f'''
import importlib, json
from cardroom.cli.apps import app  # the apps alone: no command module yet
def names():
    return {{c.name for c in app.registered_commands}} | {{g.name for g in app.registered_groups}}
added, seen = {{}}, names()
for module in {list(COMMAND_MODULES)!r}:
    importlib.import_module("cardroom.cli." + module)
    now = names()
    added[module] = sorted(now - seen)
    seen = now
print(json.dumps(added))
'''))
    for command, owners in OWNERS.items():
        assert [m for m, names in added.items() if command in names] == list(owners), command


def test_a_pai_gow_command_loads_neither_the_room_nor_the_other_games() -> None:
    loaded = json.loads(run_python('''
import json, sys
sys.argv = ["cardroom", "pai-gow", "set", "As Kd JK 9c 7h 5s 2d", "--json"]
from cardroom.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith(
    ("cardroom.cli.", "cardroom.room", "cardroom.server", "fastapi", "sqlalchemy", "dask")))))
'''))
    assert loaded == ["cardroom.cli.apps", "cardroom.cli.options", "cardroom.cli.pai_gow",
                      "cardroom.cli.say"]  # say: printing a message as written (no markup)


def test_the_whole_help_still_lists_every_command() -> None:
    shown = subprocess.run([str(CARDROOM), "--help"], capture_output=True, text=True,
                           timeout=120, check=True).stdout
    for command in ("serve", "tables", "audit", "backup", "restore", "replay", "pai-gow",
                    "analyze", "simulate", "play", "report"):
        assert f" {command} " in shown, command
