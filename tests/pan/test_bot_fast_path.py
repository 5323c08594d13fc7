"""Issue 24, bots on the protocol: the bots take their moves from the engine's own lists of
legal moves (`legal_discards`, `card_uses`, `hand_uses`) and apply them `unchecked`; people
and replays keep the checked path. These tests play the same seeded hands both ways and ask
that they agree move by move, and that each shortcut the fast path takes answers as the full
check does (the `can_x` of every candidate, the unscreened search for uses, the out-card
search without its partner screen, the pack between hands counted with `Counter`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import pytest

from cardroom.cards import Card
from cardroom.engine import unchecked
from cardroom.games.pan import bots
from cardroom.games.pan.bots import Bot, RandomBot, SoundBot, discard_legal
from cardroom.games.pan.cards import ORDER, pan_pack
from cardroom.games.pan.driver import RngSource, advance
from cardroom.games.pan.engine import PanHand, SeatSpec, Status
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.outs import OutPlan, best_out
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import next_dealer, next_pack, pack_after
from cardroom.games.pan.uses import Use, card_uses
from cardroom.shoe import fisher_yates

from .helpers import FILLER, all_play, make_hand


class CheckedHand(PanHand):
    """Every shortcut answer compared with the full check in the same state (played with
    the bots' moves checked: `play`)."""

    asked: ClassVar[Counter[str]] = Counter()

    def legal_discards(self, seat: int) -> list[Card]:
        fast = super().legal_discards(seat)
        s = self.seats[seat]
        candidates = list(dict.fromkeys([*s.hand, *([self.drawn] if self.drawn else [])]))
        slow = [c for c in candidates if self.can_discard(seat, c)]
        assert set(fast) == set(slow)
        if self.drawn is None or self.forced_discard == seat:
            assert fast == slow  # each hand card once, in hand order
        self.asked["legal_discards"] += 1
        return fast

    def hand_uses(self, seat: int) -> list[tuple[Card, Use]]:
        fast = super().hand_uses(seat)
        s = self.seats[seat]
        melds = [(m.cards, m.kind) for m in s.melds]
        slow: list[tuple[Card, Use]] = []
        for card in dict.fromkeys(s.hand):
            rest = list(s.hand)
            rest.remove(card)
            slow += [(card, u) for u in card_uses(card, rest, melds,
                                                  self.rules.strict_set_additions)]
        assert fast == slow
        self.asked["hand_uses"] += 1
        return fast

    def out_plan(self, seat: int, card: Card) -> OutPlan | None:
        fast = super().out_plan(seat, card)
        s = self.seats[seat]
        if fast is None and s.status is Status.IN and all(m.valid for m in s.melds) \
                and s.card_count == 10:
            assert _unscreened_out(card, s.hand, [(m.cards, m.kind) for m in s.melds],
                                   self.rules) is None
        self.asked["out_plan"] += 1
        return fast


def _unscreened_out(card: Card, hand: Sequence[Card], melds: Sequence[Any],
                    rules: PanRules) -> OutPlan | None:
    """`best_out` with its partner screen answering yes: the whole search."""
    import cardroom.games.pan.outs as outs

    screen = outs._partners_everywhere
    outs._partners_everywhere = lambda loose, melds: True  # type: ignore[assignment]
    try:
        return best_out(card, hand, melds, rules)
    finally:
        outs._partners_everywhere = screen


def play(cls: type[PanHand], kinds: Sequence[str], hands: int, seed: int,
         rules: PanRules) -> list[tuple[list[dict[str, Any]], list[str]]]:
    """`hands` seeded hands at one table, each dealt from the pack the last one left: every
    hand's recorded moves (its actions, in order) and its events."""
    source = RngSource(random.Random(seed))
    players: list[Bot] = [SoundBot() if k == "sound" else RandomBot(random.Random(seed + i))
                          for i, k in enumerate(kinds)]
    specs = [SeatSpec(f"{k}{i}", 40) for i, k in enumerate(kinds)]
    pack = fisher_yates(pan_pack(rules), source)
    dealer = 0
    out = []
    for _ in range(hands):
        hand = cls(rules, specs, dealer, pack, record=True)
        advance(hand, players, source)
        out.append((hand.actions, [repr(e) for e in hand.events]))
        pack = pack_after(hand, source)
        dealer = next_dealer(len(kinds), hand.winner, hand.dealer)
    return out


@pytest.mark.parametrize(("kinds", "hands", "seed", "strict"), [
    (["sound"] * 8, 40, 1, False),
    (["sound", "random", "sound", "random"], 60, 2, False),
    (["sound", "sound"], 80, 3, False),
    (["random"] * 5, 40, 4, True),
])
def test_bots_fast_path_and_checked_path_agree_move_by_move(
        kinds: list[str], hands: int, seed: int, strict: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: the same seeded hands played with moves applied unchecked from the engine's
    legal lists and with every move verified (and every legal list, use search and out
    search compared with the full check) make the same moves and the same events."""
    rules = PanRules(strict_set_additions=strict)
    CheckedHand.asked.clear()
    fast = play(PanHand, kinds, hands, seed, rules)
    monkeypatch.setattr(bots, "unchecked", checked_call)
    checked = play(CheckedHand, kinds, hands, seed, rules)
    for i, (f, c) in enumerate(zip(fast, checked, strict=True)):
        assert f[0] == c[0], f"hand {i}: the moves differ"
        assert f[1] == c[1], f"hand {i}: the events differ"
    assert all(CheckedHand.asked[k] > 0 for k in ("legal_discards", "hand_uses", "out_plan"))


def checked_call(act: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """`unchecked` as the checked path: the action called as people's actions are."""
    return act(*args, **kwargs)


def test_unchecked_applies_and_records_as_the_checked_call() -> None:
    """`unchecked` applies a legal move exactly as the checked call does (the same events
    and the same recorded action) and leaves the next call checked (turn rule 1: one draw a
    turn); an action wrapped by someone else (a test's hook) is called as it is, checked."""
    hands = [make_hand([FILLER] * 2) for _ in range(2)]
    for hand in hands:
        all_play(hand)
    seat = hands[0].current
    assert seat is not None
    hands[0].draw(seat)
    unchecked(hands[1].draw, seat)
    assert hands[0].actions == hands[1].actions
    assert hands[0].events == hands[1].events
    with pytest.raises(PanRuleError, match="one draw a turn"):
        hands[1].draw(seat)
    hooked = hands[1].draw
    hands[1].draw = lambda *a: hooked(*a)  # type: ignore[method-assign]
    with pytest.raises(PanRuleError, match="one draw a turn"):
        unchecked(hands[1].draw, seat)


def test_a_bot_discard_outside_the_legal_list_is_still_checked() -> None:
    """A bot's discard the engine does not list (`legal_discards`) goes through the checked
    path and is refused as before (a drawn card never goes into the hand, turn rule 2)."""
    hand = make_hand([FILLER] * 2)
    all_play(hand)
    seat = hand.current
    assert seat is not None
    hand.draw(seat)
    assert hand.legal_discards(seat) == [hand.drawn]
    with pytest.raises(PanRuleError, match="drawn card never goes into the hand"):
        discard_legal(hand, seat, hand.seats[seat].hand[0], hand.legal_discards(seat))
    assert hand.drawn is not None and len(hand.seats[seat].hand) == 10


def test_pack_after_counts_as_counter_did() -> None:
    """The pack for the next hand lists the used cards as `Counter.elements` would (each
    card's copies together, in the order its first copy lies in the pack): the shuffle that
    follows sees the same list."""
    rules = PanRules()
    rng = random.Random(5)
    for _ in range(20):
        pack = pan_pack(rules)
        rng.shuffle(pack)
        stock = pack[rng.randrange(100, 250):]
        used = Counter(pack)
        used.subtract(Counter(stock))
        expected = next_pack(stock[::-1], list(used.elements()), rules,
                             RngSource(random.Random(1)))
        hand = make_hand([FILLER] * 2)
        hand.pack, hand.stock = tuple(pack), list(stock)
        assert pack_after(hand, RngSource(random.Random(1))) == expected


def test_rng_source_draws_as_randrange_and_shuffles_as_random_shuffle() -> None:
    """`RngSource.randbelow` draws as `randrange`: the same draws from the same seed, so
    `fisher_yates` with it is `random.shuffle`, and an empty range is refused."""
    ours, theirs = RngSource(random.Random(11)), random.Random(11)
    for n in [1, 2, 3, 7, 64, 65, 320, 2**40 + 3] * 50:
        assert ours.randbelow(n) == theirs.randrange(n)
    pack = pan_pack(PanRules())
    shuffled = list(pack)
    random.Random(3).shuffle(shuffled)
    assert fisher_yates(pack, RngSource(random.Random(3))) == shuffled
    with pytest.raises(ValueError, match="empty range"):
        ours.randbelow(0)


def _partners(card: Card, others: list[Card]) -> int:
    """A card's partners among `others` by the scan the sound bot used before `links`: same
    rank, or same suit within two in Pan order."""
    o = ORDER[card.rank]
    return len([x for x in others
                if x.rank == card.rank or (x.suit == card.suit and -2 <= ORDER[x.rank] - o <= 2)])


def test_links_count_as_connections() -> None:
    """The sound bot counts a card's partners from its hand's `tallies` (`links`) where it
    scanned the hand pairwise: the same counts on hands with repeated cards, so the same
    prospects and the same discards; forcing back (rule 13) counts them less the card's own
    copies, as the identity test it replaces did on a dealt pack (one object per card)."""
    rng = random.Random(8)
    pack = pan_pack(PanRules(packs=5))
    for size in [1, 2, 3, 10, 11, 16] * 40:
        cards = rng.sample(pack, size)
        ranks, suited = bots.tallies(cards)
        for i, c in enumerate(cards):
            assert bots.links(c, ranks, suited) == _partners(c, cards)
            assert (bots.links(c, ranks, suited) > 1) == \
                (_partners(c, cards[:i] + cards[i + 1:]) > 0)
            assert bots.links(c, ranks, suited) - cards.count(c) == \
                _partners(c, [x for x in cards if x is not c])
        assert bots.prospects(cards) == sum(
            1 for i, c in enumerate(cards) if _partners(c, cards[:i] + cards[i + 1:]))
