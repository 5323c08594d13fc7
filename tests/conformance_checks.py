"""The conformance suite (`test_conformance.py`), as functions that take one game's adapter
(`conformance_games.Game`): a game registered by a test of its own (the registry's toy game)
runs the very same checks."""

from __future__ import annotations

import contextlib
import pickle
import random

import pytest
from conformance_games import Game, Hand, cards_in, wrong

from cardroom.engine import Engine, RuleError, Viewer, Voided
from cardroom.errors import CardroomError
from cardroom.history import HandHistory, replay

SEED = 11
PROBES = 5
"""Moves tried between two moves of the play."""


def probe(game: Game, h: Hand) -> None:
    """Some of the moves the adapter lists: `can_x` == `verify_x`; a refused one changes
    nothing."""
    moves = game.moves(h)
    for a in h.rng.sample(moves, min(PROBES, len(moves))):
        e = h.engine.actor(a)
        if not hasattr(e, "verify_" + a.name):
            continue  # an action made of others (Pan's knock) verifies through them
        can = getattr(e, "can_" + a.name)(*a.args)
        try:
            getattr(e, "verify_" + a.name)(*a.args)
            verified = True
        except (CardroomError, ValueError):
            verified = False
        assert can == verified, f"{game.name}: can_{a.name}{a.args} is {can}, verify: {verified}"
        if can:
            continue
        before = state(e)
        with pytest.raises((CardroomError, ValueError)):
            h.engine.apply(a)
        assert state(e) == before, f"{game.name}: the refused {a} changed state"


def check_protocol(game: Game, h: Hand) -> None:
    """The game's flow (`Engine.seats_to_act`, `legal_actions`, `is_over`): every legal
    action is accepted (`can_x`); the seats to act are those with a legal action; while the
    hand is in play someone may act and nothing is settled; an action made wrong (`wrong`:
    for a seat not to act, an amount above every limit) is not listed and is refused."""
    e, name = h.engine, game.name
    legal = e.legal_actions()
    for a in legal:
        can_x = getattr(e.actor(a), "can_" + a.name, None)
        assert e.can(a) and (can_x is None or can_x(*a.args)), (name, a)
    assert list(e.seats_to_act()) == list(dict.fromkeys(a.seat for a in legal)), name
    if not game.over(h):
        assert legal, f"{name}: a hand in play where nobody may act"
    if not e.is_over():
        with pytest.raises(RuleError):
            e.settlement()
    for a in h.rng.sample(legal, min(3, len(legal))):
        for w in wrong(e, a):
            assert w not in legal and not e.can(w), f"{name}: {w} is accepted"


def check_settlement(game: Game, h: Hand) -> None:
    """At a hand's end: each seat's net is its money after less its money before (a seat
    the settlement does not name is as it was), so the nets sum to what the stacks gained;
    only an auditor's view holds the log."""
    e = h.engine
    assert e.is_over(), game.name
    net, stacks = e.settlement(), game.stacks(h)
    assert {s: stacks[s] - h.before[s] for s in stacks} == {
        s: net.get(s, 0) for s in stacks}, (game.name, net)
    assert sum(net.values()) == sum(stacks.values()) - sum(h.before.values())
    assert e.view(Viewer("auditor")).log == tuple(e.events)
    assert all(e.view(Viewer(r)).log == () for r in ("floor", "dealer")), game.name


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
        check_protocol(game, h)
        assert game.money(h) == total, f"{name}: money not conserved"
        check_views(game, h)

    for _ in range(game.hands):
        game.play(h, step)
        step()
        check_settlement(game, h)
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
