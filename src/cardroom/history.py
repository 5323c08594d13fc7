"""Hand histories: one JSON document per hand, for every game of the project.

Format (``"format": "cardroom.hand-history"``, ``"version": 1``)::

    {
      "format": "cardroom.hand-history", "version": 1,
      "game": "pan",                      # the game's package name, dashes allowed
      "hand_id": "...",                   # free text, optional
      "rules": {...},                     # the house rules as the game's model dumps them
      "seats": [{"seat": 0, "name": "Ann", "chips": 20, ...}],   # chips before the hand
      "pack": ["As", "3c", ...],          # the shuffled pack, first card dealt first;
                                          # "??" for a card no one saw (Pan's stock)
      "setup": {...},                     # game-specific: dealer, irregular deal, carried pots
      "actions": [{"type": "declare", "seat": 1, "play": true}, ...],   # in order
      "result": {"chips": [...]}          # optional: chips after the hand, checked on replay
    }

Baccarat (`cardroom.games.baccarat.replay`) counts ``chips`` in cents (``setup.unit``), its
``pack`` is the cards dealt in the coup, and ``setup.shoe`` holds the shoe's commitment.

A game supports replay by providing ``replay_history(history)`` returning a `ReplayReport`
in a module named in `REPLAYERS`, the one table `replay` (the CLI's ``cardroom replay FILE``,
the room's recall) dispatches on by the history's ``game`` field. The format of each game's
``setup``, ``actions`` and ``result`` is in docs/hand-history.md.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom.errors import CardroomError

FORMAT = "cardroom.hand-history"
VERSION = 1
HIDDEN_CARD = "??"
"""In a history's ``pack`` (or an action's cards): a card no one saw, still in the stock when
the record was written. Its place is kept out of every record (a later turn or deal may take
it); a replayer puts there the cards of the pack that the history does not name."""


class HistoryError(CardroomError):
    """A hand-history file that cannot be read or is not a hand history."""


@dataclass
class HandHistory:
    game: str
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    pack: list[str]
    actions: list[dict[str, Any]]
    setup: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    hand_id: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "hand_id": self.hand_id,
            "rules": self.rules, "seats": self.seats, "pack": self.pack, "setup": self.setup,
            "actions": self.actions,
        }
        if self.result is not None:
            out["result"] = self.result
        return out

    @classmethod
    def from_json(cls, data: Any, source: str = "history") -> HandHistory:
        if not isinstance(data, dict):
            raise HistoryError(f"{source}: a hand history is a JSON object")
        if data.get("format") != FORMAT:
            raise HistoryError(f"{source}: not a cardroom hand history (format {FORMAT!r})")
        if data.get("version") != VERSION:
            raise HistoryError(f"{source}: unsupported version {data.get('version')!r}")
        for key, typ in (("game", str), ("rules", dict), ("seats", list), ("pack", list),
                         ("actions", list)):
            if not isinstance(data.get(key), typ):
                raise HistoryError(f"{source}: missing or malformed {key!r}")
        if not all(isinstance(a, dict) and isinstance(a.get("type"), str)
                   for a in data["actions"]):
            raise HistoryError(f"{source}: every action needs a 'type'")
        return cls(game=data["game"], rules=data["rules"], seats=data["seats"],
                   pack=data["pack"], actions=data["actions"], setup=data.get("setup") or {},
                   result=data.get("result"), hand_id=str(data.get("hand_id", "")))

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


def load_history(path: str | Path) -> HandHistory:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HistoryError(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HistoryError(f"{p}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise HistoryError(f"{p}: not valid JSON: {exc}") from None
    return HandHistory.from_json(data, str(p))


def save_history(history: HandHistory, path: str | Path) -> None:
    Path(path).write_text(history.dumps() + "\n", encoding="utf-8")


@dataclass(frozen=True)
class ReplayFailure:
    index: int
    action: dict[str, Any]
    rule: str
    message: str


@dataclass
class ReplayReport:
    """What a replay found: every chip movement, the settlement, and the first illegal action
    (nothing after it is applied)."""

    game: str
    actions_total: int
    actions_applied: int
    names: list[str]
    start_chips: list[int]
    final_chips: list[int]
    movements: list[dict[str, Any]]
    outcome: str
    failure: ReplayFailure | None = None
    result_matches: bool | None = None
    unit: str = "chips"
    """What the amounts count: Pan's whole chips, or cents (baccarat)."""
    house: str = "tops"
    """Who a movement with no payer or payee is: Pan's tops, baccarat's house."""

    @property
    def ok(self) -> bool:
        return self.failure is None and self.result_matches is not False

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "ok": self.ok, "unit": self.unit, "house": self.house,
            "actions_total": self.actions_total,
            "actions_applied": self.actions_applied, "outcome": self.outcome,
            "failure": None if self.failure is None else {
                "index": self.failure.index, "action": self.failure.action,
                "rule": self.failure.rule, "message": self.failure.message},
            "result_matches": self.result_matches,
            "movements": self.movements,
            "settlement": [
                {"seat": i, "name": n, "before": a, "after": b, "net": b - a}
                for i, (n, a, b) in enumerate(zip(self.names, self.start_chips,
                                                  self.final_chips, strict=True))],
        }


REPLAYERS: dict[str, str] = {
    "baccarat": "cardroom.games.baccarat.replay",
    "pan": "cardroom.games.pan.replay",
    "super-pan-9": "cardroom.games.super_pan_9.replay",
    "pai-gow": "cardroom.games.pai_gow.replay",
}
"""Every game's replayer module (one `replay_history` each), by the history's ``game``."""


def replay(history: HandHistory) -> ReplayReport:
    """Replay a history of any game of the project, through that game's own engine."""
    module = REPLAYERS.get(history.game) or REPLAYERS.get(history.game.replace("_", "-"))
    if module is None:
        raise HistoryError(f"no replayer for the game {history.game!r} (games: "
                           f"{', '.join(sorted(REPLAYERS))})")
    mod = importlib.import_module(module)
    report: ReplayReport = mod.replay_history(history)
    return report


VOID = "void"
"""The last action of a voided hand: ``{"type": "void", "by": WHO, "reason": WHY}`` (the floor's
reason, or "recovery"); every wager goes back, nothing is settled."""


def void_refusal(h: HandHistory, index: int, settled: bool) -> str | None:
    """Why the void at `index` cannot stand (`None`: it stands)."""
    act = h.actions[index]
    if index != len(h.actions) - 1:
        return "a void ends the hand: no action may follow it"
    if settled:
        return "the hand is settled: it can no longer be voided"
    by, reason = act.get("by"), act.get("reason")
    if not isinstance(by, str) or not by or not isinstance(reason, str):
        return "a void names who voided the hand ('by') and why ('reason')"
    return None


def void_outcome(act: dict[str, Any]) -> str:
    return f"voided by {act.get('by')}: {act.get('reason')}; every wager returned"
