"""Errors a user may cause. The CLI and the server turn these into one-line messages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError


class CardroomError(Exception):
    """Anything a user did wrong: the message is shown to them as is."""

    exit_status = 2
    """The CLI's exit status for it: 2, a user error; 1 for a check that failed."""


class CardParseError(CardroomError, ValueError):
    """A card string that names no card."""


class RulesError(CardroomError, ValueError):
    """A house-rules file or setting that is malformed or out of its allowed range."""


class WagerError(CardroomError):
    """A wager refused by a rule; the message names the rule."""


class IllegalActionError(CardroomError):
    """An action the game state does not allow now."""


class ShoeError(CardroomError):
    """A shoe that cannot do what was asked (empty, bad commitment, bad spec)."""


def read_document(path: Path, parse: Callable[[str], Any], malformed: type[Exception],
                  form: str, error: type[CardroomError], what: str = "file") -> Any:
    """`parse` of the UTF-8 text at `path`; a missing, unreadable or malformed (`malformed`
    raised) file becomes `error`, its message naming the file and, for the last, the `form`
    ("JSON", "TOML") the file is not."""
    try:
        return parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot read: {exc}") from None
    except malformed as exc:
        raise error(f"{path}: not valid {form}: {exc}") from None


def describe_validation_error(exc: ValidationError) -> str:
    """A model's validation errors as one line: each problem after the setting it concerns."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)
