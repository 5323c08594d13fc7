"""The provenance every math dossier states (issue 20), checked against what lies outside the
code: pyproject.toml's version, git's own answer for this checkout, the SHA-256 of each rule
document in the shared folder, today's date."""

from __future__ import annotations

import hashlib
import subprocess
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DOCUMENTS = {
    "baccarat": ["rules/mini-baccarat.txt", "rules/super-9-baccarat.wsgc.txt"],
    "super-pan-9": ["rules/super-pan-9.wsgc.txt"],
    "pai-gow": ["rules/pai-gow-poker.wsgc.txt"],
    "pan": ["rules/panguingue.house-rules.txt", "reference/panguingue.md"],
}
"""The documents each game's rules come from (../shared/rules/README.md)."""


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT / "src" / "cardroom"), *args],
                          capture_output=True, text=True, check=True).stdout.strip()


def expected_commit() -> str:
    """What git says of this checkout's package: HEAD, marked when it has local changes."""
    head = _git("rev-parse", "HEAD")
    changed = _git("status", "--porcelain", "--untracked-files=no", "--", ".")
    return f"{head} (with uncommitted changes)" if changed else head


def check_provenance(prov: dict[str, Any], page: str, game: str, seeds: list[int]) -> None:
    """The JSON's "provenance" and the page's cover: date, version, commit, each rule document
    with the hash of its text, the house-rules file (none here), the seeds."""
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert prov["generated"].startswith(today) and prov["generated"].endswith("UTC")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert prov["cardroom_version"] == project["version"]
    assert prov["commit"] == expected_commit()
    docs = prov["rule_documents"]
    assert [d["file"] for d in docs] == DOCUMENTS[game]
    for d in docs:
        assert d["sha256"] == hashlib.sha256((SHARED / d["file"]).read_bytes()).hexdigest()
        assert d["version"]
    assert prov["rules_file"] is None and prov["rules_file_sha256"] is None
    assert [s["seed"] for s in prov["seeds"]] == seeds
    assert "Where these figures come from" in page and prov["commit"] in page
    assert all(d["sha256"] in page for d in docs)
