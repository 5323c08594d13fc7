"""Anchors: the audit chain's head written outside the database, signed with the audit key.

The key stops anyone who can only write the database from forging entries, but it cannot stop
them cutting the log back to an earlier state they copied (an old backup holds a validly MACed
head). An anchor file records the head (seq and hash) at a moment; a later check requires the
log still to hold that entry with that hash, so truncation or rewriting behind an anchor is
found. `cardroom audit anchor DIR` writes one (run it daily, and before and after any
maintenance; `cardroom serve --anchors DIR` writes one at start and every day); `cardroom
audit verify --anchors DIR` checks them all. Keep DIR where the database's writers cannot
write (another host, write-once storage). Every anchor names the fingerprint of the key that
signed it (`audit.key_id`); after `cardroom audit rekey` an anchor signed with a key the chain
records as replaced cannot be authenticated any more, but still pins the log. An anchor pins
the room chain; the writer chains of a room served by several processes are pinned through
it, the room chain anchoring their heads (`audit.anchor`).
"""

from __future__ import annotations

import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import Connection

from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log
from cardroom.room.trust import integrity
from cardroom.room.trust.keying import former_keys

_ANCHOR_DOMAIN = b"cardroom audit anchor\x00"
PATTERN = "anchor-*.json"


@dataclass(frozen=True)
class Anchor:
    seq: int
    hash: str
    at: str
    key: str | None = None
    """The signing key's fingerprint (None in anchors written before fingerprints)."""

    def body(self) -> str:
        fields: dict[str, object] = {"seq": self.seq, "hash": self.hash, "at": self.at}
        if self.key is not None:
            fields["key"] = self.key
        return json.dumps(fields, sort_keys=True, separators=(",", ":"))


def write_anchor(directory: Path, key: bytes, head: audit.Checkpoint) -> Path:
    """Write the head as a signed anchor file in `directory` (made if absent)."""
    now = datetime.now(UTC)
    anchor = Anchor(head.seq, head.hash, now.isoformat(timespec="seconds"), audit.key_id(key))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"anchor-{now:%Y%m%dT%H%M%SZ}-{head.seq}.json"
    data = {"seq": anchor.seq, "hash": anchor.hash, "at": anchor.at, "key": anchor.key,
            "mac": audit.mac(key, _ANCHOR_DOMAIN, anchor.body())}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def anchor_now(storage: Storage, directory: Path) -> Path | integrity.Report:
    """Check everything from one snapshot; if it is sound, anchor the head it reached, else
    return the report and write nothing (an anchor must never vouch for a tampered log)."""
    key = storage.audit_key
    if key is None:
        raise ValueError("anchors need the room's audit key")
    with storage.snapshot() as conn:
        report = integrity.check(conn, key)
    return write_anchor(directory, key, report.reached.chain) if report.ok else report


def _read(path: Path, key: bytes, former: set[str]) -> Anchor | str:
    """The anchor in `path`, or why it cannot be trusted. One signed with a key the chain
    records as replaced (`former`) is read unauthenticated: it can only pin the log."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        named = data.get("key")
        anchor = Anchor(int(data["seq"]), str(data["hash"]), str(data["at"]),
                        None if named is None else str(named))
        tag = str(data["mac"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return f"anchor {path.name} cannot be read"
    if anchor.key in former and anchor.key != audit.key_id(key):
        return anchor
    if not hmac.compare_digest(tag, audit.mac(key, _ANCHOR_DOMAIN, anchor.body())):
        return f"anchor {path.name} is not signed with this room's audit key" + (
            "" if anchor.key is None else f" (it names key {audit.short(anchor.key)}, not one "
            "this room's chain records)")
    return anchor


def check_anchors(conn: Connection, directory: Path, key: bytes) -> tuple[int, list[str]]:
    """How many anchors `directory` holds, and every way the log disagrees with them."""
    paths = sorted(directory.glob(PATTERN))
    problems: list[str] = []
    former = former_keys(conn)
    for path in paths:
        anchor = _read(path, key, former)
        if isinstance(anchor, str):
            problems.append(anchor)
            continue
        if anchor.seq == 0:  # anchored an empty log: nothing to hold it to
            continue
        held = conn.execute(select(audit_log.c.hash).where(  # anchors pin the room chain
            audit_log.c.chain == audit.ROOM_CHAIN, audit_log.c.seq == anchor.seq)
            ).scalar_one_or_none()
        if held is None:
            problems.append(f"anchor {path.name} ({anchor.at}) records entry {anchor.seq}, "
                            "which the log no longer holds: the log was cut back")
        elif held != anchor.hash:
            problems.append(f"entry {anchor.seq} is not the one anchor {path.name} "
                            f"({anchor.at}) recorded: the log was rewritten")
    return len(paths), problems
