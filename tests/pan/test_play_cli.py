"""`cardroom play pan` through CliRunner with scripted input.

The first deal is a stacked pack (tests only: `first_deal` is replaced) and the computer
players are scripted test doubles, so every prompt and answer is known in advance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cards import parse_cards
from cardroom.cli import app, pan_play
from cardroom.games.pan import commands
from cardroom.games.pan.engine import PanHand
from cardroom.games.pan.rules import PanRules
from cardroom.history import HIDDEN_CARD, load_history, replay

from .helpers import c, cs, stacked_pack

runner = CliRunner()
Plan = Callable[[PanHand, int], None]


def discard_drawn(hand: PanHand, seat: int) -> None:
    hand.discard(seat, hand.drawn if hand.drawn is not None else hand.seats[seat].hand[0])


class Scripted:
    """A test double: draws every turn, then plays the next planned finish."""

    def __init__(self, plans: Sequence[Plan] = (), play: bool = True, split: bool = False,
                 settle_up_to: int = 0) -> None:
        self.plans = list(plans)
        self.play = play
        self.split = split
        self.settle_up_to = settle_up_to

    def declare(self, hand: PanHand, seat: int) -> None:
        hand.declare(seat, self.play if hand.can_declare(seat, self.play) else not self.play)

    def start(self, hand: PanHand, seat: int) -> None:
        hand.draw(seat)

    def finish(self, hand: PanHand, seat: int) -> None:
        (self.plans.pop(0) if self.plans else discard_drawn)(hand, seat)

    def react(self, hand: PanHand, seat: int) -> None:
        return

    def forced_discard(self, hand: PanHand, seat: int) -> None:
        hand.discard(seat, hand.seats[seat].hand[0])

    def react_option(self, hand: PanHand, seat: int) -> None:
        return

    def answer_split(self, hand: PanHand, seat: int) -> bool:
        return self.split

    def agree_settlement(self, hand: PanHand, seat: int, chips: int) -> bool:
        return chips <= self.settle_up_to


def _table(monkeypatch: pytest.MonkeyPatch, hands: list[str], stock: str, dealer: int,
           bots: list[Scripted]) -> None:
    n = len(hands)
    pack = stacked_pack(hands, stock, first_hand=(dealer + 1) % n)
    monkeypatch.setattr(pan_play, "first_deal", lambda rules, players, source: (dealer, pack))
    monkeypatch.setattr(pan_play, "new_bot", lambda seat: bots[seat - 1])


def _play(args: list[str], lines: list[str]) -> str:
    res = runner.invoke(app, ["play", "pan", "--seed", "7", *args], input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.stdout
    return res.stdout


def test_play_pan_split_collect_borrow_and_clear_errors(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """Reference, melds: splitting (a 7-card sequence into A-2-3 and 4-5-6-7) and borrowing
    (4c from 4-5-6-7 with 4s and the drawn 4h; 5-6-7 stays valid). Bad commands change
    nothing and say why."""
    _table(monkeypatch, ["Ac 2c 3c 4c 5c 7c 4s Kd Kh 2h", "Qd Qs Jh 2d 6s 7h Kc 5h 3s 4d"],
           "6c Js 4h Jd", dealer=1, bots=[Scripted()])
    out = _play(["--bots", "1", "--history-dir", str(tmp_path)], [
        "play", "draw",
        "meld 3c 3c 3s",                      # not held, and no meld: refused
        "meld Ac 2c 3c 4c 5c 7c", "split 9 Ac 2c 3c", "split 0 Ac 2c 3c", "collect",
        "discard 2h",
        "draw", "borrow 0", "borrow 0 4c / 4s", "discard Kd", "quit"])
    assert "legal: play | pass" in out
    assert "meld 5c 7c" in out                 # a use of the drawn 6c is listed
    assert "reference: melds" in out           # the refused meld names its rule
    assert "seat 0 has no meld 9" in out
    assert "split 0 Ac 2c 3c" in out           # listed before it is typed
    assert "you: split 4c 5c 6c 7c" in out and "you: split Ac 2c 3c" in out
    assert "5 chip(s) bot1 -> you (condition)" in out  # A-2-3 and four cards added
    assert "borrow: name the cards" in out
    assert "you: borrowed from 5c 6c 7c" in out and "you: borrow 4c 4h 4s" in out
    (path,) = tmp_path.glob("*.json")
    h = load_history(path)
    kinds = [a["type"] for a in h.actions]
    assert "split" in kinds and "borrow" in kinds
    report = replay(h)
    assert report.ok and report.actions_applied == len(h.actions)


def _two_6s(hand: PanHand, seat: int) -> None:
    hand.meld(seat, cs("6s 6s"), use_drawn=True)
    hand.discard(seat, c("2h"))


def _drop_and_discard(hand: PanHand, seat: int) -> None:
    hand.drop_card(seat, c("Qh"))
    discard_drawn(hand, seat)


def test_play_pan_force_option_card_force_back_and_call_a_foul(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """House rule 12: bot1 leaves a stock 6s that fits bot2's set and bot2 draws: the human
    forces him to use it. Rule 13: bot2 discards a stock 6s that fits his own set: forced back,
    he discards again. Foul rule 3C: bot1 throws a card on the floor; the human calls foul."""
    bot1 = Scripted([discard_drawn, discard_drawn, _drop_and_discard])
    bot2 = Scripted([_two_6s, lambda h, s: h.discard(s, c("2h")), discard_drawn])
    _table(monkeypatch, ["Kd Kd Qc Qc Jh Jh 2s 2s 4d 4d", "Qh 3d 5d 7h Ah 2c 4s 5s 7d Jc",
                         "6s 6s 2h 2h 4c 4c Jc Jc Qh Qh"],
           "Kc Qd 6s Ks 6s Jd Qs 6s", dealer=2, bots=[bot1, bot2])
    out = _play(["--bots", "2"], [
        "play",
        "draw", "discard",
        "draw", "discard", "force option use",
        "draw", "discard", "foul 1", "force back 2",
        "quit"])
    assert "legal: force option use | force option continue | ok" in out
    assert "you forced 6s on bot2: forced to use the option card" in out
    assert "bot2: forced lay off 6s 6s 6s 6s" in out
    assert "bot1: hand called foul" in out
    assert "legal: force back 2 | ok" in out
    assert "you forced 6s on bot2: forced back onto the spread" in out


def _go_out_with_qd(hand: PanHand, seat: int) -> None:
    hand.meld(seat, cs("5d 6d 7d Jd"), use_drawn=True)
    hand.meld(seat, cs("Ac 2c 3c"))
    hand.meld(seat, cs("4h 4h 4h"))
    hand.go_out(seat)


def test_play_pan_self_declared_foul_pays_the_outs(monkeypatch: pytest.MonkeyPatch) -> None:
    """House foul rule 2: the human declares his own hand foul; the bot is the only hand left
    (foul rule 5), plays on face up (5B) and goes out, and the human still pays all
    collections (the A-2-3 and the 4h set, 1 each) and the outs (2), besides his top."""
    _table(monkeypatch, ["Kd Kd Qc Qc Jh Jh 2s 2s 4d 4d", "Ac 2c 3c 4h 4h 4h 5d 6d 7d Jd"],
           "Kc Qd Qd", dealer=1, bots=[Scripted([discard_drawn, _go_out_with_qd])])
    out = _play(["--bots", "1"], ["play", "foul 1", "draw", "discard", "foul self", "n"])
    assert "gives no cause to call it foul" in out      # the bot did nothing wrong
    assert "you: declared own hand foul" in out
    assert "the only hand left plays face up (foul rule 5B)" in out
    assert "hand over: went out" in out
    assert "seat 0 you: -5 chips" in out and "seat 1 bot1: +5 chips" in out


def test_play_pan_histories_hide_the_stock_and_seat_rule_for_the_panner(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Pan rule 2 with players waiting: the human panned hand 1, plays one more hand in that
    seat, then moves. The history files a player reads name the 20 cards dealt and hide the
    280 the stock still held (docs/pan.md, Decisions: no record tells the next deal), and
    they still replay."""
    _table(monkeypatch, ["Kd Kd Qc Qc Jh Jh 2s 2s 4d 4d", "Qh 3d 5d 7h Ah 2c 4s 5s 7d Jc"],
           "", dealer=1, bots=[Scripted(play=False)])
    out = _play(["--bots", "1", "--waiting", "--history-dir", str(tmp_path)],
                ["play", "take tops", "y", "play", "take tops", "y", "play", "take tops", "n"])
    assert out.count("every other player passed") == 3
    assert "you panned: one more hand in this seat (Pan rule 2)" in out
    assert "you move from seat 0 to seat 1" in out
    h1, h2, h3 = (load_history(tmp_path / f"pan-hand-{i}.json") for i in (1, 2, 3))
    assert h3.seats[1]["name"] == "you" and h3.setup["dealer"] == 0   # first hand: seat 1
    dealt = 20
    for h in (h1, h2, h3):
        assert len(h.pack) == 320 and HIDDEN_CARD not in h.pack[:dealt]
        assert h.pack[dealt:] == [HIDDEN_CARD] * (320 - dealt)
        assert replay(h).ok
    assert sorted(parse_cards(" ".join(h1.pack[:dealt]))) == sorted(parse_cards(
        "Kd Kd Qc Qc Jh Jh 2s 2s 4d 4d Qh 3d 5d 7h Ah 2c 4s 5s 7d Jc"))


