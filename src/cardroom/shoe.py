"""Shoes: what is in them, how they are shuffled, committed to, cut and burned.

Production shuffles draw from the OS CSPRNG (`secrets`). `SeededRandom` exists only so that
tests and replays can reproduce a shoe; it must never shuffle a live game.
"""

from __future__ import annotations

import functools
import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from cardroom.cards import JOKER, STANDARD_RANKS, Card, Rank, Suit, format_cards, parse_cards
from cardroom.errors import ShoeError


@dataclass(frozen=True)
class ShoeSpec:
    """How many packs, which ranks are taken out of each, and how many jokers in all."""

    packs: int
    removed_ranks: frozenset[Rank] = frozenset()
    jokers: int = 0

    def __post_init__(self) -> None:
        if self.packs < 1:
            raise ShoeError(f"a shoe needs at least one pack, not {self.packs}")
        if self.jokers < 0:
            raise ShoeError("the number of jokers cannot be negative")
        if Rank.JOKER in self.removed_ranks:
            raise ShoeError("remove jokers with jokers=0, not as a rank")

    @property
    def ranks(self) -> tuple[Rank, ...]:
        return tuple(r for r in STANDARD_RANKS if r not in self.removed_ranks)

    @property
    def size(self) -> int:
        return self.packs * len(self.ranks) * 4 + self.jokers

    def cards(self) -> list[Card]:
        """Every card of the shoe in a fixed (unshuffled) order."""
        one_pack = [Card(r, s) for r in self.ranks for s in Suit]
        return one_pack * self.packs + [JOKER] * self.jokers

def pack_problem(cards: Sequence[Card], shoe: Sequence[Card], whole: bool, hidden: int = 0
                 ) -> str | None:
    """Why `cards` cannot come from `shoe` (a removed rank, a joker it lacks, more copies of a
    card than it holds), or, with `whole`, are not exactly `shoe` with `hidden` places unseen
    (a hand history's `HIDDEN_CARD`s); None if fine."""
    diff = Counter(cards)
    diff.subtract(Counter(shoe))
    extra = sorted(c for c, n in diff.items() if n > 0)
    if extra:
        return "it holds cards beyond the shoe: " + ", ".join(_copies(c, diff[c])
                                                              for c in extra)
    if whole and len(cards) + hidden != len(shoe):
        lacks = sorted(c for c, n in diff.items() if n < 0)
        return f"it has {len(cards) + hidden} cards, not {len(shoe)}" + ("" if hidden else (
            ": it lacks " + ", ".join(_copies(c, -diff[c]) for c in lacks)))
    return None


def _copies(card: Card, n: int) -> str:
    return str(card) if n == 1 else f"{n} x {card}"


class RandomSource(Protocol):
    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        ...


class SystemRandom:
    """The production source: the operating system's CSPRNG."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededRandom:
    """FOR REPLAY AND TESTS ONLY: a reproducible, predictable source. Never for live play."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._rng.randrange(n)


def fisher_yates(cards: Sequence[Card], source: RandomSource) -> list[Card]:
    """A uniform permutation (Durstenfeld's Fisher-Yates) driven by `source`."""
    out = list(cards)
    randbelow = source.randbelow
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def commitment(order: Sequence[Card], salt: bytes) -> str:
    """SHA-256 over the salt and the shuffled order, publishable before the first card."""
    return _digest(salt, format_cards(order))


def _digest(salt: bytes, order_text: str) -> str:
    return hashlib.sha256(salt + order_text.encode("ascii")).hexdigest()


def verify_commitment(digest: str, salt_hex: str, order_text: str) -> bool:
    """After play: does the revealed salt and order match the published commitment?"""
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError as exc:
        raise ShoeError(f"bad salt {salt_hex!r}: not hexadecimal") from exc
    return secrets.compare_digest(commitment(parse_cards(order_text), salt), digest)


class BurnMode(StrEnum):
    NONE = "none"
    FIXED = "fixed"
    FIRST_CARD_VALUE = "first-card-value"


