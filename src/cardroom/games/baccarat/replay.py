"""Replaying a baccarat hand history (`cardroom.history`; the format and its writer:
`cardroom.games.baccarat.history`) through the same table engine that dealt it."""

from __future__ import annotations

from typing import Any, ClassVar

from cardroom.errors import CardroomError
from cardroom.history import GameReplay, HandHistory, HistoryError, Replayed
from cardroom.houserules import build_rules
from cardroom.progressive_pool import JackpotPool

from .coup import hand_total
from .rules import BaccaratRules
from .table import BaccaratTable, CoupSettled
from .wagers import WagerKind


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
    """The bets and the deal through `BaccaratTable` (the table's seats numbered as the
    history's, from 0); stacks, hands and every settlement compared with the recorded
    result."""

    game, title = "baccarat", "baccarat"
    settled_key = "player"
    void_shows_no_card = "a voided coup's history holds no card (the deal is never half done)"
    errors = (CardroomError, TypeError, ValueError, IndexError)
    stacks = "balances"
    settles = (CoupSettled,)
    fields: ClassVar[dict[str, Any]] = {
        "bets": lambda bets: {WagerKind.parse(str(k)): v for k, v in bets.items()}}

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        rules = build_rules(BaccaratRules, h.rules, "history rules")
        self.table = BaccaratTable(rules, pool=_pool(rules, h.setup.get("jackpot")))
        self.read_seats(h, "name")
        self.seat_players(self.table.restore_seat)
        self.check_pack(rules.shoe_spec, False, f"cards cannot come from a {rules.decks}-deck "
                        "baccarat shoe (52 cards a deck, no joker)")
        # the recorded cards alone: the tableau decides how many the coup deals, all of them
        self.table.shoe = self.recorded_shoe()

    steps: ClassVar[dict[str, Any]] = {"bet": "place_bets seat bets", "deal": "deal"}

    def moves(self, index: int, settled: CoupSettled) -> None:
        for seat, s in settled.settlements:
            self.move(index, seat, s.net, s.words)

    def rule_of(self, action: dict[str, Any], exc: Exception) -> tuple[str, str]:
        if isinstance(exc, CardroomError):
            return "baccarat rules", str(exc)
        return "history", f"malformed action: {exc}"

    def outcome(self) -> str:
        if self.result is None:
            return "not dealt"
        p, b = hand_total(self.result.player), hand_total(self.result.banker)
        return ("tie" if p == b else ("player" if p > b else "banker") + " wins") + \
            f" {p}-{b}; jackpot {self.result.jackpot_award.name.lower()}"

    def replayed(self, settled: CoupSettled) -> Replayed | None:
        return Replayed(
            {hand: [str(c) for c in getattr(settled, hand)] for hand in ("player", "banker")},
            "settlements", ("seat", "kind", "outcome", "won", "commission"),
            [(seat, s.kind.value, s.outcome, s.won, s.commission)
             for seat, s in settled.settlements])