def test_legal_commands_list_every_kind_of_action() -> None:
    """The listing a human sees names real, typable commands."""
    from .helpers import make_hand

    hand = make_hand(["Ac 2c 3c 4c 5c 6c 7c 4s 4h 2h", "Qd Qs Jh 2d 6s 7h Kc 5h 3s 4d"], "4d",
                     rules=PanRules())
    assert commands.legal_commands(hand, 0) == ["play", "pass"]
    hand.declare(0, True)
    hand.declare(1, True)
    hand.draw(0)
    legal = commands.legal_commands(hand, 0)
    assert "discard 4d" in legal and "meld 4s 4h" in legal and "foul self" in legal
    hand.discard(0, c("4d"))
    assert "change" not in commands.legal_commands(hand, 0)


def _offer_then_discard(hand: PanHand, seat: int) -> None:
    hand.offer_split(seat)
    discard_drawn(hand, seat)


TWO = ["Kd Kd Qc Qc Jh Jh 2s 2s 4d 4d", "Qh 3d 5d 7h Ah 2c 4s 5s 7d Jc"]


def test_play_pan_house_pays_rule_2_offer_refused_then_accepted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """House pays rule 2: two players in action may agree to split the tops; "if one player
    refuses ... action continues". The human offers and the bot refuses (play goes on); the bot
    offers, the human declines, the bot offers again and the human accepts: each has 1 of the
    2 chips of tops back, so nobody wins or loses."""
    bot = Scripted([_offer_then_discard, _offer_then_discard])
    _table(monkeypatch, TWO, "Kc Qd Ks Qs", dealer=1, bots=[bot])
    out = _play(["--bots", "1"], [
        "play", "offer split", "draw", "discard",
        "decline split", "draw", "discard",
        "accept split", "n"])
    assert "offer split" in out.split("legal: ")[2]            # listed on the human's turn
    assert "you: offers to split the tops (house pays rule 2)" in out
    assert "bot1: refuses to split the tops (house pays rule 2)" in out
    assert "legal: accept split | decline split" in out
    assert "you: refuses to split the tops (house pays rule 2)" in out
    assert "hand over: tops split" in out
    assert "seat 0 you: +0 chips" in out and "seat 1 bot1: +0 chips" in out


