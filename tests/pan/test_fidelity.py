"""Rules fidelity (issue 10, Panguingue): clauses of the house rules and the digest played out
through the engine where it used to depart from them."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cardroom.cards import Card, Suit
from cardroom.games.pan import errors as R
from cardroom.games.pan.cards import PAN_RANKS, pan_pack
from cardroom.games.pan.engine import Cause, PanHand, Phase, Status
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.melds import MeldKind, is_valid_on_board, meld_kind
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.uses import card_uses

from .helpers import all_play, c, cs, make_hand
from .scenarios import ten_spread

H1 = "Ac 2c 6h 6h 4s 4s Jd Jd 7s Qh"
H2 = "Kh Kh 5c 5d 2h 2d 6c 4c Qs Ks"
GOES_OUT_WITH_QD = "Ac 2c 3c 4h 4h 4h 5d 6d 7d Jd"


# ----- foul rule 3E: a card from the deck put in the hand, except when going out -----------


def test_pan_foul_rule_3e_exception_deck_card_kept_while_going_out_is_no_foul() -> None:
    """3E: "A player puts a card from the deck in his hand. The exception to this rule is when
    the player is going out (No-discards)." He keeps the Qd, melds all eleven and goes out."""
    hand = make_hand([GOES_OUT_WITH_QD, H1, H2], "Qd")
    all_play(hand)
    hand.draw(0)
    hand.keep_drawn(0)
    with pytest.raises(PanRuleError, match="no cause") as e:
        hand.call_foul(1, 0)
    assert e.value.rule == R.FOUL_3
    hand.meld(0, cs("Ac 2c 3c"))
    hand.meld(0, cs("4h 4h 4h"))
    hand.meld(0, cs("5d 6d 7d Jd Qd"))
    assert not hand.can_call_foul(2, 0)
    hand.go_out(0)
    assert hand.winner == 0 and hand.seats[0].status is Status.OUT
    assert Cause.DECK_CARD_IN_HAND not in hand.seats[0].causes


# ----- declarations: "A player may change his declaration until the next player has acted" --

H0 = "3c 3c 4h 5h Kd Qc 2s 6d 7d Js"


def test_pan_declarations_passer_may_change_until_the_one_left_has_acted() -> None:
    """House header: a declaration may be changed until the next player has acted. p0 and p1
    pass: p1 may still change, because p2, the next player, has not acted; the hand is not over
    until p2 declares."""
    hand = make_hand([H0, H1, H2])
    hand.declare(0, False)
    hand.declare(1, False)
    assert hand.phase is not Phase.COMPLETE
    assert not hand.can_change_declaration(0)      # p1 has acted since
    hand.change_declaration(1)                     # p1 plays after all
    hand.declare(2, True)
    assert hand.phase is Phase.PLAYING and hand.in_players() == [1, 2]


def test_pan_declarations_last_passer_may_change_until_the_tops_are_taken() -> None:
    """The last player (p2) passes after p1 passed: p0 is the only one left, but p2 may change
    until p0 acts; p0's act is taking the tops ("the last player may not change his
    declaration after the first card has been drawn and exposed")."""
    hand = make_hand([H0, H1, H2])
    hand.declare(0, True)
    hand.declare(1, False)
    hand.declare(2, False)
    assert hand.phase is Phase.PLAYING and hand.winner is None
    assert not hand.can_draw(0)
    hand.change_declaration(2)
    assert hand.in_players() == [0, 2] and hand.current == 0
    hand.draw(0)
    assert not hand.can_change_declaration(2)


def test_pan_declarations_one_left_takes_the_tops_and_the_window_closes() -> None:
    hand = make_hand([H0, H1, H2])
    hand.declare(0, True)
    hand.declare(1, False)
    hand.declare(2, False)
    with pytest.raises(PanRuleError, match="one player left"):
        hand.take_tops(1)
    hand.take_tops(0)
    assert hand.phase is Phase.COMPLETE and hand.winner == 0
    assert [s.chips for s in hand.seats.values()] == [22, 19, 19]
    with pytest.raises(PanRuleError, match="out of play"):
        hand.change_declaration(2)


