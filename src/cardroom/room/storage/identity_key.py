"""The identity key: a secret kept outside the database that patrons' taxpayer ids and identity
document numbers are encrypted with (issue 22, "Patrons and identity").

The file is kept as the audit key is (`cardroom.room.storage.audit_key`): 32 random bytes as 64 hex
digits, mode 0600, refused if others may read it, at `$CARDROOM_IDENTITY_KEY_FILE` or beside
the default database. Two keys are derived from it (HKDF-SHA256): one encrypts each value with
AES-256-GCM (a fresh 96-bit nonce each time, the record it belongs to as associated data, so a
ciphertext moved to another patron does not open), the other makes a keyed HMAC-SHA256 *blind
index* of a normalised number, stored beside its ciphertext, so that the cage can find a patron
by a document number without the database holding the number in clear. Whoever copies the
database (a backup, a stolen disk) without this file reads neither.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from cardroom.errors import CardroomError
from cardroom.room.storage.audit_key import load_key, load_or_create_key

ENV_KEY_FILE = "CARDROOM_IDENTITY_KEY_FILE"
WHAT = "identity key"
PREFIX = "v1:"
"""The format of a stored ciphertext: `v1:` then base64 of the nonce and AES-GCM's output."""
NONCE_BYTES = 12


class IdentityKeyError(CardroomError):
    """A missing, unreadable, malformed or world-readable identity key file, or a key that does
    not open the records it is asked to."""


def default_key_path() -> Path:
    """Beside the default SQLite database (and its audit key), under the user data directory."""
    from cardroom.room.storage.db import default_database_path

    return default_database_path().parent / "identity.key"


def key_path(option: Path | None = None) -> Path:
    """The key file: the option if given, else `$CARDROOM_IDENTITY_KEY_FILE`, else the
    default."""
    if option is not None:
        return option
    env = os.environ.get(ENV_KEY_FILE)
    return Path(env) if env else default_key_path()


def _derive(secret: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                info=b"cardroom identity " + purpose).derive(secret)


@dataclass(frozen=True)
class IdentityKey:
    """The room's identity key, ready to encrypt, decrypt and index (never printed)."""

    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) != 32:
            raise IdentityKeyError("an identity key is 32 bytes")

    @classmethod
    def generate(cls) -> IdentityKey:
        """A fresh random key (tests; the room's key lives in its file)."""
        return cls(secrets.token_bytes(32))

    @property
    def key_id(self) -> str:
        """The key's fingerprint (safe to show and record: it reveals nothing of the key)."""
        return hashlib.sha256(b"cardroom identity key id" + self.secret).hexdigest()

    def encrypt(self, clear: str, context: str) -> str:
        """`clear` sealed with AES-256-GCM, bound to `context` (the record it belongs to)."""
        nonce = secrets.token_bytes(NONCE_BYTES)
        sealed = AESGCM(_derive(self.secret, b"encryption")).encrypt(
            nonce, clear.encode(), context.encode())
        return PREFIX + base64.b64encode(nonce + sealed).decode("ascii")

    def decrypt(self, stored: str, context: str) -> str:
        """The clear text of `stored`; IdentityKeyError if this key (or this record) does not
        open it."""
        try:
            raw = base64.b64decode(stored.removeprefix(PREFIX), validate=True)
            clear = AESGCM(_derive(self.secret, b"encryption")).decrypt(
                raw[:NONCE_BYTES], raw[NONCE_BYTES:], context.encode())
        except (InvalidTag, ValueError):
            raise IdentityKeyError("the identity key does not open this patron's records: the "
                                   "room is using another key file than the one they were "
                                   "written with") from None
        return clear.decode()

    def blind(self, kind: str, normalised: str) -> str:
        """The blind index of a normalised value of `kind` ("document", "taxpayer"): an
        HMAC-SHA256 under a key derived for indexing only, as 64 hex digits."""
        return hmac.new(_derive(self.secret, b"blind index"), f"{kind}:{normalised}".encode(),
                        hashlib.sha256).hexdigest()


def load_identity_key(path: Path | None = None) -> IdentityKey:
    """The key in the file (`key_path`); IdentityKeyError when it is missing or unsafe."""
    return IdentityKey(load_key(key_path(path), WHAT, IdentityKeyError))


def load_or_create_identity_key(path: Path | None = None) -> tuple[IdentityKey, bool]:
    """The key in the file, made (mode 0600, never overwriting) if absent; and whether it was.
    The command line and the server call this when they open the room, as for the audit key."""
    secret, created = load_or_create_key(key_path(path), WHAT, IdentityKeyError)
    return IdentityKey(secret), created
