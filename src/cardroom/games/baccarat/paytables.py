"""Super-9 pay tables and the progressive award schedule, read from `data/super9_paytables.toml`."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from cardroom.data import load_table
from cardroom.errors import RulesError


@dataclass(frozen=True)
class NinePayTable:
    """Odds "to 1" for the Player-9 and Banker-9 bonus wagers, and the designer's claims."""

    number: int
    player_unsuited: int
    player_suited: int
    banker_unsuited: int
    banker_suited: int
    claimed_edge_player: Decimal
    claimed_edge_banker: Decimal


@dataclass(frozen=True)
class ProgressiveSchedule:
    """"For 1" awards of the $1 progressive wager; the top award is the posted jackpot."""

    wager_cents: int
    one_suited_nine: int
    both_suited_nine: int
    both_suited_ace_eight: int
    claimed_edge: Decimal
    claimed_contribution: Decimal


def _with_claims(entry: dict[str, Any]) -> dict[str, Any]:
    """A table's TOML entry, its claimed figures (strings there, to keep their digits) as
    Decimal."""
    return {k: Decimal(v) if k.startswith("claimed_") else v for k, v in entry.items()}


@cache
def nine_pay_tables() -> dict[int, NinePayTable]:
    raw = load_table("super9_paytables.toml")["paytables"]
    return {int(k): NinePayTable(number=int(k), **_with_claims(v)) for k, v in raw.items()}


def nine_pay_table(number: int) -> NinePayTable:
    tables = nine_pay_tables()
    if number not in tables:
        raise RulesError(f"no Super-9 pay table {number}: choose one of {sorted(tables)}")
    return tables[number]


@cache
def progressive_schedule() -> ProgressiveSchedule:
    return ProgressiveSchedule(**_with_claims(load_table("super9_paytables.toml")["progressive"]))
