"""Issue 20, the math dossier as a regulator's lab reads it: the command a dossier states
reproduces it (the house-rules file named with its hash, the drawn seed spelled out), and the
commit is "unknown", never an error or another repository's, outside a git checkout. Each
game's own dossier test checks the rest of its provenance (`dossier_checks`)."""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardroom
from cardroom.analysis.dossier.provenance import source_commit


def cardroom_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cardroom.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=600, check=False)


def test_the_stated_command_reproduces_the_dossier(tmp_path: Path) -> None:
    """Pan with a house-rules file and no --seed: the provenance names the file with its
    SHA-256 and the command with the seed that was drawn; running that command gives the same
    figures."""
    rules = tmp_path / "pan.toml"
    rules.write_text("packs = 8\n", encoding="utf-8")
    first = cardroom_cli("report", "math", "pan", "--rules", str(rules), "--hands", "2",
                         "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    prov = data.pop("provenance")
    assert prov["rules_file"] == str(rules)
    assert prov["rules_file_sha256"] == hashlib.sha256(rules.read_bytes()).hexdigest()
    [seed] = [s["seed"] for s in prov["seeds"]]
    command = shlex.split(prov["command"])
    assert command[:4] == ["cardroom", "report", "math", "pan"]
    assert command[command.index("--seed") + 1] == str(seed)
    assert command[command.index("--hands") + 1] == "2"
    assert command[command.index("--hands-per-hour") + 1] == "20"  # the default, spelled out
    again = cardroom_cli(*command[1:])
    assert again.returncode == 0, again.stderr
    repeat = json.loads(again.stdout)
    assert repeat.pop("provenance")["command"] == prov["command"]
    assert repeat == data


def test_an_exact_dossier_has_no_seed_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "s.html"
    result = cardroom_cli("report", "math", "super-pan-9", "--decks", "6", "--out", str(out),
                          "--json")
    assert result.returncode == 0, result.stderr
    prov = json.loads(result.stdout)["provenance"]
    assert prov["seeds"] == []
    assert shlex.split(prov["command"]) == ["cardroom", "report", "math", "super-pan-9",
                                            "--decks", "6", "--out", str(out), "--json"]
    page = out.read_text(encoding="utf-8")
    assert "none: every figure is exact" in page and prov["command"] in page


def test_the_commit_is_unknown_outside_a_git_checkout(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed copy (no repository), a copy that a repository does not track (a virtual
    environment inside a project's folder), and a machine without git: "unknown", no error."""
    package = Path(cardroom.__file__).parent
    assert source_commit(tmp_path) == "unknown"
    repo = tmp_path / "project"
    copy = repo / ".venv" / "cardroom"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "README").write_text("x", encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "add", "README"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qm", "x"], check=True)
    assert source_commit(copy) == "unknown"
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))
    assert source_commit(package) == "unknown"
