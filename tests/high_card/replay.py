"""High Card's replay adapter (`cardroom.history.GameReplay`): the engine dealt the recorded
cards (``pack``: the seats' cards in seat order, then the house's); ``actions`` are
``{"type": "wager", "seat": 1, "amount": 200}``, ``{"type": "withdraw", "seat": 1}`` and
``{"type": "deal"}``, which settles at once (rule 3)."""

from __future__ import annotations

from typing import Any, ClassVar

from cardroom.history import GameReplay, HandHistory
from cardroom.houserules import build_rules

from .engine import DEAL, WAGER, HighCardRules, HighCardTable, Settled


class Replay(GameReplay[Settled]):
    game, title = "high-card", "High Card"

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        self.read_seats(h, "seat")
        self.table = HighCardTable(build_rules(HighCardRules, h.rules, "history rules"),
                                   order=self.pack)
        self.seat_players(self.table.sit)

    def deal(self, index: int, action: dict[str, Any]) -> None:
        self.result = self.table.deal()
        for s in self.result.seats:
            self.move(index, self.seat_numbers.index(s.seat), s.net,
                      "wins" if s.net > 0 else "loses")

    steps: ClassVar[dict[str, Any]] = {
        "wager": (WAGER, "place_wager seat amount"), "withdraw": (WAGER, "withdraw seat"),
        "deal": (DEAL, deal)}

    def final(self) -> list[int]:
        return [self.table.stacks[s] for s in self.seat_numbers]

    def outcome(self) -> str:
        if self.result is None:
            return "unfinished (no deal)"
        return f"house {self.result.house}; " + ", ".join(
            f"seat {s.seat} {s.card} {'wins' if s.net > 0 else 'loses' if s.net else 'pushes'}"
            for s in self.result.seats)
