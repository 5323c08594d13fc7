"""What a new account may be called and what password it may have: pure rules, no database.

Names the room writes into the audit log as its own actors (the dealer that settles a hand, the
house that funds bots and the jackpot seed, recovery after a restart, an anonymous refusal) and
the role names can never be taken by a person, so an audit line's actor always means one thing.
Passwords follow NIST SP 800-63B's advice for memorised secrets: a minimum length, no
composition rules, and a refusal of guessable ones, judged by zxcvbn (its lists of common
passwords, words, names and keyboard patterns, with the username as a word to avoid).
"""

from __future__ import annotations

import re

from zxcvbn import zxcvbn

from cardroom.errors import CardroomError

USERNAME = re.compile(r"^[a-z0-9_]{3,30}$")
MIN_PASSWORD = 10
MAX_PASSWORD = 200
MIN_STRENGTH = 3
"""zxcvbn's score (0-4): 3 is "safely unguessable", about 10^8 guesses or more."""
_ZXCVBN_MAX = 72
"""zxcvbn refuses longer input (its cost grows with length); the first 72 characters are judged,
and a password at least that long with a strong start is strong."""

RESERVED_NAMES = frozenset({
    # actors the room writes itself
    "dealer", "house", "recovery", "anonymous", "cli_operator", "system", "room", "cardroom",
    "bank", "cage", "jackpot", "bot", "server",
    # role names (dealer above)
    "player", "floor", "auditor", "owner",
    # names a person would read as the room's own staff
    "admin", "administrator", "root", "staff", "cashier", "audit", "security", "support",
    "operator", "manager",
})


def check_username(username: str) -> str:
    """The name as stored (trimmed, lower case), or CardroomError with the reason."""
    name = username.strip().lower()
    if not USERNAME.match(name):
        raise CardroomError("a username is 3-30 lowercase letters, digits or underscores")
    return name


def check_unreserved(name: str) -> None:
    """CardroomError when a person asks for one of the room's own names."""
    if name in RESERVED_NAMES:
        raise CardroomError(f"the username {name!r} is reserved for the room: choose another")


def check_password(name: str, password: str) -> None:
    """CardroomError with the reason when `password` is too short, too long or guessable."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise CardroomError(
            f"a password needs {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if name in password.lower():
        raise CardroomError("a password may not contain the username")
    verdict = zxcvbn(password[:_ZXCVBN_MAX], user_inputs=[name, "cardroom", "card room"])
    if verdict["score"] < MIN_STRENGTH:
        warning = str(verdict["feedback"].get("warning") or "").rstrip(".")
        why = f" ({warning.lower()})" if warning else ""
        raise CardroomError(f"this password is too easy to guess{why}: try a longer phrase "
                            "of unrelated words")