@pytest.mark.parametrize("first_passes", [True, False])
def test_pan_declarations_window_stays_open_head_up(first_passes: bool) -> None:
    """Two players: the passer may change until the other acts (his declaration when he is
    second to declare, taking the tops when he declared first)."""
    hand = make_hand([H0, H1])
    hand.declare(0, not first_passes)
    if not first_passes:
        hand.declare(1, False)
    passer = 0 if first_passes else 1
    assert hand.phase is not Phase.COMPLETE
    assert hand.can_change_declaration(passer)
    hand.change_declaration(passer)
    if first_passes:
        hand.declare(1, True)
    assert hand.in_players() == [0, 1] and hand.phase is Phase.PLAYING


def test_pan_declarations_one_left_who_declares_last_takes_the_tops_at_once() -> None:
    """p0 and p1 pass; p2's declaration is his act: p1's window closes, p2 takes the tops."""
    hand = make_hand([H0, H1, H2])
    hand.declare(0, False)
    hand.declare(1, False)
    with pytest.raises(PanRuleError, match="every other player has passed"):
        hand.declare(2, False)
    hand.declare(2, True)
    assert hand.phase is Phase.COMPLETE and hand.winner == 2


# ----- rule 14A: an out card discarded from the hand to pyramid ------------------------------

SUITS = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]


def test_pan_house_rule_14a_hand_card_discarded_to_pyramid_is_forced_back() -> None:
    """Rule 14A: "When a player is discarding in an attempt to pyramid chips ... any active
    player may choose to end the hand for the lower pay rate": the Qd, discarded from the
    hand, is forced back by p1 (three players, not head up) and p0 goes out on it. (p0
    spread ten cards and discarded the Qd that would have put him out on 5d-6d-7d-Jd.)"""
    hand = ten_spread()
    assert not hand.head_up
    hand.force_back(1, 0)
    assert hand.winner == 0 and hand.end_reason == "went out on a card forced back"
    # tops 3, conditions 2 x 2 (A-2-3, 4h set... from each other player) and the outs 2 x 2
    assert hand.seats[1].chips == hand.seats[2].chips


# ----- taking a card that is melded at once only by borrowing (a turn, 1; melds, borrowing) --


A_TO_5_OF_CLUBS = "Ac 2c 3c 4c 5c Kd Qh Js 7s 2d"


def _p0_spreads_a_to_6_of_clubs(hand: PanHand) -> None:
    """p0 draws the 6c and spreads A-6 of clubs, then discards the Kd."""
    all_play(hand)
    hand.draw(0)
    hand.meld(0, cs("Ac 2c 3c 4c 5c"), use_drawn=True)
    hand.collect(0)
    hand.discard(0, c("Kd"))


def _a_to_6_of_clubs_and_4c_up() -> PanHand:
    """p0 spreads A-6 of clubs; p1 draws the 4c and discards it."""
    hand = make_hand([A_TO_5_OF_CLUBS, H1], "6c 4c")
    _p0_spreads_a_to_6_of_clubs(hand)
    hand.draw(1)
    hand.discard(1, c("4c"))
    return hand


def test_pan_card_taken_to_meld_by_borrowing_two_cards_from_a_spread() -> None:
    """Reference, a turn 1: the previous player's stock card may be taken "only if it can be
    melded at once". The 4c is melded with the 5c and 6c borrowed from A-6 of clubs, leaving
    A-2-3-4 (borrowing: what is left is still a valid meld)."""
    hand = _a_to_6_of_clubs_and_4c_up()
    assert ("borrow", 0, cs("5c 6c"), ()) in hand.card_uses(0, c("4c"))
    hand.take(0)
    hand.borrow(0, 0, cs("5c 6c"), (), use_drawn=True)
    assert [m.cards for m in hand.seats[0].melds] == [cs("Ac 2c 3c 4c"), cs("4c 5c 6c")]


