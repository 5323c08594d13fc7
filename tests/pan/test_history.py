"""Hand histories: the JSON format, replay of every example, illegal actions, the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli import app, main
from cardroom.games.pan import errors as R
from cardroom.games.pan.bots import SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.driver import play_hand
from cardroom.games.pan.engine import PanHand, SeatSpec
from cardroom.games.pan.history import at_seats, history_of
from cardroom.games.pan.rules import PanRules
from cardroom.history import HIDDEN_CARD, HandHistory, HistoryError, load_history, replay
from cardroom.shoe import SeededRandom, fisher_yates

from .scenarios import FIXTURES, SCENARIOS

runner = CliRunner()

# Net chips per seat, worked out by hand from the rules (see the comments).
EXPECTED_NET = {
    # p0: valle one suit 2 + valle mixed 1 + addition 1; p1: 4h set 1, A-2-3 1, J-Q-K 1;
    # the two tops split one each
    "every-condition": [1, -1],
    "every-condition-spades-double": [0, 0],  # J-Q-K of spades pays 2
    # 2 conditions x 2 payers + outs 2 x 2 + tops 3, less his own top
    "going-out": [10, -5, -5],
    # doubles pay doubles double: p0 collects 4 + 2; p1 collects 4 + 2, outs 2 + 2,
    # tops 3 and double tops 2
    "double-condition": [-2, 9, -7],
    # foul hand: repays, then pays value (2) plus 2 instead of the outs
    "foul-3c-card-on-the-floor": [-5, 10, -5],
    # self-declared foul: still pays the conditions (2) and the outs (2)
    "foul-self-declared": [-1, 8, -7],
    # rule 6: the tops stay for the redeal, everything else goes back
    "foul-3f-false-out-redeal": [-1, -1, -1],
    # 8A dead hand: ante back; 8B nine cards then passed: top lost
    # 3F cascade: tops 1 each; p0 +4 (3c set), p2 +2 (5s set); p0 repays p1 2; p1 goes out
    # alone: tops 3, outs 2 from p0 (declarer) and 2 from p2 (fouled by the declaration)
    "foul-3f-cascade": [-2, 5, -3],
    # 14B: p1 collects 2 x 3 (four 6s: the set and one card added), p2 5 x 3 (5h set 2, four
    # 7c 2 + 1); the 5h forced on p1, who goes out for the outs only: tops 4, 2 from each of
    # the three others
    "rule-14b-one-card-puts-two-out": [-10, 10, 10, -10],
    "wrong-counts-rule-8": [1, -1, 0],
}


def test_every_scenario_has_an_example_history() -> None:
    assert {p.stem for p in FIXTURES.glob("*.json")} == set(SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_example_history_replays_and_matches_its_result(name: str) -> None:
    report = replay(load_history(FIXTURES / f"{name}.json"))
    assert report.ok and report.failure is None and report.result_matches is True
    assert report.actions_applied == report.actions_total
    if name in EXPECTED_NET:
        nets = [b - a for a, b in zip(report.start_chips, report.final_chips, strict=True)]
        assert nets == EXPECTED_NET[name]
    assert sum(report.final_chips) <= sum(report.start_chips)  # tops may carry (rule 6)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_example_history_is_the_engine_output(name: str) -> None:
    """The fixtures are the scripted scenarios, recorded: the format round-trips."""
    hand = SCENARIOS[name]()
    assert json.loads(history_of(hand, name).dumps()) == json.loads(
        (FIXTURES / f"{name}.json").read_text())


def _with_bad_action(index: int, action: dict[str, object]) -> HandHistory:
    h = load_history(FIXTURES / "going-out.json")
    h.actions.insert(index, action)
    h.result = None
    return h


def test_illegal_action_reported_with_index_and_rule_nothing_after_applied() -> None:
    h = _with_bad_action(3, {"type": "draw", "seat": 2})
    report = replay(h)
    assert report.failure is not None
    assert report.failure.index == 3 and report.failure.rule == R.TURN_1
    assert report.actions_applied == 3
    assert report.final_chips == [19, 19, 19]  # only the tops went up


def test_illegal_meld_in_history_names_the_melds_rule() -> None:
    h = _with_bad_action(4, {"type": "meld", "seat": 0, "cards": ["Ac", "4h"],
                             "use_drawn": True})
    report = replay(h)
    assert report.failure is not None and report.failure.rule == R.MELDS
    assert not report.movements


def test_bad_card_or_unknown_action_is_a_failure_not_a_crash() -> None:
    for act in ({"type": "discard", "seat": 0, "card": "Zz"}, {"type": "steal", "seat": 0},
                {"type": "draw", "who": 0}):
        report = replay(_with_bad_action(3, act))
        assert report.failure is not None and report.failure.index == 3


def test_history_file_errors(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="no such file"):
        load_history(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(HistoryError, match="not valid JSON"):
        load_history(bad)
    bad.write_text(json.dumps({"format": "other"}))
    with pytest.raises(HistoryError, match="not a cardroom hand history"):
        load_history(bad)
    h = load_history(FIXTURES / "going-out.json")
    h.game = "canasta"
    with pytest.raises(HistoryError, match="no replayer"):
        replay(h)


def test_a_history_is_written_for_every_bot_hand_and_replays() -> None:
    rules = PanRules()
    for seed in range(3):
        pack = fisher_yates(pan_pack(rules), SeededRandom(seed))
        hand = PanHand(rules, [SeatSpec(f"b{i}", 20) for i in range(5)], seed % 5, pack)
        play_hand(hand, [SoundBot()] * 5, random.Random(seed))
        report = replay(HandHistory.from_json(json.loads(history_of(hand).dumps())))
        assert report.ok and report.result_matches


def test_a_history_hides_exactly_the_cards_no_one_saw_and_still_replays() -> None:
    """docs/pan.md, Decisions (the history and the next deal): every card still unseen in
    the stock, of the pack or of a stock made again from the discards (reference: the stock
    runs out), is written "??"; every card that left the stock is named in its place. Small
    packs and a full table run the stock out, so reshuffled stocks are covered."""
    rules = PanRules(packs=5)
    reshuffled_hidden = 0
    for seed in range(12):
        pack = fisher_yates(pan_pack(rules), SeededRandom(seed))
        hand = PanHand(rules, [SeatSpec(f"b{i}", 20) for i in range(15)], seed % 15, pack)
        play_hand(hand, [SoundBot()] * 15, random.Random(seed))
        doc = json.loads(history_of(hand).dumps())
        # the pack's cards still in the stock, never drawn, lie at the end of the stock list
        # from the deal on; every card the history names is the real one
        assert [c for c in doc["pack"] if c != HIDDEN_CARD] == [
            str(c) for c, shown in zip(pack, doc["pack"], strict=True) if shown != HIDDEN_CARD]
        orders = [a["order"] for a in doc["actions"] if a["type"] == "reshuffle_stock"]
        real = [a["order"] for a in hand.actions if a["type"] == "reshuffle_stock"]
        hidden = [c for c, shown in zip(pack, doc["pack"], strict=True) if shown == HIDDEN_CARD]
        for shown_order, real_order in zip(orders, real, strict=True):
            hidden += [c for c, s in zip(real_order, shown_order, strict=True)
                       if s == HIDDEN_CARD]
            reshuffled_hidden += shown_order.count(HIDDEN_CARD)
        # what is hidden is exactly what the stock still holds: nothing else was ever drawn
        assert sorted(str(c) for c in hidden) == sorted(str(c) for c in hand.stock)
        report = replay(HandHistory.from_json(doc))
        assert report.ok and report.result_matches
    assert reshuffled_hidden > 0


def test_a_card_seen_and_put_back_on_the_stock_is_named_in_the_history() -> None:
    """Rule 12 (forcing the option card): the drawn card goes back on the stock, seen by
    everyone; the history names it where it lay in the pack, and the unseen rest is hidden."""
    hand = SCENARIOS["forcing-option-card"]()  # 3 seats dealt 30 cards, 5 drawn
    assert hand.actions[-3]["type"] == "force_option_card"
    doc = json.loads(history_of(hand).dumps())
    assert doc["pack"][:35] == [str(c) for c in hand.pack[:35]]
    assert doc["pack"][35:] == [HIDDEN_CARD] * (len(hand.pack) - 35)
    assert hand.stock[-1] == hand.pack[34]  # the forced player's draw, back on the stock
    assert replay(HandHistory.from_json(doc)).ok


def test_a_hidden_card_that_is_not_the_rest_of_the_pack_is_refused() -> None:
    """A Pan pack has no 8s (reference: Cards): a history naming one in place of a hidden
    card is refused, the 8c named, before any hidden card is filled."""
    h = load_history(FIXTURES / "going-out.json")
    h.pack[h.pack.index(HIDDEN_CARD)] = "8c"
    with pytest.raises(HistoryError, match=r"not the Pan pack .*beyond the shoe: 8c"):
        replay(h)


def test_cli_replay_json_and_text(tmp_path: Path) -> None:
    res = runner.invoke(app, ["replay", str(FIXTURES / "going-out.json"), "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["ok"] and [s["net"] for s in data["settlement"]] == [10, -5, -5]
    res = runner.invoke(app, ["replay", str(FIXTURES / "double-condition.json")])
    assert res.exit_code == 0 and "Settlement" in res.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(_with_bad_action(3, {"type": "draw", "seat": 2}).dumps())
    res = runner.invoke(app, ["replay", str(bad), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout)["failure"]["index"] == 3


def _with_pack(cards: list[str]) -> HandHistory:
    h = load_history(FIXTURES / "going-out.json")
    h.pack = cards
    return h


def test_replay_refuses_a_pack_that_is_not_the_pan_pack(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Reference, cards: eight 40-card packs (no 8s, 9s, 10s), 320 cards. A history whose pack
    has 100 cards, or holds 8s (which would let 8h 8h 8h be melded and paid), is refused
    before any action is replayed: one `error:` line, exit status 2."""
    pack = load_history(FIXTURES / "going-out.json").pack
    with pytest.raises(HistoryError, match=r"not the Pan pack .*it has 100 cards, not 320"):
        replay(_with_pack(pack[:100]))
    eights = [*pack[:30], "8h", "8h", "8h", *pack[33:]]
    with pytest.raises(HistoryError, match=r"not the Pan pack .*beyond the shoe: 3 x 8h"):
        replay(_with_pack(eights))
    extra = [pack[0]] * 9 + pack[9:]
    with pytest.raises(HistoryError, match=rf"not the Pan pack .*beyond the shoe: {pack[0]};"):
        replay(_with_pack(extra))
    bad = tmp_path / "eights.json"
    bad.write_text(_with_pack(eights).dumps())
    monkeypatch.setattr("sys.argv", ["cardroom", "replay", str(bad)])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "beyond the shoe: 3 x 8h" in err


