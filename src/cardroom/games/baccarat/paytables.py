"""Super-9 pay tables and the progressive award schedule, read from `data/super9_paytables.toml`."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cache

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


@cache
def nine_pay_tables() -> dict[int, NinePayTable]:
    raw = load_table("super9_paytables.toml")["paytables"]
    return {
        int(k): NinePayTable(
            number=int(k),
            player_unsuited=v["player_unsuited"],
            player_suited=v["player_suited"],
            banker_unsuited=v["banker_unsuited"],
            banker_suited=v["banker_suited"],
            claimed_edge_player=Decimal(v["claimed_edge_player"]),
            claimed_edge_banker=Decimal(v["claimed_edge_banker"]),
        )
        for k, v in raw.items()
    }


def nine_pay_table(number: int) -> NinePayTable:
    tables = nine_pay_tables()
    if number not in tables:
        raise RulesError(f"no Super-9 pay table {number}: choose one of {sorted(tables)}")
    return tables[number]


@cache
def progressive_schedule() -> ProgressiveSchedule:
    v = load_table("super9_paytables.toml")["progressive"]
    return ProgressiveSchedule(
        wager_cents=v["wager_cents"],
        one_suited_nine=v["one_suited_nine"],
        both_suited_nine=v["both_suited_nine"],
        both_suited_ace_eight=v["both_suited_ace_eight"],
        claimed_edge=Decimal(v["claimed_edge"]),
        claimed_contribution=Decimal(v["claimed_contribution"]),
    )
