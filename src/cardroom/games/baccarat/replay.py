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

from cardroom.cards import Card
from cardroom.errors import CardroomError, ShoeError
from cardroom.history import GameReplay, HandHistory, HistoryError, Replayed
from cardroom.houserules import build_rules
from cardroom.money import Cents
from cardroom.progressive_pool import JackpotPool
from cardroom.shoe import Shoe

from .coup import hand_total
from .rules import BaccaratRules
from .table import BaccaratTable, CoupSettled
from .wagers import WagerKind

UNIT = "cents"


def coup_history(rules: BaccaratRules, stacks_before: Sequence[tuple[str, Cents]],
                 bets: Sequence[tuple[str, dict[WagerKind, Cents]]], dealt: Sequence[Card],
                 settled: CoupSettled, stacks_after: Sequence[Cents], *,
                 shoe: dict[str, Any], jackpot: dict[str, Cents] | None,
                 hand_id: str = "", extra_setup: dict[str, Any] | None = None,
                 seat_fields: Sequence[dict[str, Any]] | None = None) -> HandHistory:
    """The history of one coup. `stacks_before` are the stacks before any wager of the coup;
    `bets` in the order they went down; `dealt` every card of the coup in order."""
    names = [n for n, _ in stacks_before]
    h = bets_history(rules, stacks_before, bets, jackpot=jackpot, hand_id=hand_id,
                     seat_fields=seat_fields)
    h.actions.append({"type": "deal"})
    h.pack = [str(c) for c in dealt]
    h.setup.update(shoe=shoe, **(extra_setup or {}))
    h.result = {"chips": list(stacks_after),
                "player": [str(c) for c in settled.player],
                "banker": [str(c) for c in settled.banker],
                "jackpot_award": settled.jackpot_award.name.lower(),
                "settlements": [{"seat": names.index(seat), "name": seat, "kind": s.kind.value,
                                 "stake": s.stake, "outcome": s.outcome, "won": s.won,
                                 "commission": s.commission, "returned": s.returned}
                                for seat, s in settled.settlements]}
    return h


def bets_history(rules: BaccaratRules, stacks_before: Sequence[tuple[str, Cents]],
                 bets: Sequence[tuple[str, dict[WagerKind, Cents]]], *,
                 jackpot: dict[str, Cents] | None, hand_id: str = "",
                 seat_fields: Sequence[dict[str, Any]] | None = None) -> HandHistory:
    """A coup before its deal: the seats with wagers and their stacks before, each seat's
    bets (what a restart resumes, `cardroom.room.resume`; `coup_history` adds the deal)."""
    names = [n for n, _ in stacks_before]
    seats = [{"seat": i, "name": n, "chips": c, **(seat_fields[i] if seat_fields else {})}
             for i, (n, c) in enumerate(stacks_before)]
    actions: list[dict[str, Any]] = [
        {"type": "bet", "seat": names.index(name), "bets": {k.value: v for k, v in b.items()}}
        for name, b in bets]
    return HandHistory(game="baccarat", hand_id=hand_id, rules=rules.model_dump(mode="json"),
                       seats=seats, pack=[], setup={"unit": UNIT, "jackpot": jackpot},
                       actions=actions)


def _pool(rules: BaccaratRules, data: Any) -> JackpotPool | None:
    if not rules.jackpot:
        return None
    if not isinstance(data, dict):
        raise HistoryError("a jackpot table's history needs setup.jackpot (the pool before)")
    try:
        return JackpotPool(rules.jackpot_seed_cents, rules.contribution_cents_per_dollar,
                           meter=int(data["meter"]), posted=int(data["posted"]),
                           seeded_total=int(data.get("seeded_total", 0)),
                           maximum=int(data.get("maximum", 0)))
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"setup.jackpot malformed: {exc}") from None


class Replay(GameReplay[CoupSettled]):
    """The bets and the deal through `BaccaratTable`; stacks, hands and every settlement
    compared with the recorded result."""

    game = "baccarat"
    void_shows_no_card = "a voided coup's history holds no card (the deal is never half done)"
    errors = (CardroomError, TypeError, ValueError, IndexError)

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        rules = build_rules(BaccaratRules, h.rules, "history rules")
        self.table = table = BaccaratTable(rules, pool=_pool(rules, h.setup.get("jackpot")))
        self.read_seats(h, "name")
        for name, chips in zip(self.names, self.start, strict=True):
            table.restore_seat(name, chips)
        # the coup's cards, checked against the shoe before any action: 52 a deck, no joker
        problem = rules.shoe_spec.pack_problem(self.pack, whole=False)
        if problem is not None:
            raise HistoryError(f"the history's cards cannot come from a {rules.decks}-deck "
                               "baccarat shoe (52 cards a deck, no joker): "
                               f"{problem}; nothing was replayed")

    def apply(self, index: int, action: dict[str, Any]) -> None:
        table, names, kind = self.table, self.names, action.get("type")
        if kind == "bet":
            seat, raw = action.get("seat"), action.get("bets")
            if not isinstance(seat, int) or not 0 <= seat < len(names) or \
                    not isinstance(raw, dict):
                raise HistoryError("a bet needs a seat number and its bets")
            table.place_bets(names[seat], {WagerKind.parse(str(k)): v for k, v in raw.items()})
        elif kind == "deal":
            self.deal(index)
        else:
            raise HistoryError(f"unknown baccarat action {kind!r}")

    def deal(self, index: int) -> None:
        # the recorded cards as the shoe, its cut card beyond them: the engine deals them in
        # its own order (the tableau decides how many); too few cards is an error
        table, pack = self.table, self.pack
        table.shoe = Shoe(order=list(pack), cut_index=len(pack) + 1, salt=b"")
        try:
            self.result = settled = table.deal()
        except ShoeError:
            raise HistoryError("the recorded cards run out before the coup is complete") \
                from None
        if table.shoe.position != len(pack):
            raise HistoryError(f"the coup used {table.shoe.position} of the "
                               f"{len(pack)} recorded cards")
        for seat, s in settled.settlements:
            who = self.names.index(seat)
            why = s.words
            if s.net > 0:
                self.movements.append({"index": index, "payer": None, "payee": who,
                                       "chips": s.net, "reason": why})
            elif s.net < 0:
                self.movements.append({"index": index, "payer": who, "payee": None,
                                       "chips": -s.net, "reason": why})

    def rule_of(self, action: dict[str, Any], exc: Exception) -> tuple[str, str]:
        if isinstance(exc, CardroomError):
            return "baccarat rules", str(exc)
        return "history", f"malformed action: {exc}"

    def final(self) -> list[int]:
        return [self.table.balances[n] for n in self.names]

    def outcome(self) -> str:
        if self.result is None:
            return "not dealt"
        p, b = hand_total(self.result.player), hand_total(self.result.banker)
        return ("tie" if p == b else ("player" if p > b else "banker") + " wins") + \
            f" {p}-{b}; jackpot {self.result.jackpot_award.name.lower()}"

    settled_key = "player"

    def replayed(self, settled: CoupSettled) -> Replayed | None:
        return Replayed(
            {"player": [str(c) for c in settled.player],
             "banker": [str(c) for c in settled.banker]},
            "settlements", ("seat", "kind", "outcome", "won", "commission"),
            [(self.names.index(seat), s.kind.value, s.outcome, s.won, s.commission)
             for seat, s in settled.settlements])
