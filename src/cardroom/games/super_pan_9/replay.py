"""Super Pan 9 hand histories (`cardroom.history`): replaying one round through the table
engine (`SuperPan9Table`), which checks every wager and decision itself; the settlement (rules
4, 8, 9) follows the last action, as at the table. The format: docs/hand-history.md."""

from __future__ import annotations

from typing import Any, ClassVar

from cardroom.history import GameReplay, HandHistory, Replayed
from cardroom.houserules import build_rules

from . import events as sp9
from .engine import Phase, SuperPan9Table
from .rules import SuperPan9Rules


class Replay(GameReplay[sp9.RoundSettled]):
    """The engine with the recorded cards as its shoe (`recorded_shoe`)."""

    game, title = "super-pan-9", "Super Pan 9"
    settled_key = "settlements"
    fields: ClassVar[dict[str, Any]] = {
        "kind": sp9.IrregularityKind, "reason": lambda why: why if isinstance(why, str) else ""}
    defaults: ClassVar[dict[str, Any]] = {"tie": 0}
    settles = (sp9.RoundSettled,)
    decided: ClassVar[dict[str, dict[str, str]]] = {"reveal": {"cards": sp9.DEALER}}

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        rules = build_rules(SuperPan9Rules, h.rules, "history rules")
        self.read_seats(h, "seat")
        self.check_pack(rules.shoe_spec, False, f"cards cannot come from a {rules.shoe_size}"
                        f"-card Super Pan 9 shoe of {rules.decks} deck(s) (rule 1: 36 cards a "
                        "deck, the 7s, 8s, 9s, 10s and jokers removed)")
        self.table = SuperPan9Table(rules, shoe=self.recorded_shoe(rules.shoe_spec))
        self.seat_players(self.table.sit)

    steps: ClassVar[dict[str, Any]] = {
        "wager": (sp9.WAGERS, "place_wager seat amount tie"), "deal": (sp9.DEAL, "deal"),
        "draw": (sp9.ONE_CARD, "draw seat"), "stand": (sp9.ONE_CARD, "stand seat"),
        "reveal": (sp9.DEALER, "reveal"), "dealer_draw": (sp9.DEALER, "dealer_draw"),
        "irregularity": (sp9.IRREGULARITIES, "record_irregularity kind seat? reason"),
        "settle": (sp9.SETTLEMENT, "settle")}
    """An irregularity: the engine voids the hands the house policy says (a void settlement
    returns their wagers)."""

    def finish(self, actions: int) -> None:
        """The settlement follows the dealer's turn (rules 4, 8, 9)."""
        if self.result is None and self.table.phase is Phase.REVEALED:
            self.result = self.table.settle()
            self.moves(actions - 1, self.result)

    def moves(self, index: int, settled: sp9.RoundSettled) -> None:
        """Each seat's wager and tie bet won or lost (the commission, where one is taken)."""
        for s in settled.seats:
            who, st = self.seat_numbers.index(s.seat), s.settlement
            for what, net, commission in (("wager", st.main_net, st.commission),
                                          ("tie bet", st.tie_net, st.tie_commission)):
                result = st.outcome.value if what == "wager" else (
                    "wins" if net > 0 else "loses")
                self.move(index, who, net, f"{what} {result}"
                          + (f" (commission {commission})" if commission else ""))

    def final(self) -> list[int]:
        """The engine's stacks, less the stakes of a round not settled."""
        t, down = self.table, self.result is None
        return [t.chips[s] - (t.seats[s].wager + t.seats[s].tie_wager
                              if down and s in t.seats else 0) for s in self.seat_numbers]

    def outcome(self) -> str:
        if self.result is None:
            return f"unfinished ({self.table.phase.value})"
        return f"dealer {self.result.dealer_total}; " + ", ".join(
            f"seat {s.seat} {'' if s.player_total is None else f'{s.player_total} '}"
            f"{s.settlement.outcome.value}" for s in self.result.seats)

    def replayed(self, settled: sp9.RoundSettled) -> Replayed | None:
        return Replayed({"dealer_total": settled.dealer_total}, "settlements",
                        ("seat", "outcome", "net"),
                        [(s.seat, s.settlement.outcome.value, s.settlement.net)
                         for s in settled.seats])

