"""The conformance suite (`test_conformance.py`), as functions that take one game's adapter
(`conformance_games.Game`): a game registered by a test of its own (the registry's toy game)
runs the very same checks."""

from __future__ import annotations

import contextlib
import pickle
import random

import pytest
from conformance_games import Game, Hand, cards_in

from cardroom.engine import Engine, Voided
from cardroom.errors import CardroomError
from cardroom.history import HandHistory, replay

SEED = 11
PROBES = 5
"""Moves tried between two moves of the play."""


def probe(game: Game, h: Hand) -> None:
    """Every move the adapter lists: `can_x` == `verify_x` passes; a refused one changes
    nothing."""
    e = game.actor(h)
    moves = game.moves(h)
    for name, args in h.rng.sample(moves, min(PROBES, len(moves))):
        can = getattr(e, "can_" + name)(*args)
        try:
            getattr(e, "verify_" + name)(*args)
            verified = True
        except (CardroomError, ValueError):
            verified = False
        assert can == verified, f"{game.name}: can_{name}{args} is {can}, verify says {verified}"
        if can:
            continue
        before = state(e)
        with pytest.raises((CardroomError, ValueError)):
            getattr(type(e), name)(e, *args)
        assert state(e) == before, f"{game.name}: the refused {name}{args} changed state"


FIXED = frozenset({"rules", "way", "source", "pack", "specs"})
"""What no move changes (the house rules, the house way's tables, the random source, Pan's
pack and seats as dealt); the logs only grow, so their lengths stand for them."""
LOGS = frozenset({"events", "actions"})


def state(e: Engine) -> bytes:
    """The engine's state, pickled: everything a move may change."""
    return pickle.dumps({k: len(v) if k in LOGS else v for k, v in vars(e).items()
                         if k not in FIXED and not callable(v)})


def check_views(game: Game, h: Hand) -> None:
    for viewer, view, allowed in game.views(h):
        shown = set(cards_in(view))
        assert shown <= allowed, f"{game.name}: {viewer} sees {sorted(shown - allowed)}"


def check_replay(game: Game, h: Hand) -> None:
    history = HandHistory.from_json(game.history(h).to_json())
    report = replay(history)
    assert report.ok, (game.name, report.failure, report.outcome)
    assert report.final_chips == game.final(h)
    assert report.actions_applied == len(history.actions)


def check_clauses(game: Game, h: Hand) -> None:
    """Engine protocol: every event of the log names the rule clause it applies."""
    unnamed = {type(ev).__name__ for ev in h.engine.events if not ev.clause}
    assert not unnamed, f"{game.name}: events naming no clause: {sorted(unnamed)}"


def play_checked(game: Game) -> None:
    """Random legal play to the end of `game.hands` hands, every check between two moves and
    the replay and clause checks at each hand's end."""
    name = game.name
    rng = random.Random(f"{SEED}-{name}")
    h = game.start(rng)
    total = game.money(h)

    def step() -> None:
        probe(game, h)
        assert game.money(h) == total, f"{name}: money not conserved"
        check_views(game, h)

    for _ in range(game.hands):
        game.play(h, step)
        step()
        check_replay(game, h)
        check_clauses(game, h)
        h = game.next_hand(h)
        total = game.money(h)


def void_checked(game: Game) -> None:
    """`engine.void(reason)`: a `Voided` event closes the log, the money is as before the hand
    and the engine, which lives as long as its table, takes the next hand's first move."""
    name = game.name
    rng = random.Random(f"{SEED}-void-{name}")
    for k in range(6):
        h = game.start(rng)
        total = game.money(h)
        moves = 0
        target = rng.randint(0, 12)

        def step(h: Hand = h, target: int = target) -> None:
            nonlocal moves
            moves += 1
            if moves == target:
                raise _Stop

        with contextlib.suppress(_Stop):
            game.play(h, step)
        e: Engine = h.engine
        event = e.void(f"floor call {k}")
        assert isinstance(event, Voided) and e.events[-1] is event
        assert game.money(h) == total
        assert e.action_names()  # the table goes on: some first move is legal again
        assert game.legal(h)


class _Stop(Exception):
    pass
