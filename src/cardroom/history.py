"""Hand histories: one JSON document per hand, for every game of the project.

Format (``"format": "cardroom.hand-history"``, ``"version": 1``)::

    {
      "format": "cardroom.hand-history", "version": 1,
      "game": "...",                      # the game's registered name (`registry`)
      "hand_id": "...",                   # free text, optional
      "rules": {...},                     # the house rules as the game's model dumps them
      "seats": [{"seat": 0, "name": "Ann", "chips": 20, ...}],   # chips before the hand
      "pack": ["As", "3c", ...],          # the shuffled pack, first card dealt first;
                                          # "??" for a card no one saw (Pan's stock)
      "setup": {...},                     # game-specific: dealer, irregular deal, carried pots
      "actions": [{"type": "declare", "seat": 1, "play": true}, ...],   # in order
      "result": {"chips": [...]},         # optional: chips after the hand, checked on replay
      "irregularities": [{"kind": "misdeal", "by": "fiona", "reason": "..."}]
                                          # optional: the floor's irregularities, who and why
    }

One replay driver (`drive`) serves every game: a game supports replay by a small adapter, a
`GameReplay` subclass, its game's `replay` part in the registry (`cardroom.registry`), which
`replay` (the CLI's ``cardroom replay FILE``, the room's recall) dispatches on by the
history's ``game`` field. The format of each game's ``setup``, ``actions`` and ``result`` is
in docs/hand-history.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar, cast

from cardroom import registry
from cardroom.cards import Card, parse_card
from cardroom.engine import Engine, RuleError
from cardroom.errors import CardroomError, ShoeError, read_document
from cardroom.shoe import Shoe, ShoeSpec, pack_problem

FORMAT = "cardroom.hand-history"
VERSION = 1
HIDDEN_CARD = "??"
"""In a history's ``pack`` (or an action's cards): a card no one saw, still in the stock when
the record was written. Its place is kept out of every record (a later turn or deal may take
it); a replayer puts there the cards of the pack that the history does not name."""


def with_hidden_filled(cards: list[Any], whole: Iterable[Card], what: str) -> list[Card]:
    """`cards` with each `HIDDEN_CARD` replaced by the cards of `whole` that `cards` does not
    name, in sorted order: no play depends on where an unseen card lay."""
    known = [parse_card(c) for c in cards if c != HIDDEN_CARD]
    rest = Counter(whole)
    rest.subtract(Counter(known))
    if any(n < 0 for n in rest.values()) or rest.total() != len(cards) - len(known):
        raise HistoryError(f"the {what}'s hidden cards are not the rest of the {what}")
    fill = iter(sorted(rest.elements()))
    return [next(fill) if c == HIDDEN_CARD else parse_card(c) for c in cards]


def whole_number(value: Any) -> int:
    """A field's reader (`GameReplay.fields`): a whole number, never a flag."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _cards(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise TypeError(value)
    return tuple(parse_card(c) for c in value)


FIELDS: dict[str, Callable[[Any], Any]] = {
    "card": parse_card, **dict.fromkeys(("cards", "borrowed", "part", "order", "front"), _cards)}
"""How a recorded action's field becomes its engine action's argument, by the field's name: a
card, or a list of cards (a meld, a front hand, a reshuffled stock...), parsed; any other field
goes as recorded (the engine checks it)."""


def read_field(kind: str, name: str, value: Any, own: Mapping[str, Callable[[Any], Any]]
               ) -> Any:
    """The field `name` of a recorded action of type `kind` as its engine action takes it
    (`FIELDS`, the game's `own` readers); one that is not what its name says refuses the
    action (a card that is no card: the card's own refusal)."""
    read = own.get(name) or FIELDS.get(name)
    try:
        return value if read is None else read(value)
    except (TypeError, AttributeError, ValueError) as exc:
        if isinstance(exc, CardroomError):
            raise
        raise HistoryError(f"a {kind!r} action needs its {name}") from None


def arguments(action: dict[str, Any], own: Mapping[str, Callable[[Any], Any]]
              ) -> dict[str, Any]:
    """Every field of a recorded action but its type, as its engine action's keyword arguments
    (`read_field`; None stays None): the replay input of a game whose history records its
    engine's calls."""
    kind = str(action.get("type"))
    return {k: None if v is None else read_field(kind, k, v, own)
            for k, v in action.items() if k != "type"}


