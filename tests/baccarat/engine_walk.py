"""The reference for exact baccarat counts: every ordering of a small shoe dealt through the
coup engine card by card, and the check that an enumeration agrees with it."""

from __future__ import annotations

from collections import Counter

from cardroom.analysis.baccarat import CoupCounts, falling
from cardroom.cards import Card
from cardroom.games.baccarat.coup import Coup, Hand
from cardroom.games.baccarat.wagers import is_suited_nine, progressive_award


def walk_engine(cards: list[Card]) -> tuple[Counter[tuple[int, int]], Counter[object]]:
    """Every ordering of a small shoe through the reference coup engine, card by card."""
    n = len(cards)
    totals: Counter[tuple[int, int]] = Counter()
    other: Counter[object] = Counter()

    def walk(coup: Coup, left: list[Card]) -> None:
        if coup.complete:
            r = coup.result()
            k = len(r.player) + len(r.banker)
            w = falling(n - k, 6 - k)
            totals[(r.player_total, r.banker_total)] += w
            other[progressive_award(r)] += w
            other["p9"] += w * is_suited_nine(r.player, r.player_total)
            other["b9"] += w * is_suited_nine(r.banker, r.banker_total)
            for side, cards_, total in (("p", r.player, r.player_total),
                                        ("b", r.banker, r.banker_total)):
                if total == 9:
                    suited = "suited" if len({c.suit for c in cards_}) == 1 else "plain"
                    other[(side, len(cards_), suited)] += w
            return
        for i, c in enumerate(left):
            nxt = Coup(coup.tableau, coup.player, coup.banker)
            nxt.deal(c)
            walk(nxt, left[:i] + left[i + 1:])

    walk(Coup(), cards)
    return totals, other


def assert_same_as_walk(fast: CoupCounts, cards: list[Card]) -> None:
    """Every count of an enumeration equals the engine walk's over the same cards."""
    totals, other = walk_engine(cards)
    assert {(p, b): fast.by_totals[p][b] for p in range(10) for b in range(10)
            if fast.by_totals[p][b]} == dict(totals)
    assert fast.player_suited_nine == other["p9"]
    assert fast.banker_suited_nine == other["b9"]
    for side, hand in (("p", Hand.PLAYER), ("b", Hand.BANKER)):
        assert fast.nines(hand) == {
            f"{n}-card {kind}": other[(side, cards, kind)]
            for n, cards in (("two", 2), ("three", 3)) for kind in ("suited", "plain")}
    for award, count in fast.progressive().items():
        assert count == other[award], award
