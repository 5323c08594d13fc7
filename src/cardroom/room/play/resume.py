"""Resuming the hand in play after a restart (issue 25): a stopped server loses nothing that
was committed, so the next start goes on with the hand exactly where it was.

With every action the room commits, in the same transaction, the table's sealed state
(`seal`, the `sealed_tables` row): the shoe or deck still to be dealt (its order, salt, cut
card and position: the next cards are the ones the stopped process would have dealt) and the
hand in play so far as a hand history (`LiveTable.sealed_hand`: its seats, every card dealt,
every action). At the next start `resume` replays that history through the game's engine
with the one replay driver the recall uses (`cardroom.history.run`), the live table takes
the replayed hand (`LiveTable.resume_hand`), its shoe goes back at its position, and the turn
the hand waited for keeps its deadline (`hands.open_record`'s `turn`). A hand whose record
cannot be replayed, or does not agree with the ledger, is voided as before
(`Room.recover`).

Hidden information: the sealed row holds the cards still to come and the hands not yet
shown, so it is encrypted (AES-256-GCM, a fresh key derived for every write, bound to its
table) under the room's identity key, the key file kept apart from the books: a copy of the
database or a backup does not tell the cards to come. No page, report, history or export
reads it, and it holds nothing once the hand and the shoe are over (docs/security.md). A room
started without its key cannot open it: the hand is voided, the shoe shuffled afresh.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.history import HandHistory, replayer, run
from cardroom.room.money import hands
from cardroom.room.play.live_table import LiveTable, SealedShoe, Turn
from cardroom.room.play.messages import compact_json
from cardroom.room.storage import audit
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.pipeline import deferred, on_driver
from cardroom.room.storage.schema import audit_log, sealed_tables
from cardroom.room.storage.upsert import upsert
from cardroom.shoe import Shoe, shoe_from, shoe_json

NOT_RESUMED = "the server stopped and the hand could not be resumed from its record"
"""The reason a recovery void gives (why, in the audit's `hand.not-resumed`)."""


class ResumeFailed(CardroomError):
    """The hand in play cannot be resumed from its sealed record (missing, or it does not
    replay, or it disagrees with the ledger): the room voids it as before."""


SEALED = "sealed:v1:"
SALT_BYTES, NONCE_BYTES = 16, 12


def _key(key: IdentityKey, salt: bytes) -> AESGCM:
    """The sealing key of `salt`, derived from the room's identity key."""
    return AESGCM(HKDF(algorithm=hashes.SHA256(), length=32, salt=salt,
                       info=b"cardroom sealed table").derive(key.secret))


KEY_USES = 1 << 20
"""How many records one derived key seals, each under a random 96-bit nonce, before a fresh
salt derives the next: the chance that two of them share a nonce is below 2^-57, far inside
the 2^32 random nonces NIST SP 800-38D allows one AES-GCM key. (A key derived for every
write cost a tenth of sealing, which every action does.)"""


@dataclass
class _Sealing:
    salt: bytes
    key: AESGCM
    left: int


_SEALING: dict[bytes, _Sealing] = {}
_SEALING_LOCK = threading.Lock()


def _sealing_key(key: IdentityKey) -> tuple[bytes, AESGCM]:
    """The salt and key the next record is sealed with: a fresh salt at the first record of
    the process and after every `KEY_USES` records (each record stores its salt, so `unlock`
    derives its key whichever it was)."""
    with _SEALING_LOCK:
        now = _SEALING.get(key.secret)
        if now is None or now.left == 0:
            salt = secrets.token_bytes(SALT_BYTES)
            now = _SEALING[key.secret] = _Sealing(salt, _key(key, salt), KEY_USES)
        now.left -= 1
        return now.salt, now.key


def lock(key: IdentityKey | None, data: dict[str, Any], table_id: int) -> str:
    """`data` as the sealed row stores it (`compact_json`): encrypted and bound to its
    table."""
    if key is None:
        raise ResumeFailed("the room was started without its identity key: nothing is sealed")
    salt, sealing = _sealing_key(key)
    nonce = secrets.token_bytes(NONCE_BYTES)
    box = sealing.encrypt(nonce, compact_json(data), str(table_id).encode())
    return SEALED + base64.b64encode(salt + nonce + box).decode("ascii")


def unlock(key: IdentityKey | None, stored: str, table_id: int) -> Any:
    """What `lock` stored; ResumeFailed when this key (or this table) does not open it."""
    if key is None:
        raise ResumeFailed("the room was started without its identity key")
    try:
        raw = base64.b64decode(stored.removeprefix(SEALED), validate=True)
        clear = _key(key, raw[:SALT_BYTES]).decrypt(
            raw[SALT_BYTES:SALT_BYTES + NONCE_BYTES], raw[SALT_BYTES + NONCE_BYTES:],
            str(table_id).encode())
    except (InvalidTag, ValueError):
        raise ResumeFailed("the identity key does not open the table's sealed record") \
            from None
    return json.loads(clear)


def seal(conn: Connection, live: LiveTable[Any, Any, Any], key: IdentityKey | None) -> None:
    """After every action of the table, in its transaction: keep its shoe and its hand in
    play as they are now (nothing when the table has neither; nothing without the room's
    identity key, then a restart voids the hand as before)."""
    if key is None:
        return
    shoe, hand = live.sealed_shoe(), live.sealed_hand()
    t = live.table_id
    if hand is not None:  # the log's entry of this very action: a record older is stale
        hand["audit_seq"] = audit.last_seq(conn)
        if audit.unit_chain(conn) != audit.ROOM_CHAIN:  # one of several processes
            hand["audit_chain"] = audit.unit_chain(conn)
    values = {"table": t, "hand_no": live.hand_id if hand is not None else None,
              "shoe_text": None if shoe is None else _shoe_text(live, shoe, key),
              "hand_text": None if hand is None else lock(key, hand, t)}
    on_driver(conn, _CLEAR if shoe is None and hand is None else _SEAL[conn.dialect.name], values)


def _sealed() -> dict[str, Any]:
    """The sealed row's columns, each set from its parameter of `seal`."""
    return {"hand_id": bindparam("hand_no"), "shoe": bindparam("shoe_text"),
            "hand": bindparam("hand_text")}


_SEAL = upsert(sealed_tables, ("table_id",), {"table_id": bindparam("table"), **_sealed()})
"""The table's sealed row written whole, made or replaced (built once: building and caching
the statement at every action cost as much as running it)."""
_CLEAR = deferred(update(sealed_tables).where(sealed_tables.c.table_id == bindparam("table"))
                  .values(**_sealed()))


def _shoe_text(live: LiveTable[Any, Any, Any], shoe: Shoe, key: IdentityKey) -> str:
    """The shoe as the sealed row stores it, encrypted again only when it moved since the
    table's last seal (a bet leaves it as it was: writing out and encrypting a whole shoe
    at every action was a quarter of the action's work)."""
    if live.shoe_sealed is None or not live.shoe_sealed.holds(shoe):
        live.shoe_sealed = SealedShoe(shoe.order, SealedShoe.where(shoe),
                                      lock(key, shoe_json(shoe), live.table_id))
    return live.shoe_sealed.text


def forget(conn: Connection, table_id: int) -> None:
    """A hand that could not be resumed is voided: its cards were seen, so its shoe is not
    dealt on; the next deal shuffles afresh."""
    conn.execute(delete(sealed_tables).where(sealed_tables.c.table_id == table_id))


def restore_shoe(conn: Connection, live: LiveTable[Any, Any, Any],
                 key: IdentityKey | None) -> None:
    """A (re)started table takes back its shoe at its position (one that cannot be opened is
    left: the next deal shuffles afresh)."""
    row = conn.execute(select(sealed_tables.c.shoe)
                       .where(sealed_tables.c.table_id == live.table_id)).scalar_one_or_none()
    if row:
        try:
            live.restore_shoe(shoe_from(unlock(key, row, live.table_id)))
        except ResumeFailed:
            return


def resume(conn: Connection, live: LiveTable[Any, Any, Any], hand_id: int,
           key: IdentityKey | None) -> None:
    """Take the table's hand in play back from its sealed record: replay it (the one replay
    driver), hand the replayed hand to the table, restore the shoe and the awaited turn's
    deadline. Raises `ResumeFailed` (nothing kept) when it cannot be."""
    row = conn.execute(select(sealed_tables)
                       .where(sealed_tables.c.table_id == live.table_id)).first()
    if row is None or row.hand is None or row.hand_id != hand_id:
        raise ResumeFailed("the hand's actions were not sealed")
    try:
        data = unlock(key, row.hand, live.table_id)
        _require_latest(conn, hand_id, data.get("audit_seq"),
                        data.get("audit_chain", audit.ROOM_CHAIN))
        history = HandHistory.from_json(data["history"], f"hand {hand_id}")
        replayed = replayer(history.game)(history)
        report = run(replayed, history)
        if report.failure is not None:
            f = report.failure
            raise ResumeFailed(f"action {f.index} ({f.action.get('type')}) is refused on "
                               f"replay: {f.message}")
        live.resume_hand(conn, hand_id, data, replayed)
        if row.shoe:
            live.restore_shoe(shoe_from(unlock(key, row.shoe, live.table_id)))
    except ResumeFailed:
        raise
    except (CardroomError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ResumeFailed(f"the hand's sealed record does not replay: {exc}") from None
    _resume_turn(conn, live, hand_id)


AFTER_A_STOP = frozenset({"hand.resumed", "hand.not-resumed", "refused"})
"""The audit entries about a hand that change nothing of it (a resume, a refusal)."""


def _require_latest(conn: Connection, hand_id: int, sealed: object, chain: object) -> None:
    """The sealed record is the hand's latest: no entry of the audit log (MACed, chained:
    not to be rewritten) says the hand moved on after it. An older record put back in its
    place (with the books' write access but not the key) would replay the hand from an
    earlier point, cards already seen dealt again. Where the log stood is an entry of the
    chain the record was sealed on (`chain`: that process's, in a room of several): a later
    entry of another chain is one stamped later (`audit.after`)."""
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (sealed, chain)):
        raise ResumeFailed("the sealed record does not say where the audit log stood")
    assert isinstance(sealed, int) and isinstance(chain, int)
    for e in audit.after(conn, chain, sealed, audit_log.c.detail.like(f'%"hand":{hand_id}%')):
        if e.action not in AFTER_A_STOP and e.data.get("hand") == hand_id:
            raise ResumeFailed(f"the sealed record is older than the hand's audit log "
                               f"({e.action} came after it)")


def _resume_turn(conn: Connection, live: LiveTable[Any, Any, Any], hand_id: int) -> None:
    """The awaited turn keeps the deadline it had (an absolute time, kept when the turn
    began): the time left runs on; one that ran out while the room was down is taken by the
    timer at the start (`Room.start`)."""
    turn = hands.open_record(conn, hand_id).get("turn")
    awaited = live.awaited() if live.timer_rules() is not None else None
    if awaited is not None and isinstance(turn, dict) and turn.get("account") == awaited[0]:
        live.turn = Turn(awaited[0], awaited[1], datetime.fromisoformat(turn["deadline"]))
    else:
        live.arm_timer(conn)