def apply_named(engine: Engine, action: dict[str, Any],
                own: Mapping[str, Callable[[Any], Any]], title: str) -> Any:
    """A recorded action that is the engine's own ``@action`` of its type, called with its
    `arguments` by name: the replay of a history that records an engine's calls
    (`cardroom.engine.Engine.record`). Any other type, or arguments the action does not take,
    is a `RuleError` of the hand history. What the action returned."""
    kind = str(action.get("type"))
    act: Any = getattr(engine, kind, None)
    if not getattr(act, "is_action", False):
        raise RuleError("hand history", f"unknown {title} action {kind!r}")
    try:
        return act(**arguments(action, own))
    except TypeError as exc:
        raise RuleError("hand history", f"bad arguments for {kind}: {exc}") from None


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
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    """The floor's irregularities in the hand (who, why, what the house policy did), as the
    room recorded them; what they did to play is in `actions`."""
    taken_for: list[dict[str, Any]] = field(default_factory=list)
    """The actions someone else took for the player whose turn it was: `{"action": index
    into actions, "by": "timer" or the staff member, "seconds": the turn's length when the
    timer took it}` (docs/hand-history.md). The replay does not read it: the action is the
    same whoever chose it."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "hand_id": self.hand_id,
            "rules": self.rules, "seats": self.seats, "pack": self.pack, "setup": self.setup,
            "actions": self.actions,
        }
        if self.result is not None:
            out["result"] = self.result
        if self.irregularities:
            out["irregularities"] = self.irregularities
        if self.taken_for:
            out["taken_for"] = self.taken_for
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
        irregularities = data.get("irregularities") or []
        if not isinstance(irregularities, list) or \
                not all(isinstance(x, dict) for x in irregularities):
            raise HistoryError(f"{source}: malformed 'irregularities'")
        taken_for = data.get("taken_for") or []
        if not isinstance(taken_for, list) or \
                not all(isinstance(x, dict) for x in taken_for):
            raise HistoryError(f"{source}: malformed 'taken_for'")
        return cls(game=data["game"], rules=data["rules"], seats=data["seats"],
                   pack=data["pack"], actions=data["actions"], setup=data.get("setup") or {},
                   result=data.get("result"), hand_id=str(data.get("hand_id", "")),
                   irregularities=irregularities, taken_for=taken_for)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)


def load_history(path: str | Path) -> HandHistory:
    p = Path(path)
    data = read_document(p, json.loads, json.JSONDecodeError, "JSON", HistoryError)
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


Settlement = TypeVar("Settlement")


class GameReplay(Generic[Settlement]):
    """One game's replay adapter for `drive`: it builds the game's engine from the history
    (raising `HistoryError` for a history that cannot be set up) and applies one recorded
    action at a time through it; the engine checks every rule.

    The driver asks it: `apply` (raises on an illegal action: a `RuleError` names its clause,
    anything else is reported by `rule_of`), `settled`, `finish` (what the table does after
    the last action, e.g. the settlement), `final`, `outcome`, `matches` and, for a voided
    hand, `void_problem`."""

    game: ClassVar[str]
    unit: ClassVar[str] = "cents"
    house: ClassVar[str] = "house"
    voids: ClassVar[bool] = True
    """Whether a history of this game may end in a void action (`VOID`)."""
    errors: ClassVar[tuple[type[Exception], ...]] = (CardroomError, TypeError, ValueError)
    """What an illegal or malformed action may raise."""

    title: ClassVar[str] = ""
    """The game's name in the refusal of an action it does not know."""
    steps: ClassVar[dict[str, Any]] = {}
    """How `apply` applies each recorded action type: ``"engine_action field ..."`` calls that
    action of `table` with those recorded fields in order (`field`; ``"seat?"``: the field may
    be absent), anything else is the adapter's method, called with the action's index and the
    action. A pair ``(clause, step)`` names the clause a refusal that is not a `RuleError` (a
    malformed amount) cites."""
    fields: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    """The game's own field readers, by field name, beside the shared ones (`FIELDS`)."""
    defaults: ClassVar[dict[str, Any]] = {}
    """A field's value where the recorded action has none."""
    decided: ClassVar[dict[str, dict[str, str]]] = {}
    """The recorded fields the engine decides (a start position, the house way's front), by
    action type, each with the clause that refuses a record the engine's event does not
    match (its own record, `cardroom.engine.Event.history_action`)."""
    settles: ClassVar[tuple[type, ...]] = ()
    """The engine's settlement events: a step that returns one settles the hand (`result`,
    its `moves`)."""
    hides: ClassVar[bool] = False
    """Whether the history's pack may hold `HIDDEN_CARD`s (counted in `hidden`)."""

    names: list[str]
    start: list[int]
    table: Any
    shoe: Shoe | None = None
    """The recorded cards as the engine's shoe (`recorded_shoe`), where the engine deals from
    one: a hand never deals more cards than its history records, nor settles on fewer."""

    def __init__(self, h: HandHistory) -> None:
        self.history = h
        self.movements: list[dict[str, Any]] = []
        self.result: Settlement | None = None
        """What the engine's settlement returned; None until the hand is settled."""

    def read_seats(self, h: HandHistory, by: str) -> None:
        """`names`, `start` (the chips before the hand), `seat_numbers` and the `pack` as
        cards; the seats told apart `by` their "seat" number or their "name" (then numbered
        from 0)."""
        try:
            self.seat_numbers = [int(s["seat"]) for s in h.seats] if by == "seat" else \
                list(range(len(h.seats)))
            self.names = [str(s["name"]) for s in h.seats]
            self.start = [int(s["chips"]) for s in h.seats]
            self.pack: list[Card] = [parse_card(c) for c in h.pack
                                     if not self.hides or c != HIDDEN_CARD]
            self.hidden = len(h.pack) - len(self.pack)
        except (KeyError, TypeError, ValueError) as exc:
            raise HistoryError(f"history seats or pack malformed: {exc}") from None
        keys: list[Any] = self.seat_numbers if by == "seat" else self.names
        if len(set(keys)) != len(keys):
            what = "seat numbers" if by == "seat" else "names"
            raise HistoryError(f"history seats must have different {what}")

    def check_pack(self, shoe: ShoeSpec | list[Card], whole: bool, what: str) -> None:
        """Refuse, before any action, a `pack` that cannot come from `shoe` (or, `whole`, is
        not exactly it, its `hidden` places the rest): the history's `what` (what it must
        be), the problem."""
        cards = shoe.cards() if isinstance(shoe, ShoeSpec) else shoe
        problem = pack_problem(self.pack, cards, whole, self.hidden)
        if problem is not None:
            raise HistoryError(f"the history's {what}: {problem}; nothing was replayed")

    def recorded_shoe(self, spec: ShoeSpec | None = None) -> Shoe:
        """The recorded cards as the engine's shoe, its cut card beyond them (the engine deals
        them in its own order); with `spec`, the rest of that shoe after them (sorted, never
        dealt if the history is whole), so that the engine sees a shoe large enough."""
        rest = Counter(spec.cards() if spec else ())
        rest.subtract(Counter(self.pack))
        order = [*self.pack, *sorted(rest.elements())]
        self.shoe = Shoe(order=order, cut_index=len(order) + 1, salt=b"")
        return self.shoe

    def seat_players(self, sit: Callable[[int, int], object]) -> None:
        """Seat each of the history's players at the engine (`sit`) with the chips before."""
        for seat, chips in zip(self.seat_numbers, self.start, strict=True):
            sit(seat, chips)

    def apply(self, index: int, action: dict[str, Any]) -> Any:
        """Apply one recorded action by its `steps` entry (an unknown type is refused), its
        `decided` fields checked, within the recorded cards (`shoe`); a settlement it returns
        settles the hand (`settles`). What the step returned (the engine's event)."""
        kind = action.get("type")
        step = self.steps.get(kind) if isinstance(kind, str) else None
        if step is None:
            raise HistoryError(f"unknown {self.title} action {kind!r}")
        try:
            event = self.take(str(kind), step[1] if isinstance(step, tuple) else step, index,
                              action)
        except ShoeError:  # a recorded shoe of exactly the recorded cards ran out
            raise self.overdrawn() from None
        for name, clause in self.decided.get(str(kind), {}).items():
            engine = event.history_action()[name]
            if action.get(name) is not None and action[name] != engine:
                raise RuleError(clause, f"the recorded {name} {action[name]} is not the "
                                f"engine's {engine}")
        used = None if self.shoe is None else self.shoe.position
        if used is not None and used > len(self.pack):
            raise self.overdrawn()
        if isinstance(event, self.settles):
            self.result = settled = cast(Settlement, event)
            if used is not None and used < len(self.pack):
                raise HistoryError(f"the hand used {used} of the {len(self.pack)} recorded cards")
            self.moves(index, settled)
        return event

    def take(self, kind: str, step: Any, index: int, action: dict[str, Any]) -> Any:
        """`step` applied: an adapter's method, or an engine action with the recorded fields
        its string names (`steps`)."""
        if not isinstance(step, str):
            return step(self, index, action)
        call, *specs = step.split()
        return getattr(self.table, call)(*(self.field(kind, action, f) for f in specs))

    def overdrawn(self) -> HistoryError:
        return HistoryError(f"the {len(self.pack)} recorded cards run out before the hand is "
                            "complete")

    def moves(self, index: int, settled: Settlement) -> None:
        """The chip movements of the settlement `settled` at action `index` (`pay`, `move`)."""

    def field(self, kind: str, action: dict[str, Any], spec: str) -> Any:
        """The recorded field `spec` names as the engine takes it: a seat one of the
        history's (`recorded_seat`), else `read_field` with the game's `fields`."""
        name = spec.rstrip("?")
        value = action.get(name, self.defaults.get(name))
        if value is None and spec != name:
            return None
        if name == "seat":
            return self.recorded_seat(action)
        return read_field(kind, name, value, self.fields)

    def rule_of(self, action: dict[str, Any], exc: Exception) -> tuple[str, str]:
        """The rule and message a failure reports for `exc`, not a `RuleError`."""
        if isinstance(exc, HistoryError):
            return "hand history", str(exc)
        step = self.steps.get(str(action.get("type")))
        return step[0] if isinstance(step, tuple) else f"{self.game} rules", str(exc)

    @property
    def settled(self) -> bool:
        return self.result is not None

    def recorded_seat(self, action: dict[str, Any], key: str = "seat") -> int:
        """The seat number an action names under `key`, one of the history's seats."""
        seat = action.get(key)
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                seat not in self.seat_numbers:
            raise HistoryError(f"{key} {seat!r} is not one of the history's seats")
        return seat

    def pay(self, index: int, payer: int | None, payee: int | None, chips: int,
            reason: str) -> None:
        """A movement of `chips` at action `index` from `payer` to `payee` (each a seat's
        index in the history, None: the house); none where the two are one or nothing moves."""
        if payer != payee and chips:
            self.movements.append({"index": index, "payer": payer, "payee": payee,
                                   "chips": chips, "reason": reason})

    def move(self, index: int, who: int, net: int, reason: str) -> None:
        """A wager of seat `who` settled against the house: `net` won (> 0) or lost (< 0); a
        push moves nothing."""
        if net:
            self.pay(index, None if net > 0 else who, who if net > 0 else None, abs(net),
                     reason)

    def finish(self, actions: int) -> None:
        """After the last action: what the table does by itself (nothing by default)."""

    void_shows_no_card: ClassVar[str] = ""
    """Why a voided hand's history must name no card (the game deals none before it can be
    voided, or its cards are hidden); "" where it may."""

    def void_problem(self, h: HandHistory) -> str | None:
        """Why this voided history cannot stand beyond `void_refusal` (cards it shows)."""
        if self.void_shows_no_card and h.pack:
            return self.void_shows_no_card
        if self.shoe is not None and self.shoe.position != len(self.pack):
            return ("a voided hand's history holds only the cards dealt before the void "
                    "(hidden information stays hidden)")
        return None

    stacks: ClassVar[str] = "chips"
    """The engine's stacks by seat number (`table`'s attribute of that name), for `final`."""

    def final(self) -> list[int]:
        """Each seat's stack after the replay."""
        return [getattr(self.table, self.stacks)[seat] for seat in self.seat_numbers]

    def outcome(self) -> str:
        raise NotImplementedError

    def matches(self, result: dict[str, Any], final: list[int]) -> bool | None:
        """Whether the recorded ``result`` is what the replay gives: the stacks after the
        hand, then the game's own fields (`result_matches`)."""
        if "chips" in result and list(result["chips"]) != final:
            return False
        return self.result_matches(result)

    def replayed(self, result: Settlement) -> Replayed | None:
        """What the replay settled (`result`), in the recorded result's own fields; None for
        a game whose result records no more than the stacks."""
        return None

    settled_key: ClassVar[str] = ""
    """A field only a settled hand's recorded result has ("": the game records none)."""

    def result_matches(self, result: dict[str, Any]) -> bool:
        """Each field the record holds equals the replay's, and its rows (those with an
        outcome) are the replay's rows, in any order."""
        if self.result is None:
            return not self.settled_key or self.settled_key not in result
        again = self.replayed(self.result)
        if again is None:
            return True
        if any(k in result and result[k] != v for k, v in again.fields.items()):
            return False
        if again.rows_key not in result:
            return True
        recorded = Counter(tuple(r.get(f) for f in again.row_fields)
                           for r in result[again.rows_key] if r.get("outcome") is not None)
        return recorded == Counter(again.rows)