def test_pan_house_rule_17_card_usable_only_by_borrowing_may_not_be_given_as_an_out() -> None:
    """Rule 17: "A player may not give an out card to a player with ten cards spread on the
    board if the card can be used in the first hand." p1 has ten spread and goes out with the
    4c on his 5c-6c-7c; p0 can use the 4c only by borrowing from his A-6 of clubs, and may
    not discard it."""
    hand = make_hand([A_TO_5_OF_CLUBS, "5c 6c 7c 4h 4h 4h Kd Kd Kd 2s", H2], "6c Kd Jh 4c")
    _p0_spreads_a_to_6_of_clubs(hand)
    hand.draw(1)
    hand.meld(1, cs("Kd Kd"), use_drawn=True)
    hand.meld(1, cs("5c 6c 7c"))
    hand.meld(1, cs("4h 4h 4h"))
    hand.lay_off(1, 0, c("Kd"))
    hand.collect(1)
    hand.discard(1, c("2s"))
    assert not hand.seats[1].hand and hand.seats[1].melded_count == 10
    hand.draw(2)
    hand.discard(2, c("Jh"))
    hand.draw(0)
    assert hand.goes_out_with(1, c("4c"))
    with pytest.raises(PanRuleError) as e:
        hand.discard(0, c("4c"))
    assert e.value.rule == R.RULE_17


def test_pan_house_rule_12_option_card_usable_only_by_borrowing_may_be_forced() -> None:
    """Rule 12: "A player overlooking or ignoring a usable card on a board spread, who
    touches the deck to draw may, at the option of any active player, either be forced to use
    the card, or be forced to continue to draw." p2's unused 4c is usable on p0's A-6 of
    clubs by borrowing the 5c and 6c; p0 draws past it and p1 forces it on him: the drawn
    card goes back on the stock and the 4c is his to meld at once (he may not discard it)."""
    hand = make_hand([A_TO_5_OF_CLUBS, H1, H2], "6c Jh 4c Qs")
    _p0_spreads_a_to_6_of_clubs(hand)
    hand.draw(1)
    hand.discard(1, c("Jh"))
    hand.draw(2)
    hand.discard(2, c("4c"))
    hand.draw(0)
    assert not hand.fitting_melds(0, c("4c"))
    hand.force_option_card(1, True)
    assert hand.drawn == c("4c") and hand.stock[-1] == c("Qs")
    with pytest.raises(PanRuleError) as e:
        hand.discard(0, c("4c"))
    assert e.value.rule == R.TURN_1
    hand.borrow(0, 0, cs("5c 6c"), (), use_drawn=True)
    assert [m.cards for m in hand.seats[0].melds] == [cs("Ac 2c 3c 4c"), cs("4c 5c 6c")]
    hand.discard(0, c("Qh"))
    assert hand.current == 1


def test_pan_every_use_found_is_legal_and_none_is_missed() -> None:
    """The search for a card's uses is complete: on random spreads and hands it finds a borrow
    whenever one exists (brute force over every borrowed part of every meld with up to three
    hand cards), and every use it lists is accepted by the engine."""
    rng = random.Random(10)
    pack = pan_pack(PanRules())
    checked = 0
    for _ in range(120):
        melds = [_random_meld(rng) for _ in range(2)]
        hand_cards = rng.sample(pack, 6)
        card = rng.choice([x for m, _ in melds for x in m] + hand_cards)
        found = card_uses(card, hand_cards, melds, False)
        for u in found:
            if u[0] == "borrow":
                m, kind = melds[u[1]]
                left = list(m)
                for b in u[2]:
                    left.remove(b)
                assert is_valid_on_board(left, kind)
                assert meld_kind((card, *u[2], *u[3])) is not None
        if _brute_force_borrow(card, hand_cards, melds):
            assert any(u[0] in ("borrow", "meld") for u in found), (card, hand_cards, melds)
            checked += 1
    assert checked >= 20


def _random_meld(rng: random.Random) -> tuple[tuple[Card, ...], MeldKind]:
    """A meld of four to seven cards as it may lie: a sequence, or a set (one suit, or three
    different suits and any additions)."""
    n = rng.randint(4, 7)
    suit = rng.choice(SUITS)
    if rng.random() < 0.6:
        start = rng.randint(0, len(PAN_RANKS) - n)
        return tuple(Card(r, suit) for r in PAN_RANKS[start:start + n]), MeldKind.SEQUENCE
    rank = rng.choice(PAN_RANKS)
    if rng.random() < 0.5:
        return tuple(Card(rank, suit) for _ in range(n)), MeldKind.SET
    return tuple(Card(rank, rng.choice(SUITS)) for _ in range(n - 3)) + tuple(
        Card(rank, x) for x in SUITS[:3]), MeldKind.SET


