"""Scripted players for every game (issue 25, "a database restart during play"): each next
move is decided from the table as it is now, as a person looking at the page decides, so that
after a "try again" the player acts on what the books hold. Every move the room acknowledged
is kept in a journal with the audit entry it must have written; a move whose commit's outcome
the database lost (`DatabaseUnavailable.unknown`) is kept as one that may or may not be there.
`journal_matches` then says whether the audit log holds every acknowledged move exactly once,
in order, and nothing else of the players'."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from cardroom.errors import CardroomError
from cardroom.room.people.accounts import Account
from cardroom.room.room import AnyTable, Room
from cardroom.room.storage.errors import DatabaseUnavailable
from cardroom.room.storage.schema import audit_log

from .pan_play import simple_move

Move = tuple[Account, dict[str, Any], tuple[str, str]]
"""Who acts, the message, and the audit entry (actor, action) it writes."""

PAN_BUY_IN, BUY_IN = 2_000, 20_000


def _seat_or_bet(live: AnyTable, players: list[Account], bets: dict[str, int]) -> Move | None:
    """Sit whoever is not seated; between hands or before the deal, the first player without
    a wager on the coming hand bets (a key of that hand: a retry is applied once)."""
    for who in players:
        if who.id not in live.seated:
            return who, {"type": "sit", "buy_in": BUY_IN, "key": "sit"}, (who.username,
                                                                          "table.sit")
    for who in players:
        if live.hand_id is None or who.id not in live.before:
            key = f"bet-{live.hand_number + (live.hand_id is None)}"
            return who, {"type": "bet", "bets": bets, "key": key}, (who.username, "table.bet")
    return None


def baccarat_move(live: AnyTable, players: list[Account]) -> Move:
    first = _seat_or_bet(live, players, {"player": 500})
    return first or (players[0], {"type": "deal"}, (players[0].username, "hand.settled"))


def super_pan_9_move(live: AnyTable, players: list[Account]) -> Move:
    awaited = live.awaited() if live.hand_id is not None else None
    if awaited is not None:
        who = next(p for p in players if p.id == awaited[0])
        return who, {"type": "stand"}, (who.username, "hand.stand")
    first = _seat_or_bet(live, players, {"wager": 1_000})
    return first or (players[0], {"type": "deal"}, (players[0].username, "hand.dealt"))


def pai_gow_move(live: AnyTable, players: list[Account]) -> Move:
    if live.hand_id is not None and getattr(live, "dealt", False):
        for who in players:
            spots = live.snapshot(who)["you"]["to_set"]
            if spots:
                return who, {"type": "house_way", "spot": spots[0]}, (who.username, "hand.set")
    first = _seat_or_bet(live, players, {"wager": 1_000})
    return first or (players[0], {"type": "deal"}, (players[0].username, "hand.dealt"))


def pan_move(live: AnyTable, players: list[Account]) -> Move:
    """One player and two house bots (the bots play between the player's moves)."""
    who = players[0]
    if who.id not in live.seated:
        return who, {"type": "sit", "buy_in": PAN_BUY_IN, "key": "sit"}, (who.username,
                                                                          "table.sit")
    bots = len(live.engine.bots)
    if bots < 2:
        return who, {"type": "bot", "key": f"bot-{bots + 1}"}, (who.username, "table.bot")
    if live.hand_id is None:
        return who, {"type": "deal"}, (who.username, "hand.dealt")
    snap = live.snapshot(who)
    mine = [c for c in snap["play"]["legal"] if not c.startswith(("force", "foul"))]
    if not mine:
        raise AssertionError(f"nobody may act at {live.name} but the hand is not over")
    return who, {"type": "pan", "command": simple_move(mine), "seq": snap["seq"]}, \
        (who.username, "pan.action")


MOVES: dict[str, Callable[[AnyTable, list[Account]], Move]] = {
    "baccarat": baccarat_move, "super-pan-9": super_pan_9_move, "pai-gow": pai_gow_move,
    "pan": pan_move}


@dataclass
class Player:
    """The players of one table, their journal and what went wrong."""

    table: int
    game: str
    people: list[Account]
    journal: list[tuple[str, str, bool]] = field(default_factory=list)
    """(actor, action, sure): sure False where the commit's outcome was lost."""
    unavailable: int = 0
    refusals: list[str] = field(default_factory=list)

    def step(self, room: Room) -> None:
        """Decide and send one move; a "try again" is counted (the next step decides
        afresh from the table as the books hold it), any other refusal kept."""
        try:
            live = room.table(self.table)
            who, msg, entry = MOVES[self.game](live, self.people)
            room.act(who, self.table, msg)
        except DatabaseUnavailable as exc:
            self.unavailable += 1
            if exc.unknown:
                self.journal.append((*entry, False))
            time.sleep(0.05)
            return
        except CardroomError as exc:
            self.refusals.append(f"{msg}: {exc}")
            return
        self.journal.append((*entry, True))

    def in_hand(self, room: Room) -> bool:
        try:
            return room.table(self.table).hand_id is not None
        except DatabaseUnavailable:
            return True

    def audited(self, room: Room) -> list[tuple[str, str]]:
        """The table's audit entries by its players, oldest first: what the journal must
        match (a settlement only where the deal is the whole coup: baccarat)."""
        names = {p.username for p in self.people}
        with room.storage.read() as conn:
            rows = conn.execute(select(audit_log.c.actor, audit_log.c.action,
                                       audit_log.c.detail).order_by(audit_log.c.seq)).all()
        return [(r.actor, r.action) for r in rows if r.actor in names
                and r.action != "refused" and json.loads(r.detail).get("table") == self.table
                and (r.action != "hand.settled" or self.game == "baccarat")]


def journal_matches(journal: list[tuple[str, str, bool]], audited: list[tuple[str, str]]
                    ) -> bool:
    """Every sure move is in the audit log once, in order; a move whose outcome was lost is
    there once or not at all; nothing else is. (The audit positions each prefix of the
    journal can have reached.)"""
    reach = {0}
    for actor, action, sure in journal:
        moved = {i + 1 for i in reach if i < len(audited) and audited[i] == (actor, action)}
        reach = moved | (set() if sure else reach)
    return len(audited) in reach