@dataclass(frozen=True)
class Replayed:
    """A replayed hand's result as its history records it: `fields` (e.g. the dealer's
    total), and under `rows_key` one row a seat or spot, each the values of `row_fields`."""

    fields: dict[str, Any]
    rows_key: str
    row_fields: tuple[str, ...]
    rows: list[tuple[Any, ...]]


def drive(h: HandHistory, adapter: type[GameReplay[Any]]) -> ReplayReport:
    """The one replay loop: apply every action through the game's engine (`adapter`); stop at
    the first illegal one (its index and rule reported, nothing after it applied); a void
    action ends the hand with every stack as it was before; then compare with ``result``."""
    return run(adapter(h), h)


def run(r: GameReplay[Any], h: HandHistory) -> ReplayReport:
    """`drive` with the adapter already built: a caller that goes on from the replayed engine
    (the room resuming a hand in play after a restart, `cardroom.room.play.resume`) keeps `r`."""
    failure: ReplayFailure | None = None
    applied = 0
    voided: dict[str, Any] | None = None
    for i, act in enumerate(h.actions):
        if act.get("type") == VOID and r.voids:
            why = void_refusal(h, i, r.settled) or r.void_problem(h)
            if why is not None:
                failure = ReplayFailure(i, act, "void", why)
            else:
                voided, applied = act, applied + 1
            break
        try:
            r.apply(i, act)
        except r.errors as exc:
            failure = ReplayFailure(i, act, *_failure(r, act, exc))
            break
        applied += 1
    if failure is None and voided is None:
        try:
            r.finish(len(h.actions))
        except CardroomError as exc:
            settle = {"type": "settle"}
            failure = ReplayFailure(len(h.actions), settle, *_failure(r, settle, exc))
    if voided is not None:
        final, movements, outcome = list(r.start), [], void_outcome(voided)
    else:
        final, movements, outcome = r.final(), r.movements, r.outcome()
    matches = r.matches(h.result, final) if failure is None and h.result else None
    return ReplayReport(r.game, len(h.actions), applied, r.names, list(r.start), final,
                        movements, outcome, failure, matches, unit=r.unit, house=r.house)


def _failure(r: GameReplay[Any], action: dict[str, Any], exc: Exception) -> tuple[str, str]:
    if isinstance(exc, RuleError):
        return exc.clause, str(exc)
    return r.rule_of(action, exc)


def replayer(game: str) -> type[GameReplay[Any]]:
    """The replay adapter of `game`, a registered game (`cardroom.registry`)."""
    entry = registry.find(game) or registry.find(game.replace("_", "-"))
    if entry is None:
        raise HistoryError(f"no replayer for the game {game!r} (games: "
                           f"{', '.join(sorted(registry.names()))})")
    adapter = registry.load(entry.replay)
    assert isinstance(adapter, type) and issubclass(adapter, GameReplay)
    return adapter


def replay(history: HandHistory) -> ReplayReport:
    """Replay a history of any registered game (`cardroom.registry`), through that game's
    own engine."""
    return drive(history, replayer(history.game))


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