def test_a_void_ends_a_pan_history_with_every_stack_as_before() -> None:
    """Issue 20, every floor action replays: a Pan hand voided after some play (its pack as
    recorded, the actions so far, then `void`) replays with every stack as before the hand
    and no chip moved; the room's record of a void (no pack, the seats and the void) replays
    the same, and such a record holding any other action is refused, not run on no cards."""
    h = load_history(FIXTURES / "going-out.json")
    void = {"type": "void", "by": "fiona", "reason": "cards exposed"}
    partial = HandHistory(game="pan", rules=h.rules, seats=h.seats, pack=h.pack,
                          setup=h.setup, actions=[*h.actions[:4], void],
                          result={"chips": [s["chips"] for s in h.seats]})
    report = replay(partial)
    assert report.ok, report.failure
    assert report.actions_applied == 5 and report.final_chips == report.start_chips
    assert report.outcome == "voided by fiona: cards exposed; every wager returned"
    recorded = HandHistory(game="pan", rules=h.rules, seats=h.seats, pack=[], setup={},
                           actions=[void], result={"chips": [20, 20, 20]})
    assert replay(recorded).ok
    bad = replay(HandHistory(game="pan", rules=h.rules, seats=h.seats, pack=[], setup={},
                             actions=[{"type": "draw", "seat": 0}, void]))
    assert bad.failure is not None and bad.failure.index == 0
    assert "only the void" in bad.failure.message


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_hand_at_table_seats_writes_the_history_of_the_same_hand_at_seats_0_to_n(
        seed: int) -> None:
    """Issue 24, one seat for every engine: the engine knows a seat by its table seat number,
    the history by its place in the hand. The same hand dealt at seats 2, 5 and 7 (dealer 5)
    and at seats 0, 1 and 2 (dealer 1) plays the same (its events the same but for the
    numbers) and writes the same history, byte for byte; `at_seats` replays that history at
    2, 5 and 7 again, to the same table."""
    numbers = [2, 5, 7]
    pack = fisher_yates(pan_pack(PanRules()), SeededRandom(seed))
    specs = [SeatSpec(name, 20, False) for name in ("ann", "bob", "cy")]
    placed = play_hand(PanHand(PanRules(), specs, 1, pack), [SoundBot() for _ in specs],
                       random.Random(seed))
    hand = PanHand(PanRules(), dict(zip(numbers, specs, strict=True)), 5, pack)
    assert hand.order == [7, 2, 5] and hand.first_hand == 7 and hand.to_act == 7
    play_hand(hand, {n: SoundBot() for n in numbers}, random.Random(seed))
    assert hand.actions and len(hand.events) == len(placed.events)
    assert hand.winner == (None if placed.winner is None else numbers[placed.winner])
    for whole in (False, True):
        written = json.dumps(history_of(hand, "h", whole).to_json())
        assert written == json.dumps(history_of(placed, "h", whole).to_json())
    again = at_seats(history_of(hand, "h", whole=True), numbers)
    assert again.events == hand.events and again.snapshot(5) == hand.snapshot(5)
    assert [s["seat"] for s in hand.snapshot(None)["seats"]] == numbers
