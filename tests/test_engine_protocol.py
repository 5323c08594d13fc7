"""The engine protocol's flow (`cardroom.engine`: `seats_to_act`, `legal_actions`, `apply`,
`is_over`, `settlement`, `view`), game by game, on hands whose cards are worked out here.
The conformance suite (`test_conformance.py`) drives every game through it at random; these
tests pin what each game lists at the moments that matter."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
import typing

import pytest

from cardroom.engine import TABLE, Action, Event, RuleError, Viewer
from cardroom.errors import CardroomError
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import BaccaratTable
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.games.pai_gow.rules import PaiGowRules
from cardroom.games.pai_gow.table import PaiGowTable
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.commands import Kind, legal_actions
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import SeatSpec
from cardroom.games.pan.rules import PanRules
from cardroom.games.super_pan_9 import SuperPan9Rules, SuperPan9Table
from cardroom.shoe import SeededRandom, fisher_yates


def test_an_action_goes_through_its_checked_path() -> None:
    """`apply` runs `verify_x`: a refused action raises and changes nothing; a name that is
    no `@action` of the game is refused, as is a settlement before the hand is over."""
    t = BaccaratTable(BaccaratRules(), SeededRandom(7))
    t.sit(1, 10_000)
    with pytest.raises(CardroomError, match="outside"):
        t.apply(Action("place_bets", (1, {WagerKind.BANKER: 50_000}), 1))
    assert t.bets == {} and t.balances == {1: 10_000}
    with pytest.raises(RuleError, match="not an action"):
        t.apply(Action("leave", (1,), 1))
    with pytest.raises(RuleError, match="not over"):
        t.settlement()


def test_baccarat_seats_bet_then_the_table_deals() -> None:
    """Before any bet only the seats act (nothing to deal); a bet down brings the deal; the
    coup settles at once: over, each seat's net, and every viewer sees the same face-up
    table."""
    t = BaccaratTable(BaccaratRules(), SeededRandom(7))
    t.sit(1, 10_000)
    t.sit(2, 300)  # under the $5 table minimum: only the tie bet ($1 to $3) is open to it
    assert t.seats_to_act() == (1, 2) and not t.is_over()
    assert {a.args[1].popitem()[0] for a in t.legal_actions(2)} == {WagerKind.TIE}
    assert t.legal_actions(9) == []  # nobody sits there
    t.apply(Action("place_bets", (1, {WagerKind.BANKER: 500}), 1))
    assert t.seats_to_act() == (1, 2, TABLE)
    assert [a.name for a in t.legal_actions(1)] == ["withdraw_bets"]
    t.apply(Action("deal"))
    assert t.is_over() and t.settlement() == {1: 475}  # the doctest's coup: Banker 7 over 6
    views = {t.view(v).table["banker"] == ["Kd", "7h"] for v in (
        Viewer("player", 1), Viewer("player", 2), Viewer("dealer"), Viewer("floor"))}
    assert views == {True}
    assert t.view(Viewer("auditor")).log == tuple(t.events)
    assert t.view(Viewer("floor")).log == ()


def test_super_pan_9_turns_go_in_seat_order() -> None:
    """Rule 6: after the deal only the lowest seat still to act may draw or stand; the other
    seat's draw is refused; then the dealer's steps are the table's, to the settlement."""
    t = SuperPan9Table(SuperPan9Rules(), SeededRandom(1))
    t.sit(1, 10_000)
    t.sit(4, 10_000)
    t.place_wager(1, 1_000)
    t.place_wager(4, 500)
    assert {a.name for a in t.legal_actions(TABLE)} == {"deal"}
    t.apply(Action("deal"))
    assert t.seats_to_act() == (1,)
    assert t.legal_actions() == [Action("draw", (1,), 1), Action("stand", (1,), 1)]
    assert not t.can(Action("draw", (4,), 4))
    t.apply(Action("stand", (1,), 1))
    assert t.seats_to_act() == (4,)
    t.apply(Action("stand", (4,), 4))
    mine = t.view(Viewer("player", 4)).table["seats"]
    assert [s["cards"] is None for s in mine] == [True, False]  # seat 1's cards stay down
    steps = 0
    while not t.is_over():
        assert t.seats_to_act() == (TABLE,)
        t.apply(t.legal_actions()[0])
        steps += 1
    assert steps >= 2  # the reveal, then the dealer's draws and the settlement
    net = t.settlement()
    assert net == {1: t.chips[1] - 10_000, 4: t.chips[4] - 10_000} and net[1] != 0


