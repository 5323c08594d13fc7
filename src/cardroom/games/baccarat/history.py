"""Baccarat hand histories in the project's shared format (`cardroom.history`): writing one for
a coup dealt at a `BaccaratTable` (its replay: `cardroom.games.baccarat.replay`).

A baccarat history holds one coup. Money is in cents (``setup.unit``), ``seats`` are the
players with wagers in the coup and their stacks before it, ``pack`` the cards dealt in this
coup in order (never the rest of the shoe: those cards are still to be dealt), ``setup.shoe``
the shoe's commitment (and, for a fresh shoe, its cut and burn), ``setup.jackpot`` the pool
before the coup, ``actions`` each seat's bets and then the deal, and ``result`` the stacks
after, the two hands and each wager's settlement.

The engine knows its seats by the table's seat numbers; the history names the players: each
writer takes the coup's players as (table seat, name, stack before), and numbers the
history's seats by their place in the coup (from 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.history import HandHistory
from cardroom.money import Cents

from .rules import BaccaratRules
from .table import CoupSettled
from .wagers import WagerKind

UNIT = "cents"


Player = tuple[int, str, Cents]
"""A player of the coup: the table's seat number, the name, the stack before the coup."""


def coup_history(rules: BaccaratRules, players: Sequence[Player],
                 bets: Sequence[tuple[int, dict[WagerKind, Cents]]], dealt: Sequence[Card],
                 settled: CoupSettled, stacks_after: Sequence[Cents], *,
                 shoe: dict[str, Any], jackpot: dict[str, Cents] | None,
                 hand_id: str = "", extra_setup: dict[str, Any] | None = None,
                 seat_fields: Sequence[dict[str, Any]] | None = None) -> HandHistory:
    """The history of one coup. `players` with their stacks before any wager of the coup;
    `bets` by seat number, in the order they went down; `dealt` every card of the coup in
    order."""
    order = [seat for seat, _, _ in players]
    h = bets_history(rules, players, bets, jackpot=jackpot, hand_id=hand_id,
                     seat_fields=seat_fields)
    h.actions.append({"type": "deal"})
    h.pack = [str(c) for c in dealt]
    h.setup.update(shoe=shoe, **(extra_setup or {}))
    h.result = {"chips": list(stacks_after),
                "player": [str(c) for c in settled.player],
                "banker": [str(c) for c in settled.banker],
                "jackpot_award": settled.jackpot_award.name.lower(),
                "settlements": [{"seat": order.index(seat), "name": players[order.index(seat)][1],
                                 "kind": s.kind.value,
                                 "stake": s.stake, "outcome": s.outcome, "won": s.won,
                                 "commission": s.commission, "returned": s.returned}
                                for seat, s in settled.settlements]}
    return h


def bets_history(rules: BaccaratRules, players: Sequence[Player],
                 bets: Sequence[tuple[int, dict[WagerKind, Cents]]], *,
                 jackpot: dict[str, Cents] | None, hand_id: str = "",
                 seat_fields: Sequence[dict[str, Any]] | None = None) -> HandHistory:
    """A coup before its deal: the seats with wagers and their stacks before, each seat's
    bets (what a restart resumes, `cardroom.room.play.resume`; `coup_history` adds the deal)."""
    order = [seat for seat, _, _ in players]
    seats = [{"seat": i, "name": n, "chips": c, **(seat_fields[i] if seat_fields else {})}
             for i, (_, n, c) in enumerate(players)]
    actions: list[dict[str, Any]] = [
        {"type": "bet", "seat": order.index(seat), "bets": {k.value: v for k, v in b.items()}}
        for seat, b in bets]
    return HandHistory(game="baccarat", hand_id=hand_id, rules=rules.model_dump(mode="json"),
                       seats=seats, pack=[], setup={"unit": UNIT, "jackpot": jackpot},
                       actions=actions)
