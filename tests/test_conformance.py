"""Conformance of every registered game's engine to the engine protocol (`cardroom.engine`),
the OpenSpiel `api_test` habit: random legal play (seeded, the seed in the test's name) to the
end of many hands, and between any two moves:

- `can_x` agrees with `verify_x` for every move tried, legal or not;
- a refused move raises a `CardroomError` and changes nothing (the engine pickles the same
  before and after);
- the money is conserved (stacks, stakes on the layout and the house's or the tops' share);
- no viewer's view holds a card they may not see (the engine's per-viewer snapshot, or the
  history's redaction where the engine has no such view);

and at each hand's end its history replays (`cardroom.history.replay`) to the same result.
`engine.void` is checked too: every stake back, the table ready for the next hand. A new game
gets all of it by adding its adapter to `conformance_games.GAMES`."""

from __future__ import annotations

import contextlib
import doctest
import pickle
import random

import pytest
from conformance_games import GAMES, Game, Hand, cards_in

import cardroom.engine
from cardroom.engine import Engine, RuleError, Voided
from cardroom.errors import CardroomError
from cardroom.history import HandHistory, replay

SEED = 11
PROBES = 5
"""Moves tried between two moves of the play."""


def probe(game: Game, h: Hand) -> None:
    """Every move the adapter lists: `can_x` == `verify_x` passes; a refused one changes
    nothing."""
    e = h.engine
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


FIXED = frozenset({"rules", "way", "source", "_source", "pack", "specs"})
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_legal_play_keeps_the_protocol(name: str) -> None:
    game = GAMES[name]
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_void_returns_every_stake_and_is_logged(name: str) -> None:
    """`engine.void(reason)`: a `Voided` event closes the log, the money is as before the hand
    and the engine takes the next hand's first move."""
    game = GAMES[name]
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
        if name != "pan":  # a Pan hand ends with its void; the next is a new `PanHand`
            assert game.legal(h)


class _Stop(Exception):
    pass


def test_every_registered_engine_writes_its_actions_with_verify_and_can() -> None:
    """The protocol's shape, checked once for every game: each `@action x` has `verify_x`
    and `can_x` (except the composite Pan actions that verify through the ones they call)."""
    composite = {"knock", "foul_by_false_out"}
    for game in GAMES.values():
        e = game.start(random.Random(1)).engine
        for name in e.action_names():
            if name in composite:
                continue
            assert callable(getattr(e, "verify_" + name)), (game.name, name)
            assert callable(getattr(e, "can_" + name)), (game.name, name)


def test_rule_error_names_the_clause() -> None:
    err = RuleError("rule 6 (one card)", "seat 2 has already drawn")
    assert err.clause == "rule 6 (one card)" and str(err) == "seat 2 has already drawn"


def test_engine_protocol_doctests() -> None:
    """The examples in `cardroom.engine`'s docstrings (its public API) run as written."""
    result = doctest.testmod(cardroom.engine)
    assert result.attempted >= 10 and result.failed == 0
