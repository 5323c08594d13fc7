"""Pan's typed actions (`games.pan.commands.PanAction`): the web table's buttons. Every action
`legal_actions` offers is one the engine accepts, the ones needing cards name them, a typed
action sent back as JSON reads as the same action, and what cannot be read is refused in plain
words. The table log's lines (`events.event_line`) name players and cards as people read them."""

from __future__ import annotations

import copy
import random

import pytest

from cardroom.games.pan.commands import (
    CommandError,
    Kind,
    PanAction,
    action_from_json,
    apply_action,
    legal_actions,
    parse_command,
)
from cardroom.games.pan.engine import PanHand, Phase
from cardroom.games.pan.events import event_line
from cardroom.games.pan.rules import PanRules

from .helpers import c, cs, make_hand

HANDS = ["Ac 2c 3c 4c 5c 6c 7c 4s 4h 2h", "Qd Qs Jh 2d 6s 7h Kc 5h 3s 4d"]


def kinds(hand: PanHand, seat: int) -> set[Kind]:
    return {a.kind for a in legal_actions(hand, seat)}


def test_reference_tops_and_declarations_play_or_pass_is_offered_in_order() -> None:
    """Reference: tops and declarations: each player in turn plays or passes; a seat not yet
    to declare is offered no declaration."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    assert legal_actions(hand, 0) == [PanAction(Kind.PLAY), PanAction(Kind.PASS)]
    assert Kind.PLAY not in kinds(hand, 1)


def test_reference_a_turn_2_the_drawn_card_melded_laid_off_or_discarded() -> None:
    """Reference: a turn, 2: the card drawn is melded at once (with hand cards, or added to a
    spread) or discarded; the actions name the hand cards and flag the drawn card."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    hand.declare(0, True)
    hand.declare(1, True)
    assert PanAction(Kind.DRAW) in legal_actions(hand, 0)
    hand.draw(0)
    legal = legal_actions(hand, 0)
    assert PanAction(Kind.MELD, cs("4s 4h"), drawn=True) in legal
    assert PanAction(Kind.DISCARD, cs("4d"), drawn=True) in legal
    assert Kind.DRAW not in {a.kind for a in legal}
    after = copy.deepcopy(hand)
    apply_action(after, 0, PanAction(Kind.MELD, cs("4s 4h"), drawn=True))
    assert [m.cards for m in after.seats[0].melds] == [cs("4d 4h 4s")] or \
        sorted(map(str, after.seats[0].melds[0].cards)) == ["4d", "4h", "4s"]
    assert after.drawn is None


def test_reference_melds_lay_off_and_discard_from_the_hand_after_a_meld() -> None:
    """Reference: a turn, 3-4 and melds: once the drawn card is used, the player may meld
    from the hand (any three cards he picks: a `choose` action), add a hand card to a spread,
    and discard; `lay_off` names the spread (counted from 0 in the protocol, from 1 in the
    label)."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    hand.declare(0, True)
    hand.declare(1, True)
    hand.draw(0)
    hand.meld(0, cs("4s 4h"), use_drawn=True)
    legal = legal_actions(hand, 0)
    assert PanAction(Kind.MELD, cs("Ac 2c 3c")) in legal
    assert PanAction(Kind.MELD, choose=True) in legal
    assert PanAction(Kind.DISCARD, cs("2h")) in legal
    hand.meld(0, cs("Ac 2c 3c"))
    lay = PanAction(Kind.LAY_OFF, cs("4c"), meld=1)
    assert lay in legal_actions(hand, 0)
    assert lay.to_json(["ann", "bob"])["label"] == "Add 4\u2663 to spread 2"


def play_random_legal(seed: int, steps: int) -> int:
    """Play a hand by choosing among the offered actions at random (fouls only tried, never
    chosen); every offered action is tried on a copy first and must be accepted. Returns how
    many actions were tried."""
    rng = random.Random(seed)
    hand = make_hand(HANDS, "", rules=PanRules())
    tried = 0
    for _ in range(steps):
        if hand.phase is Phase.COMPLETE:
            break
        seat = hand.to_act
        assert seat is not None
        if hand.phase is Phase.PLAYING and not hand.stock and not hand.turn_started:
            hand.reshuffle_stock([d.card for d in hand.discards[:-1]])
            continue
        offered = [a for a in legal_actions(hand, seat) if not a.choose]
        assert offered, f"nothing offered to seat {seat} in {hand.phase}"
        for a in offered:
            apply_action(copy.deepcopy(hand), seat, a)
            tried += 1
        calm = [a for a in offered if a.kind not in (Kind.FOUL_SELF, Kind.CALL_FOUL)]
        apply_action(hand, seat, rng.choice(calm or offered))
    return tried


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_offered_action_is_accepted_by_the_engine(seed: int) -> None:
    """What the page shows as a button is always legal: no offered action is refused."""
    assert play_random_legal(seed, 40) > 40


def test_typed_actions_read_back_from_json_as_the_same_action() -> None:
    """The page sends back the action it was offered: `action_from_json(to_json)`."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    hand.declare(0, True)
    hand.declare(1, True)
    hand.draw(0)
    for a in legal_actions(hand, 0):
        assert action_from_json(a.to_json()) == PanAction(
            a.kind, a.cards, a.meld, a.borrowed, a.seat, a.use, a.drawn)
    settle = action_from_json({"kind": "settle", "payments": [[1, 3]]})
    assert settle.payments == ((1, 3),)