def _brute_force_borrow(card: Card, hand_cards: list[Card],
                        melds: list[tuple[tuple[Card, ...], MeldKind]]) -> bool:
    for m, kind in melds:
        for k in range(1, len(m) - 2):
            for idx in combinations(range(len(m)), k):
                left = [x for i, x in enumerate(m) if i not in idx]
                if not is_valid_on_board(left, kind):
                    continue
                borrowed = tuple(m[i] for i in idx)
                for h in range(4):
                    for own in combinations(hand_cards, h):
                        if meld_kind((card, *borrowed, *own)) is not None:
                            return True
    return False


# ----- pay is a function of the cards on the table, not of how they were laid ---------------

FOUR_5H = "5h 5h 5h Kd Qc 2s 6d 7d Js 4c"


@pytest.mark.parametrize("at_once", [True, False])
def test_pan_conditions_four_valles_pay_the_same_laid_at_once_or_three_then_one(
        at_once: bool) -> None:
    """Reference, conditions: "Adding a card to a condition pays the condition again; adding
    to a same-suit valle set pays 1". Four 5h: the condition (2) and one card added (1), 3
    units from each player, whether laid down at once or three then one in the same turn."""
    hand = make_hand([FOUR_5H, H1, H2], "5h")
    all_play(hand)
    hand.draw(0)
    if at_once:
        hand.meld(0, cs("5h 5h 5h"), use_drawn=True)
    else:
        hand.meld(0, cs("5h 5h"), use_drawn=True)
        hand.lay_off(0, 0, c("5h"))
    hand.collect(0)
    assert hand.seats[0].melds[0].cards == cs("5h 5h 5h 5h")
    assert [s.chips for s in hand.seats.values()] == [19 + 6, 19 - 3, 19 - 3]


def test_pan_conditions_sequence_pays_the_same_whichever_end_is_laid_first() -> None:
    """A-2-3-4 of diamonds pays 2 (the A-2-3 condition and the 4 added) laid down at once,
    as A-2-3 then the 4, or as 2-3-4 then the ace (the ace makes the condition, the 4 is
    already beyond its three)."""
    collected = []
    for first, then in (("Ad 2d 3d 4d", ""), ("Ad 2d 3d", "4d"), ("2d 3d 4d", "Ad")):
        hand = make_hand(["Ad 2d 3d 4d 4s 5s Kc Qc 7h Js", H1, H2], "6s")
        all_play(hand)
        hand.draw(0)
        hand.meld(0, cs("4s 5s"), use_drawn=True)   # 4-5-6 of spades: no condition
        hand.meld(0, cs(first))
        if then:
            hand.lay_off(0, 1, c(then))
        hand.collect(0)
        collected.append(hand.seats[0].chips - 19)
    assert collected == [2 * 2] * 3


# ----- foul rules 2 and 5: one player left after a self-declared foul -------------------------


def _p1_declares_own_foul_in_p0s_turn() -> PanHand:
    hand = make_hand([GOES_OUT_WITH_QD, H1], "Kc Kc Qd")
    all_play(hand)
    for seat in (0, 1):
        hand.draw(seat)
        hand.discard(seat, c("Kc"))
    hand.draw(0)
    hand.declare_own_foul(1)
    return hand


def test_pan_foul_rule_5a_one_left_after_a_self_declared_foul_may_settle() -> None:
    """Foul rule 5: "Whenever there is only one player left in the hand as a result of one or
    more fouled hands" he chooses; a hand called foul by its own player is a fouled hand. He
    does not collect at once: 5A, a settlement with the self-fouled player."""
    hand = _p1_declares_own_foul_in_p0s_turn()
    assert hand.phase is Phase.LAST_PLAYER and hand.current == 0 and hand.winner is None
    hand.settle(0, {1: 3})
    assert hand.winner == 0 and [s.chips for s in hand.seats.values()] == [19 + 2 + 3, 19 - 3]


