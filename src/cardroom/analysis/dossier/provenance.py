"""Where a dossier comes from, so that a lab can reproduce it: when it was made, by which
cardroom (version and commit), from which rule documents (each pinned by its SHA-256) and
house-rules file, by which command, from which seeds."""

from __future__ import annotations

import hashlib
import shlex
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cardroom
from cardroom.data import load_table

UNKNOWN = "unknown"
NO_COMMAND = ("none: built by a Python call, not the command line (the settings are in the "
              "JSON's rules)")


@dataclass(frozen=True)
class RuleDocument:
    file: str
    """Its path under the shared folder (`rules/...`, `reference/...`)."""
    title: str
    version: str
    """What the document states about its own date or version."""
    sha256: str
    """Of the text the project implements: pins the version exactly."""


def rule_documents(game: str) -> tuple[RuleDocument, ...]:
    """The documents `game`'s figures come from (`data/rule_documents.toml`)."""
    return tuple(RuleDocument(d["file"], d["title"], d["version"], d["sha256"])
                 for d in load_table("rule_documents.toml")["document"] if game in d["games"])


@dataclass(frozen=True)
class Origin:
    """What the command line knows of a dossier: the command that reproduces it (every
    setting, run size and seed spelled out) and the house-rules file it read, if any."""

    command: tuple[str, ...]
    rules_file: Path | None = None


@dataclass(frozen=True)
class Provenance:
    generated: str
    version: str
    commit: str
    documents: tuple[RuleDocument, ...]
    rules_file: str | None
    rules_sha256: str | None
    command: str
    seeds: tuple[tuple[str, int], ...]
    """(what the seed drives, seed); empty where every figure is exact."""

    def rows(self) -> tuple[tuple[str, str], ...]:
        """The cover's lines, as (heading, text)."""
        docs = tuple(("Rule document", f"{d.file}: {d.title}; {d.version}; SHA-256 {d.sha256}")
                     for d in self.documents)
        return (
            ("Generated", self.generated),
            ("cardroom", f"version {self.version}, commit {self.commit}"),
            *docs,
            ("House-rules file", "none: the documents' defaults and the command's settings"
             if self.rules_file is None else f"{self.rules_file}, SHA-256 {self.rules_sha256}"),
            ("Reproduce with", self.command),
            ("Seeds", "; ".join(f"{what}: {seed}" for what, seed in self.seeds)
             or "none: every figure is exact"),
        )

    def to_json(self) -> dict[str, Any]:
        return {"generated": self.generated, "cardroom_version": self.version,
                "commit": self.commit,
                "rule_documents": [{"file": d.file, "title": d.title, "version": d.version,
                                    "sha256": d.sha256} for d in self.documents],
                "rules_file": self.rules_file, "rules_file_sha256": self.rules_sha256,
                "command": self.command,
                "seeds": [{"drives": what, "seed": seed} for what, seed in self.seeds]}


def stamp(game: str, origin: Origin | None, seeds: Sequence[tuple[str, int]] = ()) -> Provenance:
    """The provenance of a dossier of `game` built now from `origin` (None: a Python call)
    with these seeds."""
    rules = None if origin is None else origin.rules_file
    return Provenance(
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        version=cardroom.__version__, commit=source_commit(Path(cardroom.__file__).parent),
        documents=rule_documents(game),
        rules_file=None if rules is None else str(rules),
        rules_sha256=None if rules is None else hashlib.sha256(rules.read_bytes()).hexdigest(),
        command=NO_COMMAND if origin is None else shlex.join(origin.command),
        seeds=tuple(seeds))


def source_commit(package: Path) -> str:
    """The git commit of the checkout the package was imported from, marked when the package
    has uncommitted changes; "unknown" outside a git checkout (an installed copy, even one
    inside some other repository's folder), or without git."""
    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(package), *args], capture_output=True,
                              text=True, timeout=20, check=False)

    try:
        if git("ls-files", "--error-unmatch", "__init__.py").returncode != 0:
            return UNKNOWN
        head = git("rev-parse", "HEAD")
        if head.returncode != 0:
            return UNKNOWN
        changed = git("status", "--porcelain", "--untracked-files=no", "--", ".")
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    commit = head.stdout.strip()
    if changed.returncode != 0:
        return commit
    return f"{commit} (with uncommitted changes)" if changed.stdout.strip() else commit
