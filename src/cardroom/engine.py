"""The engine protocol: the one shape every game's state machine follows.

- **Events**: an engine appends frozen `Event` objects to its log `events`; each event class
  names the rule clause it applies (`Event.clause`) and, when it stands for an action of the
  hand history, that action (`Event.history_action`). `history_actions` derives the history's
  ``actions`` from the log: one function for every game.
- **Actions as verify / can / do**: `verify_x(...)` raises a `RuleError` naming the broken
  clause and changes nothing; `can_x(...)` answers (`able`); `x(...)`, decorated `@action`,
  runs `verify_x` itself first, then applies and logs.
- **Void**: every engine has `void(reason)`, recorded as a `Voided` event: the hand in
  progress ends with every wager returned and nothing settled.
- **The game's flow** (OpenSpiel's ``State``): `seats_to_act` (who may act now: seat numbers,
  or `TABLE` for the table's or dealer's own step), `legal_actions` (typed `Action` values,
  applied by `apply` through the checked ``@action`` path), `is_over`, `settlement` (each
  seat's net in cents once over) and `view` (what a `Viewer` may see).

A small engine, to show the protocol:

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Counted(Event):
...     clause = "rule 1 (counting)"
...     n: int
...     def history_action(self) -> dict[str, Any]:
...         return {"type": "count", "n": self.n}
>>> class Counter(Engine):
...     def __init__(self) -> None:
...         self.events: list[Event] = []
...         self.total = 0
...     def verify_count(self, n: int) -> None:
...         if n <= 0:
...             raise RuleError("rule 1 (counting)", "count a positive number")
...     can_count = able(verify_count)
...     @action
...     def count(self, n: int) -> Counted:
...         self.total += n
...         return self._log(Counted(n))
...     def _void(self, reason: str) -> int:
...         back, self.total = self.total, 0
...         return back
>>> c = Counter()
>>> c.count(2)
Counted(n=2)
>>> c.can_count(0)
False
>>> c.count(0)
Traceback (most recent call last):
...
cardroom.engine.RuleError: count a positive number
>>> c.total, history_actions(c.events)
(2, [{'type': 'count', 'n': 2}])
>>> c.void("the floor's call")
Voided(reason="the floor's call", returned=2)
>>> c.total, c.events[-1].clause
(0, 'engine protocol: a void (every wager returned)')

The same engine carrying its flow: the table counts until it reaches 3.

>>> class Game(Counter):
...     def table_seats(self) -> list[Seat]:
...         return [TABLE]
...     def _offers(self, seat: Seat) -> list[Action]:
...         return [Action("count", (n,)) for n in (1, 2, -1)]
...     def is_over(self) -> bool:
...         return self.total >= 3
...     def _settlement(self) -> dict[int, int]:
...         return {}
>>> g = Game()
>>> g.seats_to_act(), g.legal_actions()[0]
(('table',), Action(name='count', args=(1,), seat='table'))
>>> [a.args for a in g.legal_actions()]
[(1,), (2,)]
>>> g.apply(Action("count", (2,))); g.apply(Action("count", (1,)))
Counted(n=2)
Counted(n=1)
>>> g.is_over(), g.settlement()
(True, {})
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Concatenate, Final, Literal, ParamSpec, TypeVar

from cardroom.cards import Card
from cardroom.errors import CardroomError, IllegalActionError, WagerError

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound="Engine")
E = TypeVar("E", bound="Event")


@dataclass(frozen=True, slots=True)
class Event:
    """A frozen record of something that happened at the table, appended to the engine's log.

    >>> Voided("misdeal").clause
    'engine protocol: a void (every wager returned)'
    """

    clause: ClassVar[str] = ""
    """The rule clause the event applies ("" where no single clause does)."""
    supersedes: ClassVar[frozenset[str]] = frozenset()
    """History actions this event takes back (a misdeal: the deal and the settings before
    it, redealt after it)."""

    def __deepcopy__(self, memo: dict[int, object]) -> Event:
        """An event is immutable (frozen, its fields values): a copy (a live table's
        checkpoint, taken at every action) shares it instead of rebuilding the log."""
        return self

    def history_action(self) -> dict[str, Any] | None:
        """The hand-history action this event stands for, or None (bookkeeping only)."""
        return None

    def takes_back(self, action: dict[str, Any]) -> bool:
        """Whether this event takes back an earlier history action: those of the kinds it
        `supersedes`, or (an event that overrides this) the wagers a seat withdraws."""
        return action["type"] in self.supersedes

    def dealt(self) -> tuple[Card, ...]:
        """The cards this event took from the shoe or deck, in the order they left it."""
        return ()


@dataclass(frozen=True, slots=True)
class Voided(Event):
    """The hand in progress voided (`Engine.void`): every wager goes back, nothing settles."""

    clause: ClassVar[str] = "engine protocol: a void (every wager returned)"
    reason: str
    returned: int = 0
    """The stakes the void itself handed back (those an earlier event of the log returned,
    e.g. an irregularity's, are in that event)."""


def history_pack(events: Iterable[Event]) -> list[str]:
    """The hand history's ``pack`` for a game whose history holds the cards dealt: every
    card the log's events dealt, in order; an event that `supersedes` the deal (a misdeal)
    starts it again.

    >>> history_pack([])
    []
    """
    out: list[str] = []
    for ev in events:
        if "deal" in ev.supersedes:
            out = []
        out += [str(c) for c in ev.dealt()]
    return out


def history_actions(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The hand history's ``actions``, derived from an engine's event log (one hand's events):
    each event's `history_action` in order; an event that `takes_back` earlier actions (a
    misdeal's redeal, a seat's withdrawn wagers) removes them. A `Voided` event gives no
    action: the room writes the void (`cardroom.history.VOID`) with who voided and why.

    >>> history_actions([Voided("x")])
    []
    """
    out: list[dict[str, Any]] = []
    for ev in events:
        out = [a for a in out if not ev.takes_back(a)]
        act = ev.history_action()
        if act is not None:
            out.append(act)
    return out


NO_WAGER = "you have no wager on this hand to change"
"""Every banked game's refusal to change (or take back) the wagers of a seat that has none."""


class RuleError(IllegalActionError):
    """An action a rule refuses: `clause` names the rule, `message` says why in one sentence.

    >>> err = RuleError("rule 6 (one card)", "seat 2 has already drawn")
    >>> err.clause, str(err)
    ('rule 6 (one card)', 'seat 2 has already drawn')
    """

    cite: ClassVar[bool] = False
    """Whether the message shown ends with the clause in brackets (Pan's habit)."""

    def __init__(self, clause: str, message: str) -> None:
        self.clause = clause
        self.message = message
        super().__init__(f"{message} ({clause})" if self.cite else message)


class WagerRefused(RuleError, WagerError):
    """A wager a rule refuses (limits, stack, seat): both a `RuleError` and a `WagerError`."""


def able(verify: Callable[Concatenate[S, P], None]) -> Callable[Concatenate[S, P], bool]:
    """`can_x` from `verify_x`: True when `verify_x` raises nothing with these arguments.

    Written once for every engine (``can_x = able(verify_x)`` in the class body)."""

    @functools.wraps(verify)
    def can(self: S, /, *args: P.args, **kwargs: P.kwargs) -> bool:
        try:
            verify(self, *args, **kwargs)
        except (CardroomError, ValueError):
            return False
        return True

    can.__name__ = can.__qualname__ = verify.__name__.replace("verify_", "can_", 1)
    can.__doc__ = f"Whether `{verify.__name__}` allows this action now."
    return can


def _jsonable(v: object) -> Any:
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, bool | int | str | float | None):
        return v
    return str(v)  # a card, an enum member


def action(fn: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Make `fn` (named ``x``) an engine action: a call first runs ``verify_x`` with the same
    arguments (when the engine has one: an action made of other actions verifies through
    them), then applies; `unchecked` applies it without the check. An engine whose `record`
    is true appends each top-level call (name and arguments, JSON-ready) to `actions`: the
    replay input of Pan's hand history."""
    sig = inspect.signature(fn)
    name = fn.__name__
    verify_name = f"verify_{name}"

    def apply(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if not self.record:
            return fn(self, *args, **kwargs)
        self._depth += 1
        try:
            out = fn(self, *args, **kwargs)
        finally:
            self._depth -= 1
        if self._depth == 0:
            bound = sig.bind(self, *args, **kwargs)
            bound.apply_defaults()
            entry = {"type": name}
            entry.update({k: _jsonable(v) for k, v in bound.arguments.items() if k != "self"})
            self.actions.append(entry)
        return out

    @functools.wraps(fn)
    def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        verify = getattr(self, verify_name, None)
        if verify is not None:
            verify(*args, **kwargs)
        return apply(self, *args, **kwargs)

    wrapper.is_action = True  # type: ignore[attr-defined]
    wrapper.unchecked = apply  # type: ignore[attr-defined]
    return wrapper


def unchecked(act: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Apply the engine action `act` (a bound ``@action`` method, ``hand.discard``) without
    its ``verify_x``, recorded as any call is. Only for a caller that took this very move
    from the engine's own legal moves in this state (a bot choosing among them), where the
    check would pass and only cost time; people, replays and anything read from outside keep
    the checked path. Anything but a plain bound action (one wrapped by a test, say) is
    called as it is, checked."""
    try:
        apply: Callable[..., R] = act.__func__.unchecked  # type: ignore[attr-defined]
    except AttributeError:
        return act(*args, **kwargs)
    return apply(act.__self__, *args, **kwargs)  # type: ignore[attr-defined]


TABLE: Final = "table"
"""In `Engine.seats_to_act` and `Action.seat`: the table's (or dealer's) own step, no seat's:
a deal, the dealer's draws, a settlement, the next hand."""

Seat = int | str
"""A seat number, or `TABLE`."""


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action, typed: the engine ``@action``'s `name` and its positional `args`, as
    `Engine.apply` calls it, and the `seat` that takes it (`TABLE`: the table's own step). A
    seat's action takes the seat (or the spot it plays) as its first argument.

    >>> Action("draw", (3,), 3)
    Action(name='draw', args=(3,), seat=3)
    """

    name: str
    args: tuple[Any, ...] = ()
    seat: Seat = TABLE


Role = Literal["player", "dealer", "floor", "auditor"]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at the table: a player at `seat`, the dealer, the floor or an auditor."""

    role: Role
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What `viewer` may see (`Engine.view`): `table`, the engine's own per-viewer snapshot
    (the one the room sends that viewer), and for an auditor once the hand is over the whole
    event log, hidden cards included (`log`, empty for everyone else)."""

    viewer: Viewer
    table: dict[str, Any]
    log: tuple[Event, ...] = ()


def amounts(least: int, most: int, chips: int | None = None) -> tuple[int, ...]:
    """The representative amounts a legal wager lists where any amount between the limits
    is legal: the table's least, its most and a round amount between (whole dollars), each
    no more than the seat's `chips` where the engine keeps them, and those chips (all in)
    where they are less than the most. Any other amount the limits allow is just as legal
    (`can_x` says): the list is not exhaustive for these actions (`Engine.free`).

    >>> amounts(500, 30_000), amounts(500, 30_000, 2_000)
    ((500, 15200, 30000), (500, 2000))
    """
    mid = max(least, (least + most) // 200 * 100)
    cap = most if chips is None else min(most, chips)
    return tuple(a for a in sorted({least, mid, most, cap}) if least <= a <= cap)


class Engine:
    """What every game's state machine offers (a mixin: each engine keeps its own fields).

    Subclasses hold `events`, write their actions as ``verify_x`` / ``can_x = able(verify_x)``
    / ``@action x``, and implement `_void`; for the game's flow, `table_seats`, `_offers`,
    `is_over`, `_settlement` and `_snapshot`.

    The flow is the table's, which lives from hand to hand: while a hand is in play
    `seats_to_act` and `legal_actions` are that hand's; once it is over (`is_over`) they are
    the next hand's first moves (the table's step that starts it, or the first wagers where
    the table needs none)."""

    events: list[Any]
    record: bool = False
    """True: every top-level action call is kept in `actions` (Pan's history)."""
    actions: list[dict[str, Any]]
    _depth: int = 0

    def _log(self, event: E) -> E:
        self.events.append(event)
        return event

    @classmethod
    def action_names(cls) -> list[str]:
        """Every `@action` of this engine, by name."""
        return sorted(n for n in dir(cls) if getattr(getattr(cls, n), "is_action", False))

    def void(self, reason: str) -> Voided:
        """Void the hand in progress: every wager of the hand goes back to its owner, no card
        still to come is dealt, nothing settles; the table is ready for the next hand. The
        engine's own state is reset by `_void`; the void is logged as a `Voided` event (the
        room writes the history's void action, with who voided: `cardroom.history.VOID`)."""
        return self._log(Voided(reason, self._void(reason)))

    def _void(self, reason: str) -> int:
        """Reset the engine's own state for a void; return the stakes handed back."""
        raise NotImplementedError

    # ----- the game's flow ---------------------------------------------------------------

    free: ClassVar[frozenset[str]] = frozenset()
    """The actions that take a free amount (wagers): `legal_actions` lists representative
    amounts (`amounts`) for them, not every legal one; for every other action the list is
    exhaustive for the play (what it does not list, `can_x` refuses). Seating and the
    floor's irregularity actions (misdeals, exposed cards) are never listed."""

    def seats_to_act(self) -> tuple[Seat, ...]:
        """Who may act now: the seats with a legal action (in seat order), then `TABLE`
        where the table's own step is legal."""
        return tuple(s for s in self.table_seats() if any(True for _ in self._legal(s)))

    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """The legal actions of `seat` (None: of everyone in `seats_to_act`), each one its
        `can_x` accepts; free amounts as `free` says."""
        seats = self.table_seats() if seat is None else [seat]
        return [a for s in seats for a in self._legal(s)]

    def _legal(self, seat: Seat) -> Iterable[Action]:
        return (a for a in self._offers(seat) if self.can(a))

    def can(self, a: Action) -> bool:
        """Whether `apply(a)` would be accepted now (the action's own `can_x`)."""
        target = self.actor(a)
        if self._action(target, a) is None:
            return False
        can = getattr(target, "can_" + a.name, None)
        if can is None:  # an action made of others (Pan's knock): whether it is listed
            return a in self.legal_actions(a.seat)
        return bool(can(*a.args))

    def apply(self, a: Action) -> Any:
        """Apply `a` through its checked ``@action`` (``verify_x`` first: a refused action
        raises and changes nothing); returns what the action returns (its event)."""
        fn = self._action(self.actor(a), a)
        if fn is None:
            raise RuleError("engine protocol", f"{a.name!r} is not an action of this game")
        return fn(*a.args)

    @staticmethod
    def _action(target: Engine, a: Action) -> Callable[..., Any] | None:
        """`target`'s ``@action`` that `a` names, bound; None when `a` names none."""
        fn = getattr(target, a.name, None)
        return fn if getattr(fn, "is_action", False) else None

    def is_over(self) -> bool:
        """Whether the hand last begun is over (settled or voided) and the next not begun."""
        raise NotImplementedError

    def settlement(self) -> dict[int, int]:
        """Once the hand is over, each seat's net in cents (won: positive; lost: negative;
        a void: nothing); a seat's money after the hand is its money before plus its net."""
        if not self.is_over():
            raise RuleError("engine protocol", "the hand is not over: nothing is settled yet")
        return self._settlement()

    def view(self, viewer: Viewer) -> View:
        """What `viewer` may see: a player their seat's snapshot; the dealer and the floor
        what the table shows face up; an auditor that too and, once the hand is over, the
        whole log."""
        seat = viewer.seat if viewer.role == "player" else None
        log = tuple(self.events) if viewer.role == "auditor" and self.is_over() else ()
        return View(viewer, self._snapshot(seat), log)

    def table_seats(self) -> list[Seat]:
        """Every seat that could act at this table (`seats_to_act` keeps those with a legal
        action), then `TABLE`."""
        raise NotImplementedError

    def _offers(self, seat: Seat) -> Iterable[Action]:
        """The actions worth listing for `seat` now (`legal_actions` keeps those `can`
        accepts)."""
        raise NotImplementedError

    def _settlement(self) -> dict[int, int]:
        raise NotImplementedError

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        """The table as `seat` sees it (None: as everyone sees it)."""
        raise NotImplementedError

    def actor(self, a: Action) -> Engine:
        """What takes `a`: the engine, or its part in play (Pan's hand: `PanTable.hand`)."""
        return self