def test_pan_foul_rules_5b_and_2_face_up_self_fouled_pays_all_collections_and_the_outs() -> None:
    """5B: he plays the hand to completion face up (his hand shown to everyone), here the turn
    he had started; rule 2: the player who called his own hand foul "must pay all collections
    during the remainder of play, including bust-outs": the A-2-3 and the 4h set (1 each) and
    the outs (2)."""
    hand = _p1_declares_own_foul_in_p0s_turn()
    hand.play_face_up(0)
    assert hand.snapshot(1)["seats"][0]["hand"] is not None
    hand.meld(0, cs("5d 6d 7d Jd"), use_drawn=True)
    hand.meld(0, cs("Ac 2c 3c"))
    hand.meld(0, cs("4h 4h 4h"))
    hand.go_out(0)
    assert hand.winner == 0 and [s.chips for s in hand.seats.values()] == [19 + 2 + 2 + 2, 19 - 4]


def test_pan_foul_rule_5b_a_hand_played_face_up_is_played_to_completion() -> None:
    """5B: "He may opt to play the hand to completion": once face up, he cannot throw it in
    (rule 2), and the hand never waits on no one. The floorman may still declare it foul
    (rule 7): no active hand is left, so, as in rule 6, the tops remain for a redeal and every
    other chip moved goes back."""
    hand = _p1_declares_own_foul_in_p0s_turn()
    hand.play_face_up(0)
    assert not hand.can_declare_own_foul(0)
    with pytest.raises(PanRuleError, match="played to completion") as refused:
        hand.declare_own_foul(0)
    assert refused.value.clause == R.FOUL_5 and hand.current == 0
    tops = hand.tops_single
    hand.floor_foul(0, "marked cards")
    assert hand.phase is Phase.COMPLETE and hand.winner is None and hand.current is None
    assert hand.tops_carry == (tops, 0) and [s.chips for s in hand.seats.values()] == [19, 19]


# ----- double condition -----------------------------------------------------------------------


def test_pan_double_condition_needs_twice_the_minimum_buy_in() -> None:
    """Double condition play: "Players desiring to play double condition must have twice the
    minimum buy-in" (20 chips: 40)."""
    rules = PanRules(allow_double_condition=True)
    with pytest.raises(PanRuleError, match="twice the minimum buy-in") as e:
        make_hand([H0, H1, H2], rules=rules, chips=[20, 40, 20], doubles=[True, True, False])
    assert e.value.rule == R.DOUBLES
    hand = make_hand([H0, H1, H2], rules=rules, chips=[40, 40, 20],
                     doubles=[True, True, False])
    assert (hand.tops_single, hand.tops_double) == (3, 2)


# ----- declarations and a dead hand (foul rule 8A; issue 20) ----------------------------------


def _p0_passes_p1_dead() -> PanHand:
    """p0 passes; p1's eight-card hand is declared dead before he acts (foul rule 8A)."""
    hand = make_hand([H0, "Ac 2c 6h 6h 4s 4s Jd Jd", H2], "", deal_counts=[10, 8, 10])
    hand.declare(0, False)
    hand.correct_count(1)
    assert hand.seats[1].status is Status.DEAD
    return hand


def test_pan_declarations_dead_hand_is_not_the_next_player_acting() -> None:
    """House header: "A player may change his declaration until the next player has acted";
    foul rule 8A: p1's dead hand is the dealer's correction, not p1 acting. The hand does not
    end with p2 taking the tops undeclared: p0 may still change, and p2 declares."""
    hand = _p0_passes_p1_dead()
    assert hand.phase is Phase.DECLARING and hand.winner is None and hand.to_act == 2
    hand.change_declaration(0)
    hand.declare(2, True)
    assert hand.phase is Phase.PLAYING and hand.in_players() == [0, 2]
    assert hand.current == 0


def test_pan_declarations_after_a_dead_hand_the_one_left_declaring_takes_the_tops() -> None:
    """p0 passed and p1's hand is dead: p2's declaration is his act, which closes p0's window;
    the one left takes the tops (p0's and p2's antes; p1's was returned)."""
    hand = _p0_passes_p1_dead()
    hand.declare(2, True)
    assert hand.phase is Phase.COMPLETE and hand.winner == 2
    assert not hand.can_change_declaration(0)
    assert [s.chips for s in hand.seats.values()] == [19, 20, 21]
