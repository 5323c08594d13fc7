"""`cardroom replay FILE` for every game: each history replays through its game's own engine,
and a tampered history is refused at the first illegal action, with its index and the rule
it breaks, nothing after it applied. Expected figures are worked out from the cards by hand
(see each test's docstring), never read back from the code under test."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from fixture_files import FIXTURES
from typer.testing import CliRunner

from cardroom import registry
from cardroom.cli import app
from cardroom.history import HandHistory, HistoryError, load_history, replay

SP9 = FIXTURES / "super_pan_9" / "round-push-tie-bet-and-dealer-draw.json"
PAI_GOW = FIXTURES / "pai_gow" / "hand-win-and-push.json"
BACCARAT = FIXTURES / "baccarat" / "coup-player-natural.json"
PAN = FIXTURES / "pan" / "going-out.json"
EXAMPLES = {"super-pan-9": SP9, "pai-gow": PAI_GOW, "baccarat": BACCARAT, "pan": PAN}


def raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def history(data: dict[str, Any]) -> HandHistory:
    return HandHistory.from_json(data)


# every game ---------------------------------------------------------------------------------
def test_one_example_history_per_game_and_one_dispatch_table() -> None:
    assert set(EXAMPLES) == set(registry.names())
    for game, path in EXAMPLES.items():
        assert load_history(path).game == game


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_cli_replays_the_example_history_of_every_game(game: str) -> None:
    result = CliRunner().invoke(app, ["replay", str(EXAMPLES[game]), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["game"] == game and report["ok"] and report["failure"] is None
    assert report["actions_applied"] == report["actions_total"]
    assert report["result_matches"] is True


def test_an_unknown_game_is_a_clear_error() -> None:
    data = raw(SP9)
    data["game"] = "fan-tan"
    with pytest.raises(HistoryError, match=r"no replayer for the game 'fan-tan'.*pai-gow"):
        replay(history(data))


# Super Pan 9 --------------------------------------------------------------------------------
def test_super_pan_9_rules_6_7_8_9_replay_the_example_round() -> None:
    """Deal order (rule 3): seat 2, seat 5, dealer, three times: Qd 6c 4d / Kd 6s 5d /
    Qs 6c 3h. Seat 2 has 0 and draws 3d (rule 6): 3. Seat 5 has 6+6+6 = 8 and stands. The
    dealer's 4+5+3 = 2 draws (rule 7 i) As: 3. Seat 2 ties: the wager pushes, its 200 Tie Bet
    pays 8 to 1 = 1600 (rule 9). Seat 5 wins 2000 less 5% commission = 1900 (rule 8)."""
    report = replay(load_history(SP9))
    assert report.ok and report.actions_applied == 7
    assert report.start_chips == [20000, 5000]
    assert report.final_chips == [21600, 6900]
    assert [(m["payee"], m["chips"]) for m in report.movements] == [(0, 1600), (1, 1900)]
    assert "dealer 3" in report.outcome


def test_super_pan_9_rule_6_out_of_turn_is_refused_with_index_and_nothing_after() -> None:
    data = raw(SP9)
    data["actions"][3], data["actions"][4] = data["actions"][4], data["actions"][3]
    report = replay(history(data))
    assert not report.ok
    assert report.failure is not None and report.failure.index == 3
    assert report.failure.rule.startswith("rule 6")
    assert "seat 2's turn" in report.failure.message
    assert report.actions_applied == 3 and report.movements == []
    # the wagers are down, nothing else moved: no settlement
    assert report.final_chips == [20000 - 1200, 5000 - 2000]
    assert report.outcome.startswith("unfinished")


def test_super_pan_9_rule_7_dealer_must_draw_before_settling() -> None:
    data = raw(SP9)
    assert data["actions"][-1] == {"type": "dealer_draw"}
    data["actions"].pop()
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 6
    assert report.failure.rule == "rule 7 i"
    assert report.final_chips == [18800, 3000] and report.movements == []


def test_super_pan_9_rule_7_a_dealer_on_6_cannot_draw() -> None:
    """A dealer who stands on 6-9 never draws (rule 7 ii): an extra dealer_draw after the
    drawn card is refused (the dealer has drawn already)."""
    data = raw(SP9)
    data["actions"].append({"type": "dealer_draw"})
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 7
    assert report.failure.rule.startswith("rule 7")


def test_super_pan_9_rule_5_wager_over_the_table_limit_is_refused() -> None:
    data = raw(SP9)
    data["actions"][0]["amount"] = 10_000_000
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 0
    assert report.failure.rule.startswith("rule 5") and "limits" in report.failure.message
    assert report.actions_applied == 0 and report.final_chips == report.start_chips


def test_super_pan_9_rule_5_a_wager_its_stack_cannot_cover_is_refused_by_the_engine() -> None:
    """Rule 5 (a player places a wager, from the chips in front of them), issue 20: bob sat
    with $50.00; a $40.00 wager and a $20.00 Tie Bet are refused by the engine, in the words
    the room uses."""
    data = raw(SP9)
    data["actions"][1].update(amount=4_000, tie=2_000)
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 1
    assert report.failure.rule == "rule 5 (wagers)"
    assert report.failure.message == "your stack has $50.00: it cannot cover $60.00"


def test_super_pan_9_a_card_no_36_card_shoe_holds_is_refused() -> None:
    data = raw(SP9)
    data["pack"][0] = "Td"
    with pytest.raises(HistoryError, match="rule 1: 36 cards a deck"):
        replay(history(data))


def test_super_pan_9_a_changed_result_does_not_match() -> None:
    data = raw(SP9)
    data["result"]["chips"] = [21600, 7000]
    report = replay(history(data))
    assert report.failure is None and report.result_matches is False and not report.ok


# Pai Gow -------------------------------------------------------------------------------------
def test_pai_gow_clause_10_replay_the_example_hand() -> None:
    """Dice 4+3+1 = 8 start at position 1 (clause 5). The dealer, house way: T-J in front,
    pair of fours behind. Ann: A-T front beats J high, 3-5-6-7 with the joker is a straight,
    beating the fours: she wins 1000 less 5% = 950 (clause 10). Bob: A-K front wins, pair of
    twos behind loses: a push."""
    report = replay(load_history(PAI_GOW))
    assert report.ok and report.actions_applied == 5
    assert report.final_chips == [20950, 10000]
    assert [(m["payer"], m["payee"], m["chips"]) for m in report.movements] == [
        (None, 0, 1000), (0, None, 50)]


def test_pai_gow_clause_6_a_card_not_in_the_hand_is_refused() -> None:
    data = raw(PAI_GOW)
    bob = data["actions"][4]
    assert bob["type"] == "house_way"
    dealer_front = "Tc"  # the dealer's card, never in Bob's hand
    data["actions"][4] = {"type": "set", "spot": 5, "front": [dealer_front, "Kh"]}
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 4
    assert report.failure.rule.startswith("clause 6")
    assert report.final_chips == [20000, 10000] and report.movements == []
    assert report.outcome.startswith("unfinished")


def test_pai_gow_clause_5_dice_that_start_elsewhere_are_refused() -> None:
    data = raw(PAI_GOW)
    data["actions"][2]["dice"] = [1, 1, 1]  # 3: position 3, not the recorded 1
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 2
    assert report.failure.rule == "clause 5" and report.actions_applied == 2


def test_pai_gow_table_limits_refuse_a_small_wager() -> None:
    data = raw(PAI_GOW)
    data["actions"][1]["amount"] = 100
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 1
    assert "table limits" in report.failure.message


def test_pai_gow_clause_10_a_second_wager_from_one_seat_is_refused_by_the_engine() -> None:
    """Clause 10 (wagers), issue 20: the replay, like the room, refuses a seat's second wager at
    that action (the engine refuses it; the replay checks nothing by hand)."""
    data = raw(PAI_GOW)
    data["actions"].insert(1, {"type": "wager", "seat": 2, "amount": 3000})
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 1
    assert report.failure.rule == "clause 10 (wagers)"
    assert report.failure.message == "you already have a wager on this hand"


def test_pai_gow_banking_the_house_banks_every_other_hand() -> None:
    data = raw(PAI_GOW)
    data["setup"]["player_banked_last"] = True
    data["actions"].insert(0, {"type": "bank", "seat": 5, "dealer_wager": 1000})
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 0
    assert report.failure.rule == "banking the game"
    assert "every other hand" in report.failure.message


def test_pai_gow_nothing_may_follow_the_settlement() -> None:
    data = raw(PAI_GOW)
    data["actions"].append({"type": "wager", "seat": 2, "amount": 1000})
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 5
    assert report.final_chips == [20950, 10000]


# baccarat -----------------------------------------------------------------------------------
def test_baccarat_the_recorded_cards_are_dealt_once() -> None:
    """A baccarat history holds one coup (docs/hand-history.md) and its four cards: a history
    that deals after the first bet and again after the second would deal them twice (issue 24:
    the driver checks the recorded shoe for every game), and is refused at the second deal."""
    data = raw(BACCARAT)
    assert len(data["pack"]) == 4
    data["actions"].insert(1, {"type": "deal"})
    report = replay(history(data))
    assert report.failure is not None and report.failure.index == 3
    assert report.failure.message == "the 4 recorded cards run out before the hand is complete"


# the command line -----------------------------------------------------------------------------
def test_cli_refuses_a_tampered_history_with_index_and_rule(tmp_path: Path) -> None:
    data = copy.deepcopy(raw(SP9))
    data["actions"][3], data["actions"][4] = data["actions"][4], data["actions"][3]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "illegal action 3" in result.output and "rule 6" in result.output
    as_json = CliRunner().invoke(app, ["replay", str(path), "--json"])
    report = json.loads(as_json.output)
    assert report["failure"]["index"] == 3 and report["actions_applied"] == 3
