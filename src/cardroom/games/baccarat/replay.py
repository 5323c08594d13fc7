"""Baccarat hand histories in the project's shared format (`cardroom.history`): writing one for
a coup dealt at a `BaccaratTable`, and replaying one through the same table engine.

A baccarat history holds one coup. Money is in cents (``setup.unit``), ``seats`` are the
players with wagers in the coup and their stacks before it, ``pack`` the cards dealt in this
coup in order (never the rest of the shoe: those cards are still to be dealt), ``setup.shoe``
the shoe's commitment (and, for a fresh shoe, its cut and burn), ``setup.jackpot`` the pool
before the coup, ``actions`` each seat's bets and then the deal, and ``result`` the stacks
after, the two hands and each wager's settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardroom.cards import Card, parse_card
from cardroom.errors import CardroomError, ShoeError
from cardroom.history import (
    VOID,
    HandHistory,
    HistoryError,
    ReplayFailure,
    ReplayReport,
    void_outcome,
    void_refusal,
)
from cardroom.houserules import build_rules
from cardroom.money import Cents
from cardroom.shoe import Shoe

from .coup import hand_total
from .jackpot import JackpotPool
from .rules import BaccaratRules
from .table import BaccaratTable, CoupSettled
from .wagers import WagerKind

UNIT = "cents"
HOUSE = "house"
"""Who pays and takes the banked side of every wager (a movement's payer or payee `None`)."""


def coup_history(rules: BaccaratRules, stacks_before: Sequence[tuple[str, Cents]],
                 bets: Sequence[tuple[str, dict[WagerKind, Cents]]], dealt: Sequence[Card],
                 settled: CoupSettled, stacks_after: Sequence[Cents], *,
                 shoe: dict[str, Any], jackpot: dict[str, Cents] | None,
                 hand_id: str = "", extra_setup: dict[str, Any] | None = None,
                 seat_fields: Sequence[dict[str, Any]] | None = None) -> HandHistory:
    """The history of one coup. `stacks_before` are the stacks before any wager of the coup;
    `bets` in the order they went down; `dealt` every card of the coup in order."""
    names = [n for n, _ in stacks_before]
    seats = [{"seat": i, "name": n, "chips": c, **(seat_fields[i] if seat_fields else {})}
             for i, (n, c) in enumerate(stacks_before)]
    actions: list[dict[str, Any]] = [
        {"type": "bet", "seat": names.index(name), "bets": {k.value: v for k, v in b.items()}}
        for name, b in bets]
    actions.append({"type": "deal"})
    return HandHistory(
        game="baccarat", hand_id=hand_id, rules=rules.model_dump(mode="json"), seats=seats,
        pack=[str(c) for c in dealt],
        setup={"unit": UNIT, "shoe": shoe, "jackpot": jackpot, **(extra_setup or {})},
        actions=actions,
        result={"chips": list(stacks_after),
                "player": [str(c) for c in settled.player],
                "banker": [str(c) for c in settled.banker],
                "jackpot_award": settled.jackpot_award.name.lower(),
                "settlements": [{"seat": names.index(seat), "name": seat, "kind": s.kind.value,
                                 "stake": s.stake, "outcome": s.outcome, "won": s.won,
                                 "commission": s.commission, "returned": s.returned}
                                for seat, s in settled.settlements]})


def _pool(rules: BaccaratRules, data: Any) -> JackpotPool | None:
    if not rules.jackpot:
        return None
    if not isinstance(data, dict):
        raise HistoryError("a jackpot table's history needs setup.jackpot (the pool before)")
    try:
        return JackpotPool(rules.jackpot_seed_cents, rules.contribution_cents_per_dollar,
                           meter=int(data["meter"]), posted=int(data["posted"]),
                           seeded_total=int(data.get("seeded_total", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"setup.jackpot malformed: {exc}") from None


def _start(h: HandHistory) -> tuple[BaccaratTable, list[str], list[Card]]:
    rules = build_rules(BaccaratRules, h.rules, "history rules")
    table = BaccaratTable(rules, pool=_pool(rules, h.setup.get("jackpot")))
    if not rules.jackpot:
        table.pool = None
    try:
        names = [str(s["name"]) for s in h.seats]
        for s in h.seats:
            table.balances[str(s["name"])] = int(s["chips"])
        pack = [parse_card(c) for c in h.pack]
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"history seats or pack malformed: {exc}") from None
    if len(set(names)) != len(names):
        raise HistoryError("history seats must have different names")
    # the coup's cards, checked against the shoe before any action: 52 a deck, no joker
    problem = rules.shoe_spec.pack_problem(pack, whole=False)
    if problem is not None:
        raise HistoryError(f"the history's cards cannot come from a {rules.decks}-deck baccarat "
                           f"shoe (52 cards a deck, no joker): {problem}; nothing was replayed")
    return table, names, pack


def _apply(table: BaccaratTable, names: list[str], pack: list[Card],
           action: dict[str, Any]) -> CoupSettled | None:
    kind = action.get("type")
    if kind == "bet":
        seat, raw = action.get("seat"), action.get("bets")
        if not isinstance(seat, int) or not 0 <= seat < len(names) or not isinstance(raw, dict):
            raise HistoryError("a bet needs a seat number and its bets")
        bets = {WagerKind.parse(str(k)): v for k, v in raw.items()}
        table.place_bets(names[seat], bets)
        return None
    if kind == "deal":
        # the recorded cards as the shoe, its cut card beyond them: the engine deals them in
        # its own order (the tableau decides how many); too few cards is an error
        table.shoe = Shoe(order=list(pack), cut_index=len(pack) + 1, salt=b"")
        try:
            settled = table.deal()
        except ShoeError:
            raise HistoryError("the recorded cards run out before the coup is complete") \
                from None
        if table.shoe.position != len(pack):
            raise HistoryError(f"the coup used {table.shoe.position} of the "
                               f"{len(pack)} recorded cards")
        return settled
    raise HistoryError(f"unknown baccarat action {kind!r}")


def replay_history(h: HandHistory) -> ReplayReport:
    """Apply the bets and the deal through `BaccaratTable`; compare stacks, hands and every
    settlement with the recorded result."""
    table, names, pack = _start(h)
    start = [table.balances[n] for n in names]
    failure = None
    applied = 0
    movements: list[dict[str, Any]] = []
    settled: CoupSettled | None = None
    voided: dict[str, Any] | None = None
    for i, act in enumerate(h.actions):
        if act.get("type") == VOID:
            why = void_refusal(h, i, settled is not None) or (
                "a voided coup's history holds no card (the deal is never half done)"
                if h.pack else None)
            if why is not None:
                failure = ReplayFailure(i, act, "void", why)
                break
            voided, applied = act, applied + 1
            break
        try:
            out = _apply(table, names, pack, act)
        except CardroomError as exc:
            failure = ReplayFailure(i, act, "baccarat rules", str(exc))
            break
        except (TypeError, ValueError, IndexError) as exc:
            failure = ReplayFailure(i, act, "history", f"malformed action: {exc}")
            break
        applied += 1
        if out is not None:
            settled = out
            for seat, s in out.settlements:
                who = names.index(seat)
                if s.net > 0:
                    movements.append({"index": i, "payer": None, "payee": who,
                                      "chips": s.net, "reason": f"{s.kind.value} {s.outcome}"})
                elif s.net < 0:
                    movements.append({"index": i, "payer": who, "payee": None,
                                      "chips": -s.net, "reason": f"{s.kind.value} {s.outcome}"})
    final = start if voided is not None else [table.balances[n] for n in names]
    if voided is not None:
        outcome = void_outcome(voided)
    elif settled is None:
        outcome = "not dealt"
    else:
        p, b = hand_total(settled.player), hand_total(settled.banker)
        outcome = ("tie" if p == b else ("player" if p > b else "banker") + " wins") + \
            f" {p}-{b}; jackpot {settled.jackpot_award.name.lower()}"
    matches = None
    if failure is None and h.result:
        matches = _matches(h.result, final, settled, names)
    return ReplayReport("baccarat", len(h.actions), applied, names, start, final, movements,
                        outcome, failure, matches, unit=UNIT, house=HOUSE)


def _matches(result: dict[str, Any], final: list[Cents], settled: CoupSettled | None,
             names: list[str]) -> bool:
    if "chips" in result and list(result["chips"]) != final:
        return False
    if settled is None:
        return "player" not in result
    if "player" in result and (result["player"] != [str(c) for c in settled.player]
                               or result["banker"] != [str(c) for c in settled.banker]):
        return False
    if "settlements" in result:
        again = [(names.index(seat), s.kind.value, s.outcome, s.won, s.commission)
                 for seat, s in settled.settlements]
        recorded = [(r.get("seat"), r.get("kind"), r.get("outcome"), r.get("won"),
                     r.get("commission")) for r in result["settlements"]]
        if again != recorded:
            return False
    return True
