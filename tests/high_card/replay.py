"""High Card's replay adapter (`cardroom.history.GameReplay`): the engine dealt the recorded
cards (``pack``: the seats' cards in seat order, then the house's); ``actions`` are
``{"type": "wager", "seat": 1, "amount": 200}``, ``{"type": "withdraw", "seat": 1}`` and
``{"type": "deal"}``, which settles at once (rule 3)."""

from __future__ import annotations

from typing import Any, ClassVar

from cardroom.history import GameReplay, HandHistory, HistoryError
from cardroom.houserules import build_rules

from .engine import DEAL, WAGER, HighCardRules, HighCardTable, Settled


class Replay(GameReplay[Settled]):
    game = "high-card"
    rule_of_action: ClassVar[dict[str, str]] = {"wager": WAGER, "withdraw": WAGER, "deal": DEAL}

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        self.read_seats(h, "seat")
        self.table = HighCardTable(build_rules(HighCardRules, h.rules, "history rules"),
                                   order=self.pack)
        for seat, chips in zip(self.seat_numbers, self.start, strict=True):
            self.table.sit(seat, chips)

    def apply(self, index: int, action: dict[str, Any]) -> None:
        kind = action.get("type")
        if kind == "wager":
            amount: Any = action.get("amount")  # the engine refuses one that is not cents
            self.table.place_wager(self.recorded_seat(action), amount)
        elif kind == "withdraw":
            self.table.withdraw(self.recorded_seat(action))
        elif kind == "deal":
            self.result = self.table.deal()
            self.movements = [
                {"index": index, "payer": None if s.net > 0 else who,
                 "payee": who if s.net > 0 else None, "chips": abs(s.net),
                 "reason": "wins" if s.net > 0 else "loses"}
                for s in self.result.seats if s.net
                for who in [self.seat_numbers.index(s.seat)]]
        else:
            raise HistoryError(f"unknown High Card action {kind!r}")

    def final(self) -> list[int]:
        return [self.table.stacks[s] for s in self.seat_numbers]

    def outcome(self) -> str:
        if self.result is None:
            return "unfinished (no deal)"
        return f"house {self.result.house}; " + ", ".join(
            f"seat {s.seat} {s.card} {'wins' if s.net > 0 else 'loses' if s.net else 'pushes'}"
            for s in self.result.seats)
