"""Exact baccarat counts for any shoe composition, suits included: a compiled enumeration.

The reference enumerator (`baccarat._CoupEnumerator`) assumes every suit holds the same cards,
which a depleted shoe does not. Here the shoe is a 10 x 4 table of card counts (value class x
suit) and the coups are walked at the value level as before; at a leaf where a hand totals
nine, the card sequences whose hand is suited are counted suit by suit from the table. Every
count is an exact integer (int64 is enough: the largest, the six-card sequences of a full
16-deck shoe, is 3.26e17 < 9.22e18); `CoupCounts` and the wagers' Fractions are built from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from cardroom.analysis.baccarat import CoupCounts, falling
from cardroom.analysis.removal import RemovalError, removed_counts
from cardroom.cards import Card, Rank, Suit
from cardroom.games.baccarat.coup import card_value
from cardroom.games.baccarat.rules import MAX_DECKS
from cardroom.games.baccarat.tableau import PLAYER_STOOD, Tableau, standard_tableau
from cardroom.shoe import ShoeSpec

VALUES = 10
SUITS = 4
MAX_SHOE = 52 * MAX_DECKS
"""The largest shoe the house rules allow (`MAX_DECKS`); its six-card sequence count, 3.26e17,
fits in int64 (a shoe up to 27 decks would)."""
_SUITED = 100
"""Kernel output: 100 by-totals cells, then player suited nine, banker suited nine, both
suited nine, both suited A-8 of one suit, both suited A-8 of two suits, then the two-card
nines: player, banker, player suited, banker suited."""
_TWO_CARD = _SUITED + 5
_OUT_SIZE = _TWO_CARD + 4

Composition = npt.NDArray[np.int64]
"""Cards left by value class (0 for tens and pictures, 1-9) and suit (clubs..spades)."""


def full_composition(decks: int) -> Composition:
    """A fresh shoe of `decks` packs: 4 ranks of value 0 per suit per pack, 1 of each other."""
    comp = np.full((VALUES, SUITS), decks, dtype=np.int64)
    comp[0] *= 4
    return comp


def composition_after(decks: int, removed: Iterable[Card]) -> Composition:
    """The shoe with these cards taken out; a card the shoe no longer holds is refused."""
    taken = removed_counts(ShoeSpec(packs=decks), removed, "baccarat")
    comp = full_composition(decks)
    for card, n in taken.items():
        assert card.suit is not None
        comp[card_value(card), int(card.suit)] -= n
    if int(comp.sum()) < 6:
        raise RemovalError("at least six cards must be left in the shoe to deal a coup")
    return comp


def card_classes() -> list[Card]:
    """One card of every rank and suit, in code order (the 52 cards of a pack)."""
    return [Card(r, s) for r in Rank if r is not Rank.JOKER for s in Suit]


_HANDS = 1100
"""Hand codes: a two-card hand (a, b) is 10a + b, a three-card hand 100 + 100a + 10b + c."""


@njit(cache=True, nogil=True)
def _suit_table(comp: Any) -> Any:
    """[hand code, suit]: ordered ways to deal that hand's values all in that suit; the last
    column is the sum over the suits."""
    table = np.zeros((_HANDS, SUITS + 1), dtype=np.int64)
    for a in range(VALUES):
        for b in range(VALUES):
            for s in range(SUITS):
                two = comp[a, s] * (comp[b, s] - (a == b))
                table[a * 10 + b, s] = two
                table[a * 10 + b, SUITS] += two
                for c in range(VALUES):
                    three = two * (comp[c, s] - (c == a) - (c == b))
                    code = 100 + a * 100 + b * 10 + c
                    table[code, s] = three
                    table[code, SUITS] += three
    return table


@njit(cache=True, nogil=True, inline="always")
def _second_hand(counts: Any, row: int, p0: Any, p1: Any, p2: Any, b0: Any, b1: Any,
                 b2: Any) -> Any:
    """Ordered ways to deal the values b0, b1 (, b2 unless -1) from `counts[row]` (per value)
    once the values p0, p1 (, p2) are taken from it."""
    ways = counts[row, b0] - (p0 == b0) - (p1 == b0) - (p2 == b0)
    ways *= counts[row, b1] - (p0 == b1) - (p1 == b1) - (p2 == b1) - (b0 == b1)
    if b2 >= 0:
        ways *= (counts[row, b2] - (p0 == b2) - (p1 == b2) - (p2 == b2) - (b0 == b2)
                 - (b1 == b2))
    return ways


_QUEUE = 1 << 16
"""Nine leaves queued before their suited counts are taken (flushed when fewer than
_PER_NODE rows are free: no four-card start has more leaves than that)."""
_PER_NODE = 1 + 10 + 100
_ROW = 9
"""A nine leaf in the buffer: its six card values, player cards, banker cards, continuations."""


@njit(cache=True, nogil=True, inline="always")
def _leaf(cards: Any, kp: int, kb: int, pt: int, bt: int, weight: Any, cont: Any, out: Any,
          nines: Any, n_nines: Any) -> None:
    """Tally a finished coup; a coup with a nine is queued for `_suited_counts` (kept out of
    the hot loop, which stays small enough to compile tight)."""
    out[pt * 10 + bt] += weight * cont
    if pt == 9 and kp == 2:
        out[_TWO_CARD] += weight * cont
    if bt == 9 and kb == 2:
        out[_TWO_CARD + 1] += weight * cont
    if pt == 9 or bt == 9:
        row = nines[n_nines[0]]
        for i in range(6):
            row[i] = cards[i]
        row[6] = kp
        row[7] = kb
        row[8] = cont
        n_nines[0] += 1


@njit(cache=True, nogil=True)
def _suited_counts(nines: Any, count: int, by_suit: Any, table: Any, out: Any) -> None:
    """The suited sequences of the queued nine leaves. With P_s (B_s) the ways to deal the
    player's (banker's) cards all in suit s and J_s both hands in suit s: player-suited =
    sum P_s x (banker free), both suited = sum J_s (one suit) + sum P_s sum B_t - sum P_s B_s
    (two suits, whose cards never collide)."""
    for r in range(count):
        row = nines[r]
        kp = row[6]
        n = kp + row[7]
        cont = row[8]
        p0, p1 = row[0], row[1]
        p2 = row[2] if kp == 3 else -1
        b0, b1 = row[kp], row[kp + 1]
        b2 = row[kp + 2] if n - kp == 3 else -1
        pt = (p0 + p1 + max(p2, 0)) % 10
        bt = (b0 + b1 + max(b2, 0)) % 10
        hp = p0 * 10 + p1 if p2 < 0 else 100 + p0 * 100 + p1 * 10 + p2
        hb = b0 * 10 + b1 if b2 < 0 else 100 + b0 * 100 + b1 * 10 + b2
        if pt == 9:
            free = _second_hand(by_suit, SUITS, p0, p1, p2, b0, b1, b2)
            suited = table[hp, SUITS] * free * cont
            out[_SUITED] += suited
            if p2 < 0:
                out[_TWO_CARD + 2] += suited
        if bt == 9:
            free = _second_hand(by_suit, SUITS, b0, b1, b2, p0, p1, p2)
            suited = table[hb, SUITS] * free * cont
            out[_SUITED + 1] += suited
            if b2 < 0:
                out[_TWO_CARD + 3] += suited
        if pt == 9 and bt == 9:
            same = np.int64(0)
            diagonal = np.int64(0)
            for suit in range(SUITS):
                diagonal += table[hp, suit] * table[hb, suit]
                same += table[hp, suit] * _second_hand(by_suit, suit, p0, p1, p2, b0, b1, b2)
            other = table[hp, SUITS] * table[hb, SUITS] - diagonal
            out[_SUITED + 2] += (same + other) * cont
            if p2 < 0 and b2 < 0 and p0 + p1 == 9 and b0 + b1 == 9 and p0 * p1 == 8 \
                    and b0 * b1 == 8:
                out[_SUITED + 3] += same * cont
                out[_SUITED + 4] += other * cont


@njit(cache=True, nogil=True)
def coup_counts_kernel(comp: Any, natural: Any, pdraw: Any, bdraw: Any) -> Any:
    """Six-card-sequence counts of every coup from the shoe `comp` (10 x 4 card counts)."""
    tot = np.zeros(VALUES, dtype=np.int64)
    for v in range(VALUES):
        tot[v] = comp[v].sum()
    n = tot.sum()
    rem = tot.copy()
    out = np.zeros(_OUT_SIZE, dtype=np.int64)
    cards = np.zeros(6, dtype=np.int64)
    nines = np.empty((_QUEUE, _ROW), dtype=np.int64)
    table = _suit_table(comp)
    by_suit = np.empty((SUITS + 1, VALUES), dtype=np.int64)
    by_suit[:SUITS] = comp.T
    by_suit[SUITS] = tot
    n_nines = np.zeros(1, dtype=np.int64)
    cont4 = np.int64((n - 4) * (n - 5))
    cont5 = np.int64(n - 5)
    one = np.int64(1)
    for p1 in range(VALUES):
        w1 = rem[p1]
        if w1 == 0:
            continue
        rem[p1] -= 1
        for b1 in range(VALUES):
            w2 = w1 * rem[b1]
            if w2 == 0:
                continue
            rem[b1] -= 1
            for p2 in range(VALUES):
                w3 = w2 * rem[p2]
                if w3 == 0:
                    continue
                rem[p2] -= 1
                for b2 in range(VALUES):
                    w4 = w3 * rem[b2]
                    if w4 == 0:
                        continue
                    rem[b2] -= 1
                    pt = (p1 + p2) % 10
                    bt = (b1 + b2) % 10
                    cards[0] = p1
                    cards[1] = p2
                    if natural[pt] or natural[bt]:
                        cards[2] = b1
                        cards[3] = b2
                        _leaf(cards, 2, 2, pt, bt, w4, cont4, out, nines, n_nines)
                    elif not pdraw[pt]:
                        cards[2] = b1
                        cards[3] = b2
                        if bdraw[bt, PLAYER_STOOD]:
                            for b3 in range(VALUES):
                                w5 = w4 * rem[b3]
                                if w5:
                                    cards[4] = b3
                                    _leaf(cards, 2, 3, pt, (bt + b3) % 10, w5,
                                          cont5, out, nines, n_nines)
                        else:
                            _leaf(cards, 2, 2, pt, bt, w4, cont4, out, nines, n_nines)
                    else:
                        for p3 in range(VALUES):
                            w5 = w4 * rem[p3]
                            if w5 == 0:
                                continue
                            rem[p3] -= 1
                            pt3 = (pt + p3) % 10
                            cards[2] = p3
                            cards[3] = b1
                            cards[4] = b2
                            if bdraw[bt, p3]:
                                for b3 in range(VALUES):
                                    w6 = w5 * rem[b3]
                                    if w6:
                                        cards[5] = b3
                                        _leaf(cards, 3, 3, pt3, (bt + b3) % 10,
                                              w6, one, out, nines, n_nines)
                            else:
                                _leaf(cards, 3, 2, pt3, bt, w5, cont5, out, nines, n_nines)
                            rem[p3] += 1
                    rem[b2] += 1
                    if n_nines[0] > _QUEUE - _PER_NODE:
                        _suited_counts(nines, n_nines[0], by_suit, table, out)
                        n_nines[0] = 0
                rem[p2] += 1
            rem[b1] += 1
        rem[p1] += 1
    _suited_counts(nines, n_nines[0], by_suit, table, out)
    return out


class DepletedShoe:
    """The compiled enumeration bound to one tableau: call `counts(comp)` as often as needed."""

    def __init__(self, tableau: Tableau | None = None) -> None:
        tab = tableau or standard_tableau()
        self.natural = np.array([tab.is_natural(t) for t in range(10)], dtype=np.bool_)
        self.player_draws = tab.player_matrix()
        self.banker_draws = tab.banker_matrix()

    def raw(self, comp: Composition) -> npt.NDArray[np.int64]:
        """The kernel's integer counts (100 by-totals cells, the five suited counts, the four
        two-card nine counts)."""
        n = int(comp.sum())
        if n > MAX_SHOE or n < 6 or int(comp.min()) < 0:
            raise RemovalError(f"a shoe for exact analysis holds 6 to {MAX_SHOE} cards, not {n}")
        result: npt.NDArray[np.int64] = coup_counts_kernel(
            np.ascontiguousarray(comp, dtype=np.int64), self.natural, self.player_draws,
            self.banker_draws)
        return result

    def counts(self, comp: Composition, decks: int = 0) -> CoupCounts:
        """The same `CoupCounts` the reference enumerator gives, for any composition."""
        raw = self.raw(comp).tolist()
        return CoupCounts(
            decks=decks, total=falling(int(comp.sum()), 6),
            by_totals=[raw[p * 10:p * 10 + 10] for p in range(10)],
            player_suited_nine=raw[_SUITED], banker_suited_nine=raw[_SUITED + 1],
            both_suited_nine=raw[_SUITED + 2],
            both_suited_ace_eight_same_suit=raw[_SUITED + 3],
            both_suited_ace_eight_other_suits=raw[_SUITED + 4],
            player_two_card_nine=raw[_TWO_CARD], banker_two_card_nine=raw[_TWO_CARD + 1],
            player_two_card_suited_nine=raw[_TWO_CARD + 2],
            banker_two_card_suited_nine=raw[_TWO_CARD + 3])
