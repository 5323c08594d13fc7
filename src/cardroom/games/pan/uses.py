"""Every way a card can be melded at once (a turn, 1-2; melds, borrowing): laid off on one of
the player's melds, melded with hand cards, or melded with cards borrowed from one of his
melds (and hand cards), what is left of that meld still valid.

The search is complete and small. A new set needs only three of its cards (any three of a
valid set are a set, and borrowing fewer cards from a set leaves a larger valid one), so two
partners from the hand or the meld suffice; a sequence borrows a run from one end of a
sequence (every other choice leaves a gap), so each end run is tried with the hand cards that
close the gap to the card, one more hand card at an end when only two cards are found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardroom.cards import Card

from .cards import ORDER, PAN_RANKS
from .melds import SET, MeldKind, fits, is_valid_on_board, triple_ok

Use = tuple[Any, ...]
"""("lay_off", meld), ("meld", hand cards) or ("borrow", meld, borrowed cards, hand cards)."""


def table_partners(table: Iterable[Card]) -> tuple[list[int], set[int]]:
    """The cards on a player's table (hand, melds, the card in question) as `has_partners`
    reads them: their ranks, and each suited card as 16 * suit + Pan order (small integers:
    no card is hashed)."""
    cards = list(table)
    return [c.rank for c in cards], {16 * (c.suit or 0) + ORDER[c.rank] for c in cards}


def has_partners(card: Card, ranks: list[int], suited: set[int]) -> bool:
    """Could `card` belong to some meld of three of the table (`table_partners`): two more of
    its rank, or two of its suit making a run of three with it? Every use of a card makes or
    grows such a meld, so a card without partners has none (while the player's melds are
    valid: `screen`)."""
    if ranks.count(card.rank) >= 3:
        return True
    k = 16 * (card.suit or 0) + ORDER[card.rank]
    return (k - 1 in suited and (k - 2 in suited or k + 1 in suited)) \
        or (k + 1 in suited and k + 2 in suited)


def screen(cards: Iterable[Card], melds: Sequence[tuple[tuple[Card, ...], MeldKind | None]]
           ) -> tuple[list[int], set[int]] | None:
    """`table_partners` of `cards` and the melds' cards, to skip `card_uses` for a card with
    no partners: None (no skipping) unless every meld of a kind is valid as it lies, which
    that shortcut relies on (a set all of one rank, a sequence unbroken)."""
    if any(kind is not None and not is_valid_on_board(m, kind) for m, kind in melds):
        return None
    return table_partners([*cards, *(c for m, _ in melds for c in m)])


def card_uses(card: Card, hand: Sequence[Card],
              melds: Sequence[tuple[tuple[Card, ...], MeldKind | None]],
              strict: bool) -> list[Use]:
    """Every way to meld `card` at once with `hand` and the player's own `melds`."""
    uses: list[Use] = [("lay_off", mi) for mi, (cards, kind) in enumerate(melds)
                       if kind is not None and fits(cards, kind, card, strict)] if melds else []
    rank, suit, o = card.rank, card.suit, ORDER[card.rank]
    near = [x for x in hand if x.rank == rank or (x.suit == suit and -2 <= ORDER[x.rank] - o <= 2)]
    n = len(near)
    if n > 1:
        for a in range(n - 1):
            for b in range(a + 1, n):
                if triple_ok(card, near[a], near[b]):
                    uses.append(("meld", (near[a], near[b])))
    for mi, (cards, kind) in enumerate(melds):
        if kind is None or len(cards) < 4:
            continue
        if kind is SET:
            uses += _from_set(mi, card, cards, near, strict)
        else:
            uses += _from_sequence(mi, card, cards, near, hand)
    return uses


def _from_set(mi: int, card: Card, cards: tuple[Card, ...], near: list[Card],
              strict: bool) -> list[Use]:
    """One or two cards of a set, with the card (and a hand card), make three."""
    o = ORDER[card.rank]
    same_rank = card.rank == cards[0].rank
    if not same_rank and (abs(ORDER[cards[0].rank] - o) > 2 or not any(
            x.suit == card.suit and x.rank != card.rank for x in near)):
        return []  # a run of the card's suit needs a hand card of that suit and another rank
    out: list[Use] = []
    distinct = [b for b in set(cards) if same_rank or b.suit == card.suit]
    for i, b in enumerate(distinct):
        rest = list(cards)
        rest.remove(b)
        if not is_valid_on_board(rest, SET, strict):
            continue
        out += [("borrow", mi, (b,), (x,)) for x in set(near) if triple_ok(card, b, x)]
        if not same_rank:
            continue
        for b2 in distinct[i:]:
            if b2 in rest and triple_ok(card, b, b2):
                rest2 = list(rest)
                rest2.remove(b2)
                if is_valid_on_board(rest2, SET, strict):
                    out.append(("borrow", mi, (b, b2), ()))
    return out


def _from_sequence(mi: int, card: Card, cards: tuple[Card, ...], near: list[Card],
                   hand: Sequence[Card]) -> list[Use]:
    """An end card of the card's rank makes a set with it and a hand card; a card of the
    sequence's suit joins a run borrowed from one end, the gap (if any) closed from the hand
    and one more hand card at an end when only two cards are found."""
    out: list[Use] = []
    for b in (cards[0], cards[-1]):
        if b.rank == card.rank:
            out += [("borrow", mi, (b,), (x,)) for x in set(near) if triple_ok(card, b, x)]
    if card.suit != cards[0].suit:
        return out
    o = ORDER[card.rank]
    suited = {ORDER[x.rank]: x for x in hand if x.suit == card.suit}
    for k in range(1, len(cards) - 2):
        for run in (cards[:k], cards[len(cards) - k:]):
            lo, hi = ORDER[run[0].rank], ORDER[run[-1].rank]
            if lo <= o <= hi:
                continue
            gap = range(o + 1, lo) if o < lo else range(hi + 1, o)
            if not all(r in suited for r in gap):
                continue
            fill = [suited[r] for r in gap]
            if k + 1 + len(fill) < 3:
                ends = [r for r in (min(o, lo) - 1, max(o, hi) + 1)
                        if 0 <= r < len(PAN_RANKS) and r in suited]
                if not ends:
                    continue
                fill.append(suited[ends[0]])
            out.append(("borrow", mi, tuple(run), tuple(fill)))
    return out