@dataclass(frozen=True)
class BurnRule:
    """After a shuffle: burn nothing, a fixed number, or (baccarat) turn the first card and burn
    as many as its value, tens and faces counting ten."""

    mode: BurnMode = BurnMode.FIRST_CARD_VALUE
    count: int = 0

    def cards_to_burn(self, first: Card) -> int:
        """How many cards go after the exposed first card."""
        if self.mode is BurnMode.NONE:
            return 0
        if self.mode is BurnMode.FIXED:
            return self.count - 1 if self.count > 0 else 0
        return 10 if first.rank >= Rank.TEN else int(first.rank)


@dataclass
class Shoe:
    """A shuffled shoe being dealt, with its cut card and its commitment."""

    order: list[Card]
    cut_index: int
    salt: bytes
    position: int = 0
    burned: list[Card] = field(default_factory=list)

    @classmethod
    def shuffled(
        cls,
        spec: ShoeSpec,
        cut_card_from_end: int,
        source: RandomSource | None = None,
    ) -> Shoe:
        """A freshly shuffled shoe; the cut card lies `cut_card_from_end` cards from the end."""
        src = source or SystemRandom()
        if not 0 <= cut_card_from_end < spec.size:
            raise ShoeError(
                f"cut card {cut_card_from_end} from the end does not fit a {spec.size}-card shoe"
            )
        order = fisher_yates(spec.cards(), src)
        salt = bytes(src.randbelow(256) for _ in range(16))
        return cls(order=order, cut_index=spec.size - cut_card_from_end, salt=salt)

    @functools.cached_property
    def order_text(self) -> str:
        """The order written out (`format_cards`), once: the order never changes once
        shuffled, and the commitment, the sealed shoe (at every deal) and the reveal are
        made from it."""
        return format_cards(self.order)

    @functools.cached_property
    def commitment(self) -> str:
        """Computed once (a coup's history and every view name it): `commitment`."""
        return _digest(self.salt, self.order_text)

    @property
    def remaining(self) -> int:
        return len(self.order) - self.position

    @property
    def penetration(self) -> float:
        """Share of the shoe dealt before the cut card (a display figure, not money)."""
        return self.cut_index / len(self.order)

    @property
    def cut_card_reached(self) -> bool:
        return self.position >= self.cut_index

    def draw(self) -> Card:
        if self.position >= len(self.order):
            raise ShoeError("the shoe is empty")
        card = self.order[self.position]
        self.position += 1
        return card

    def burn(self, rule: BurnRule) -> list[Card]:
        """Apply the burn rule; returns the burned cards, the first of them exposed."""
        if rule.mode is BurnMode.NONE:
            return []
        first = self.draw()
        burned = [first] + [self.draw() for _ in range(rule.cards_to_burn(first))]
        self.burned.extend(burned)
        return burned

    def reveal(self) -> tuple[str, str]:
        """The salt and order to publish after the shoe, for `verify_commitment`."""
        return self.salt.hex(), self.order_text

    def retired(self) -> dict[str, str]:
        """What a table publishes once this shoe is out of play (never before: the order is
        the cards still to come): its commitment, salt and order, for `verify_commitment`."""
        salt, order = self.reveal()
        return {"commitment": self.commitment, "salt": salt, "order": order}




def shoe_json(shoe: Shoe) -> dict[str, Any]:
    """A shoe being dealt as JSON: its whole order, salt, cut card, position and burned cards
    (hidden information while it is in play: the room seals it, `cardroom.room.play.resume`)."""
    return {"order": shoe.order_text, "salt": shoe.salt.hex(),
            "cut_index": shoe.cut_index, "position": shoe.position,
            "burned": format_cards(shoe.burned)}


def shoe_from(data: dict[str, Any]) -> Shoe:
    """The shoe `shoe_json` wrote, at its position."""
    return Shoe(order=parse_cards(data["order"]), cut_index=int(data["cut_index"]),
                salt=bytes.fromhex(data["salt"]), position=int(data["position"]),
                burned=parse_cards(data.get("burned") or ""))
