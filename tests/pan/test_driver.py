"""The one Pan table driver (`games.pan.driver.PanTable`, issue 20): the room, the terminal
and the simulation play through it, so what it does from one hand to the next (the pack, the
tops a redeal carries, a void, the offers the bots answer) is tested here once."""

from __future__ import annotations

import copy

import pytest

from cardroom.engine import RuleError, Voided
from cardroom.games.pan.bots import Bot, SoundBot
from cardroom.games.pan.commands import Kind, PanAction
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import PanHand, Phase, SeatSpec
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import pack_after
from cardroom.shoe import SeededRandom

from .helpers import GO_OUT, all_play, c, cs, stacked_pack

H0 = "3c 3c 4h 5h Kd Qc 2s 6d 7d Js"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"
TWO = ["Kd Kd Qc Qc Jh Jh 2s 2s 4d 4d", "Qh 3d 5d 7h Ah 2c 4s 5s 7d Jc"]
PEOPLE: list[Bot | None] = [None, None, None]


def _three(table: PanTable, chips: int = 20) -> PanHand:
    """Three players, seat 0 first hand, on a stacked pack (the table's first)."""
    specs = [SeatSpec(f"p{i}", chips) for i in range(3)]
    return table.deal(PanRules(), specs, 2, stacked_pack([H0, GO_OUT, H2], "3c Jd"))


def _false_out_redeal(hand: PanHand) -> None:
    """House foul rules 3F and 6: seat 0 declares out falsely, the others throw in and call
    the foul: "the Tops remain and the hand is redealt"."""
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("3c 3c"), use_drawn=True)
    hand.declare_out(0)
    hand.throw_in(1)
    hand.throw_in(2)
    hand.call_foul(1, 0)


def test_foul_rule_6_a_redeal_carries_the_tops_to_the_next_hand() -> None:
    """Foul rule 6: the tops of a redealt hand stay on the table for the next hand (issue 20:
    the terminal dealt the next hand without them, and chips went missing). Every chip is
    still on the table: in the stacks or in the tops."""
    table = PanTable(SeededRandom(5))
    first = _three(table)
    _false_out_redeal(first)
    table.play(PEOPLE)
    assert first.phase is Phase.COMPLETE and table.carried == (3, 0)
    assert [s.chips for s in first.seats.values()] == [19, 19, 19]
    second = table.deal(PanRules(), [SeatSpec(f"p{i}", 19) for i in range(3)], 0)
    assert (second.tops_single, second.tops_double) == (6, 0)
    assert second.carried_tops == (3, 0) and table.carried == (0, 0)
    assert sum(s.chips for s in second.seats.values()) + second.tops_single == 60


def test_the_next_hand_is_dealt_from_the_pack_the_last_left() -> None:
    """Between hands the pack is made as the house rules say (`table.pack_after`), with the
    table's own random source, once, when the hand ends; the next deal takes it."""
    source = SeededRandom(8)
    table = PanTable(copy.deepcopy(source))
    first = _three(table)
    _false_out_redeal(first)
    table.play(PEOPLE)
    table.play(PEOPLE)  # over already: the pack is not made again (the source moved on)
    made = pack_after(first, copy.deepcopy(source))
    assert table.next_pack == made
    second = table.deal(PanRules(), [SeatSpec(f"p{i}", 19) for i in range(3)], 0)
    assert list(second.pack) == made and table.next_pack is None


def test_a_table_needs_its_first_pack() -> None:
    with pytest.raises(RuleError, match="no pack to deal from"):
        PanTable().deal(PanRules(), [SeatSpec("a", 20), SeatSpec("b", 20)], 0)


def test_a_void_goes_through_the_engine_and_keeps_the_carried_tops() -> None:
    """The engine protocol's `void` (issue 20, "Pan's void not calling the engine's void"):
    a `Voided` event closes the hand's log, every stack is back as before the hand, and the
    tops carried into it stay for the next one (foul rule 6); the next pack is made."""
    table = PanTable(SeededRandom(1))
    _false_out_redeal(_three(table))
    table.play(PEOPLE)
    second = table.deal(PanRules(), [SeatSpec(f"p{i}", 19) for i in range(3)], 0)
    all_play(second)
    with pytest.raises(RuleError, match="a hand is in play"):
        table.deal(PanRules(), [SeatSpec(f"p{i}", 19) for i in range(3)], 0)
    voided = table.void("cards exposed")
    assert isinstance(voided, Voided) and second.events[-1] == voided
    assert voided.returned == 3
    assert [s.chips for s in second.seats.values()] == [19, 19, 19]
    assert table.carried == (3, 0) and table.next_pack is not None
    assert table.events is second.events and table.can_deal(PanRules(), second.specs, 0)