def test_play_pan_house_pays_rule_2_bot_accepts_the_human_offer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """House pays rule 2: the other player agrees, the hand ends with the tops split."""
    _table(monkeypatch, TWO, "Kc Qd", dealer=1, bots=[Scripted(split=True)])
    out = _play(["--bots", "1"], ["play", "offer split", "n"])
    assert "bot1: offers" not in out
    assert "hand over: tops split" in out


def test_play_pan_foul_rule_5a_settle_with_the_foul_hand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """House foul rule 5: the human calls bot1's hand foul (3C, a card thrown on the floor)
    and is the only player left: he may settle (5A) or play face up (5B). A settlement the
    foul hand does not accept changes nothing ("mutually satisfactory"); 2 chips agreed: the
    human takes them and the 2-chip tops, +3 on his 1-chip ante, the bot -3."""
    _table(monkeypatch, TWO, "Kc Qd", dealer=1,
           bots=[Scripted([_drop_and_discard], settle_up_to=2)])
    out = _play(["--bots", "1"], [
        "play", "draw", "discard", "foul 1",
        "settle 0 1", "settle 1 5", "settle 1 2", "n"])
    assert "legal: settle SEAT CHIPS [SEAT CHIPS ...] | face up" in out
    assert "seat 0 has no foul hand to settle" in out
    assert "seat 1 refuses to pay 5 chip(s)" in out
    assert "2 chip(s) bot1 -> you (negotiated settlement (foul rule 5A))" in out
    assert "hand over: settled with the foul hands" in out
    assert "seat 0 you: +3 chips" in out and "seat 1 bot1: -3 chips" in out