def test_pai_gow_lists_every_setting_of_a_hand() -> None:
    """Clause 6: a seat's hand set any of its 21 ways (two cards in front) or the house way;
    the settlement is the table's step once every hand is set, the next hand after it."""
    t = PaiGowTable(PaiGowRules())
    t.sit(1, 10_000)
    t.sit(2, 10_000)
    t.place_wager(1, 1_000)
    assert t.seats_to_act() == (1, 2, TABLE)
    t.apply(Action("deal", (SeededRandom(7),)))
    sets = [a for a in t.legal_actions(1) if a.name == "set_hand"]
    assert len(sets) == 21 and len({frozenset(a.args[1]) for a in sets}) == 21
    assert [a.name for a in t.legal_actions(1)][-1] == "ask_house_way"
    assert t.seats_to_act() == (1,)  # seat 2 has no wager, the table waits for the setting
    assert t.view(Viewer("player", 2)).table["hands"] == {0: "hidden", 1: "hidden"}
    t.apply(Action("ask_house_way", (1,), 1))
    assert t.legal_actions() == [Action("settle")]
    t.apply(Action("settle"))
    assert t.is_over() and t.settlement() == {1: 950} and t.chips[1] == 10_950
    assert t.legal_actions() == [Action("next_hand")]
    t.apply(Action("next_hand"))
    assert not t.is_over() and t.seats_to_act() == (1, 2)


def pan_table(seed: int = 3) -> PanTable:
    rules = PanRules()
    source = SeededRandom(seed)
    t = PanTable(source)
    t.deal(rules, [SeatSpec(f"p{i}", 30) for i in range(4)], 0,
           fisher_yates(pan_pack(rules), source))
    return t


def test_pan_lists_its_own_legal_actions() -> None:
    """Pan's list is `commands.legal_actions`, each as the hand's `@action` it calls: the
    first hand to the dealer's right declares first, to play or to pass."""
    t = pan_table()
    hand = t.hand
    assert hand is not None
    first = hand.order[0]
    assert first in t.seats_to_act()
    mine = t.legal_actions(first)
    kinds = [a.kind for a in legal_actions(hand, first) if not a.choose]
    assert len(mine) == len(kinds) and {Kind.PLAY, Kind.PASS} <= set(kinds)
    assert Action("declare", (first, True), first) in mine
    assert not t.can(Action("reshuffle"))  # a full stock
    viewer = t.view(Viewer("player", first)).table["seats"]
    assert [s["hand"] is not None for s in viewer] == [i == first for i in range(4)]


def test_pan_random_hands_settle_what_the_chips_say() -> None:
    """Random legal play to the end of three hands: each settles to the chips' change, and
    the table's next step is the next deal (the same players, the next dealer)."""
    t, rng = pan_table(5), random.Random(5)
    for _ in range(3):
        while not t.is_over():
            t.apply(rng.choice(t.legal_actions()))
        hand = t.hand
        assert hand is not None
        net = t.settlement()
        assert net == {n: s.chips - spec.chips for (n, s), spec in zip(
            hand.seats.items(), hand.specs, strict=True)}
        # the chips the seats lost in all are the tops on the table less those carried in
        assert sum(net.values()) == sum(hand.carried_tops) - hand.tops_single - hand.tops_double
        assert t.seats_to_act() == (TABLE,)
        (deal,) = t.legal_actions()
        assert deal.name == "deal" and [s.chips for s in deal.args[1].values()] == [
            s.chips for s in hand.seats.values()]
        t.apply(deal)
        assert t.hand is not hand and not t.is_over()



def _event_classes(cls: type[Event]) -> list[type[Event]]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_event_classes(sub))]


def test_a_copy_of_a_table_shares_its_events_which_are_values() -> None:
    """A live table is checkpointed at every action (a deep copy of its engine): the events
    in its log are shared, not rebuilt, which is sound because every event of every game is
    frozen and holds values only (no list, dict or set a later action could change)."""
    classes = _event_classes(Event)
    assert {c.__module__.split(".")[2] for c in classes if c.__module__.startswith(
        "cardroom.games.")} >= {"baccarat", "pai_gow", "pan", "super_pan_9"}
    for cls in classes:
        assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        for name, hint in typing.get_type_hints(cls).items():
            if name in {f.name for f in dataclasses.fields(cls)}:
                assert not re.search(r"\b(list|dict|set)\[", str(hint)), (cls, name, hint)
    t = BaccaratTable(BaccaratRules(), SeededRandom(7))
    t.sit(1, 10_000)
    t.apply(Action("place_bets", (1, {WagerKind.BANKER: 500}), 1))
    copied = copy.deepcopy(t)
    assert copied.events == t.events and copied.events is not t.events
    assert all(a is b for a, b in zip(copied.events, t.events, strict=True))
    copied.withdraw_bets(1)
    assert t.bets == {1: {WagerKind.BANKER: 500}} and len(t.events) < len(copied.events)