def test_foul_rule_6_a_table_that_breaks_up_gives_the_carried_tops_back() -> None:
    """Foul rule 6's tops "remain" for the redeal; a table that breaks up before a hand wins
    them gives each player back what he put up (`break_up`, issue 20: the terminal lost
    them). Redealt twice (each seat has 2 in), then a void (its own tops returned by the
    engine, the carried ones kept): each gets 2 back, and nothing is carried after."""
    table = PanTable(SeededRandom(1))
    _false_out_redeal(_three(table))
    table.play(PEOPLE)
    specs = [SeatSpec(f"p{i}", 19) for i in range(3)]
    second = table.deal(PanRules(), specs, 2, stacked_pack([H0, GO_OUT, H2], "3c Jd"))
    _false_out_redeal(second)
    table.play(PEOPLE)
    assert table.carried == (6, 0)
    third = table.deal(PanRules(), [SeatSpec(f"p{i}", 18) for i in range(3)], 0)
    all_play(third)
    table.void("cards exposed")
    assert table.carried == (6, 0)
    assert table.break_up() == {"p0": 2, "p1": 2, "p2": 2}
    assert table.carried == (0, 0) and table.break_up() == {}


def _alone_after_a_foul(table: PanTable) -> PanHand:
    """Seat 1 declares his own hand foul (house foul rule 2): seat 0 is the one player left
    (foul rule 5)."""
    hand = table.deal(PanRules(), [SeatSpec("p0", 20), SeatSpec("p1", 20)], 1,
                      stacked_pack(TWO, "Kc Qd"))
    all_play(hand)
    hand.draw(0)
    hand.discard(0, c("Kc"))
    hand.declare_own_foul(1)
    assert hand.phase is Phase.LAST_PLAYER and hand.current == 0
    return hand


def test_foul_rule_5a_a_person_answers_the_settlement_offered_to_him() -> None:
    """Foul rule 5A, "a negotiated settlement, mutually satisfactory to all parties": the
    offer moves nothing until the foul hand accepts; a declined offer leaves the choice;
    only the seat asked may answer."""
    table = PanTable()
    hand = _alone_after_a_foul(table)
    table.act(0, PanAction(Kind.SETTLE, payments=((1, 3),)), [None, None])
    assert table.offer == {1: 3} and hand.phase is Phase.LAST_PLAYER
    assert PanAction(Kind.ACCEPT_SETTLEMENT) in table.legal(1)
    assert PanAction(Kind.ACCEPT_SETTLEMENT) not in table.legal(0)
    with pytest.raises(PanRuleError, match="no settlement offer waits"):
        table.act(0, PanAction(Kind.ACCEPT_SETTLEMENT), [None, None])
    table.act(1, PanAction(Kind.DECLINE_SETTLEMENT), [None, None])
    assert table.offer is None and hand.phase is Phase.LAST_PLAYER
    table.act(0, PanAction(Kind.SETTLE, payments=((1, 3),)), [None, None])
    table.act(1, PanAction(Kind.ACCEPT_SETTLEMENT), [None, None])
    assert hand.phase is Phase.COMPLETE and hand.end_reason == "settled with the foul hands"
    assert hand.chips_delta() == [4, -4]  # each put up 1 of the tops; the 3 agreed


def test_foul_rule_5a_a_bot_answers_at_once_and_face_up_withdraws_an_offer() -> None:
    """Foul rule 5A with a bot among the foul hands: it answers at once, agreeing to no more
    than the hand would cost it played out (a refused offer changes nothing); 5B: playing
    face up withdraws an offer a person has not yet answered."""
    table = PanTable()
    hand = _alone_after_a_foul(table)
    bots: list[Bot | None] = [None, SoundBot()]
    with pytest.raises(PanRuleError, match="seat 1 refuses to pay 9 chip"):
        table.act(0, PanAction(Kind.SETTLE, payments=((1, 9),)), bots)
    assert table.offer is None and hand.phase is Phase.LAST_PLAYER
    table.act(0, PanAction(Kind.SETTLE, payments=((1, 2),)), [None, None])
    table.act(0, PanAction(Kind.FACE_UP), [None, None])
    assert table.offer is None and hand.face_up and hand.phase is Phase.PLAYING
    other = PanTable()
    settled = _alone_after_a_foul(other)
    other.act(0, PanAction(Kind.SETTLE, payments=((1, 2),)), bots)
    assert settled.phase is Phase.COMPLETE and settled.chips_delta() == [3, -3]


def test_pays_rule_2_a_bot_answers_an_offer_to_split_the_tops() -> None:
    """House pays rule 2: a person offers to split the tops; the other player's bot answers
    at once (the sound bot agrees when the person is as close to going out)."""
    table = PanTable()
    hand = table.deal(PanRules(), [SeatSpec("p0", 20), SeatSpec("p1", 20)], 1,
                      stacked_pack(TWO, "Kc Qd"))
    all_play(hand)
    table.act(0, PanAction(Kind.OFFER_SPLIT), [None, SoundBot()])
    assert hand.phase is Phase.COMPLETE and hand.end_reason == "tops split"
    assert hand.chips_delta() == [0, 0]
