"""Issue 10, "Replay checks the pack": a history whose cards cannot come from the game's shoe
or deck is refused before any action is replayed, and `cardroom replay` exits non-zero.

Mini-Baccarat / Super-9: standard 52-card decks ("Eight standard 52 card decks"), no joker.
Super Pan 9 rule 1: up to eight decks, the 7s, 8s, 9s and 10s removed and no jokers: 36 a deck.
Pai Gow clause 1: "one deck of cards including one joker (total of 53 cards)".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fixture_files import FIXTURES

from cardroom.cli import main
from cardroom.history import HandHistory, HistoryError, replay

BACCARAT = FIXTURES / "baccarat" / "coup-player-natural.json"
SP9 = FIXTURES / "super_pan_9" / "round-push-tie-bet-and-dealer-draw.json"
PAI_GOW = FIXTURES / "pai_gow" / "hand-win-and-push.json"


def raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def refused(data: dict[str, Any], needle: str) -> None:
    with pytest.raises(HistoryError, match=needle) as info:
        replay(HandHistory.from_json(data))
    assert "nothing was replayed" in str(info.value)


def test_baccarat_a_joker_is_no_card_of_a_52_card_deck() -> None:
    data = raw(BACCARAT)
    data["pack"][2] = "JK"
    refused(data, r"8-deck baccarat shoe \(52 cards a deck, no joker\).*beyond the shoe: JK")


def test_baccarat_one_deck_holds_one_nine_of_hearts() -> None:
    """With one deck (Super-9: without the jackpot the house may use fewer than 8), a coup
    dealt 9h twice did not come from the shoe."""
    data = raw(BACCARAT)
    data["rules"].update(decks=1, jackpot=False)
    data["setup"]["jackpot"] = None
    data["pack"] = ["9h", "2c", "9h", "5s"]
    refused(data, r"1-deck baccarat shoe.*beyond the shoe: 9h")


def test_super_pan_9_rule_1_an_eight_is_removed_from_the_shoe() -> None:
    data = raw(SP9)
    data["pack"][1] = "8c"
    refused(data, r"rule 1: 36 cards a deck.*beyond the shoe: 8c")


def test_super_pan_9_rule_1_one_deck_holds_one_of_each_card() -> None:
    """The example round (8 decks) deals 6c twice; made Kd twice, it cannot be one deck's."""
    data = raw(SP9)
    data["rules"]["decks"] = 1
    data["pack"][0] = "Kd"  # Kd is dealt again at index 3
    refused(data, r"36-card Super Pan 9 shoe of 1 deck\(s\).*beyond the shoe: 6c, Kd;")


@pytest.mark.parametrize(("change", "needle"), [
    (lambda p: p.__setitem__(0, p[1]), r"beyond the shoe: "),
    (lambda p: p.pop(), r"it has 52 cards, not 53: it lacks "),
    (lambda p: p.append("JK"), r"beyond the shoe: JK"),
    (lambda p: p.__setitem__(p.index("JK"), "8d"), r"beyond the shoe: 8d"),
], ids=["a-card-twice", "52-cards", "two-jokers", "no-joker"])
def test_pai_gow_clause_1_the_deck_is_exactly_53_cards_with_the_joker(
        change: Any, needle: str) -> None:
    data = raw(PAI_GOW)
    change(data["pack"])
    refused(data, r"not the Pai Gow deck \(clause 1: one deck with one joker, 53 cards\).*"
            + needle)


@pytest.mark.parametrize("path", [BACCARAT, SP9, PAI_GOW], ids=lambda p: p.parent.name)
def test_cli_replay_of_a_wrong_pack_is_one_error_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        path: Path) -> None:
    """A joker is in no baccarat or Super Pan 9 shoe, and a second one in no Pai Gow deck."""
    data = raw(path)
    data["pack"][data["pack"].index("JK") - 1 if "JK" in data["pack"] else 0] = "JK"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["cardroom", "replay", str(tampered)])
    with pytest.raises(SystemExit) as info:
        main()
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert err.startswith("error:") and "nothing was replayed" in err