@pytest.mark.parametrize("data", [
    "draw", {"kind": "dance"}, {"kind": "meld", "cards": "3c 4c"},
    {"kind": "meld", "cards": ["3x"]}, {"kind": "lay_off", "meld": -1},
    {"kind": "lay_off", "meld": True}, {"kind": "force_option", "use": "yes"},
    {"kind": "settle", "payments": [[1]]}, {"kind": "settle", "payments": [[1, -3]]},
])
def test_an_unreadable_action_is_refused_in_plain_words(data: object) -> None:
    """Bad input: one plain sentence, no field name, nothing applied."""
    with pytest.raises(CommandError) as err:
        action_from_json(data)
    text = str(err.value)
    assert text[0].islower() or text[0].isupper()
    for field in ("kind", "payments", "{", "_", "meld"):
        assert field not in text


def test_the_command_grammar_reads_as_typed_actions() -> None:
    """The terminal's words and the page's buttons are one vocabulary."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    assert parse_command(hand, "play") == PanAction(Kind.PLAY)
    assert parse_command(hand, "force back 1") == PanAction(Kind.FORCE_BACK, seat=1)
    assert parse_command(hand, "borrow 0 4c / 4s") == PanAction(
        Kind.BORROW, cs("4s"), meld=0, borrowed=cs("4c"))
    with pytest.raises(CommandError, match="name the cards"):
        parse_command(hand, "discard ,,")


@pytest.mark.parametrize("typed", ["force back \u00b2", "lay \u0661", "settle 1 \uff13",
                                   "force back \u0661"])
def test_a_number_not_in_ascii_digits_is_refused_as_a_command(typed: str) -> None:
    """Bad input (issue 26, Unicode digits): a seat or meld number typed as "²", an
    Arabic-Indic or a full-width digit is refused in a plain sentence, as every other unreadable
    number is, instead of reaching `int` (which fails on "²" and reads an Arabic-Indic one as 1)."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    with pytest.raises(CommandError):
        parse_command(hand, typed)


def test_the_table_log_tells_draws_melds_discards_in_plain_words() -> None:
    """Every player's action, bots' included, as a line of the table log: names, not seat
    numbers; cards with their suit symbols."""
    hand = make_hand(HANDS, "4d", rules=PanRules())
    hand.declare(0, True)
    hand.declare(1, True)
    hand.draw(0)
    hand.meld(0, cs("4s 4h"), use_drawn=True)
    hand.discard(0, c("2h"))
    names = ["ann", "bot-2"]
    lines = [line for ev in hand.events if (line := event_line(ev, names)) is not None]
    assert "ann plays" in lines and "bot-2 plays" in lines
    assert "ann draws 4\u2666" in lines
    assert any(line.startswith("ann: meld spread 1 (4") for line in lines)
    assert "ann discards 2\u2665" in lines
    assert not any("seat" in line for line in lines)