def test_play_pan_foul_rule_5b_face_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """House foul rule 5B: the human chooses to play the hand out face up."""
    _table(monkeypatch, TWO, "Kc Qd", dealer=1, bots=[Scripted([_drop_and_discard])])
    out = _play(["--bots", "1"], ["play", "draw", "discard", "foul 1", "face up", "quit"])
    after = out.split("legal: settle SEAT CHIPS")[1]
    assert "legal: draw" in after             # his turn again, now face up


def _redeal_after_a_false_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot1 declares out falsely (3F), the human throws his hand in and calls the foul (no
    terminal command makes a false out or a throw-in: the test double drives the engine for
    both): a redeal, one chip of tops from each seat left on the table; in the redeal bot1
    passes."""
    bot = Scripted()

    def false_out_then_pass(hand: PanHand, seat: int) -> None:
        hand.declare_out(seat)
        hand.throw_in(0)
        hand.call_foul(0, seat)
        bot.play = False

    bot.plans = [false_out_then_pass]
    _table(monkeypatch, TWO, "Kc Qd", dealer=1, bots=[bot])


def test_play_pan_a_redeal_carries_the_tops_to_the_next_hand(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """House foul rule 6: "the Tops remain and the hand is redealt" (`_redeal_after_a_false_out`).
    The next hand is dealt with them (issue 20: the terminal lost them, players ended with 38
    of their 40 chips): bot1 passes, the human takes 4 chips of tops, and the two stacks
    still hold all 40 chips."""
    _redeal_after_a_false_out(monkeypatch)
    out = _play(["--bots", "1", "--history-dir", str(tmp_path)],
                ["play", "draw", "discard", "y", "play", "n"])
    assert "every other active player to foul (rule 6)" in out
    assert "the tops stay for the redeal (foul rule 6): 2 chip(s) go to the next hand" in out
    second = out.split("another hand?")[1]
    assert "tops: 4" in second
    assert "4 chip(s) tops -> you (tops)" in second
    assert "seat 0 you: +3 chips, 22 on the table" in second
    assert "seat 1 bot1: -1 chips, 18 on the table" in second
    h2 = load_history(tmp_path / "pan-hand-2.json")
    assert h2.setup["carried_tops"] == [2, 0] and replay(h2).ok


@pytest.mark.parametrize("ending", [["n"], ["y", "quit"]], ids=["no-more-hands", "quit"])
def test_play_pan_the_game_ends_before_the_redeal_the_tops_go_back(
        monkeypatch: pytest.MonkeyPatch, ending: list[str]) -> None:
    """Foul rule 6: the tops remain for the redeal, but the human ends the game before it
    (no more hands), or quits in the redealt hand (left unfinished, it counts for nothing):
    no hand is dealt for the tops and no one won them, so each player takes back the chip
    he put up, and the stacks hold all 40 chips (issue 20: they ended with 38)."""
    _redeal_after_a_false_out(monkeypatch)
    out = " ".join(_play(["--bots", "1"], ["play", "draw", "discard", *ending]).split())
    assert "the tops stay for the redeal (foul rule 6): 2 chip(s) go to the next hand" in out
    assert "the tops go back to the players who put them up: you 1, bot1 1" in out
    assert out.endswith("chips at the end: you 20, bot1 20")
