"""Exact Mini-Baccarat and Super-9 math by enumeration over the finite shoe.

Every coup is walked at the level of card values (ten classes: 0 for tens and pictures, 1-9),
weighted by the number of ordered card sequences that produce it, so every figure is an exact
integer count. Suits matter only for the Super-9 wagers, and only through "are all of this
hand's cards one suit"; given a leaf's values, the number of card sequences whose player
(and/or banker) cards are all of one suit has a closed form per value class: with K cards of a
value per suit in the shoe, forcing `a_s` positions to suit s and leaving `f` free gives
prod_s K(K-1)..(K-a_s+1) x (4K-A)(4K-A-1)..(4K-A-f+1), A = sum a_s. No infinite-deck shortcut
is taken anywhere.

Counts are reported the way published tables count them: every coup as an ordered sequence of
six cards, a coup that ends after four or five cards counting every continuation.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from cardroom.analysis.wager import Outcome, Wager, frac
from cardroom.games.baccarat.coup import Hand, next_to_draw
from cardroom.games.baccarat.paytables import nine_pay_table, progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.tableau import Tableau, standard_tableau
from cardroom.games.baccarat.wagers import ProgressiveAward, fixed_award_for_one

ACE, EIGHT, NINE_TOTAL = 1, 8, 9


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered ways to draw k distinct cards from n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass
class CoupCounts:
    """Six-card-sequence counts of everything a wager can depend on."""

    decks: int
    total: int = 0
    by_totals: list[list[int]] = field(default_factory=lambda: [[0] * 10 for _ in range(10)])
    player_suited_nine: int = 0
    banker_suited_nine: int = 0
    both_suited_nine: int = 0
    both_suited_ace_eight_same_suit: int = 0
    both_suited_ace_eight_other_suits: int = 0
    player_two_card_nine: int = 0
    player_two_card_suited_nine: int = 0
    banker_two_card_nine: int = 0
    banker_two_card_suited_nine: int = 0
    """Nines of two cards (a natural nine stands, so it is the final hand), all and suited;
    the three-card nines are the rest."""

    def nines(self, hand: Hand) -> dict[str, int]:
        """A hand's final nines by how they are made: two or three cards, suited (every card
        one suit) or plain; the Super-9 wagers pay every one of them (suited at the suited
        pay), so these are the sequences behind each Player-9 or Banker-9 award."""
        player = hand is Hand.PLAYER
        total = self.count(player_total=NINE_TOTAL) if player else \
            self.count(banker_total=NINE_TOTAL)
        suited = self.player_suited_nine if player else self.banker_suited_nine
        two = self.player_two_card_nine if player else self.banker_two_card_nine
        two_suited = self.player_two_card_suited_nine if player else \
            self.banker_two_card_suited_nine
        return {"two-card suited": two_suited, "two-card plain": two - two_suited,
                "three-card suited": suited - two_suited,
                "three-card plain": total - two - (suited - two_suited)}

    def count(self, player_total: int | None = None, banker_total: int | None = None) -> int:
        rows = range(10) if player_total is None else [player_total]
        cols = range(10) if banker_total is None else [banker_total]
        return sum(self.by_totals[p][b] for p in rows for b in cols)

    @property
    def banker_wins(self) -> int:
        return sum(self.by_totals[p][b] for p in range(10) for b in range(10) if b > p)

    @property
    def player_wins(self) -> int:
        return sum(self.by_totals[p][b] for p in range(10) for b in range(10) if p > b)

    @property
    def ties(self) -> int:
        return sum(self.by_totals[t][t] for t in range(10))

    def progressive(self) -> dict[ProgressiveAward, int]:
        """Sequences per progressive award, a hand paid its highest award only."""
        both_a8 = self.both_suited_ace_eight_same_suit + self.both_suited_ace_eight_other_suits
        both9 = self.both_suited_nine - both_a8
        one9 = self.player_suited_nine + self.banker_suited_nine - 2 * self.both_suited_nine
        counts = {
            ProgressiveAward.JACKPOT: self.both_suited_ace_eight_same_suit,
            ProgressiveAward.BOTH_SUITED_ACE_EIGHT: self.both_suited_ace_eight_other_suits,
            ProgressiveAward.BOTH_SUITED_NINE: both9,
            ProgressiveAward.ONE_SUITED_NINE: one9,
        }
        counts[ProgressiveAward.NONE] = self.total - sum(counts.values())
        return counts


def _suited_ways(values: Iterable[int], forced: dict[int, dict[int, int]], per_suit: list[int],
                 used: list[int]) -> int:
    """Card sequences for a leaf whose value multiset is `used` (per value), with
    `forced[v][s]` of the value-v positions forced to suit s and the rest free."""
    ways = 1
    for v in values:
        k = per_suit[v]
        a_total = 0
        for a in forced.get(v, {}).values():
            ways *= falling(k, a)
            a_total += a
        ways *= falling(4 * k - a_total, used[v] - a_total)
    return ways


def count_coups(decks: int, tableau: Tableau | None = None) -> CoupCounts:
    """Enumerate every coup of a `decks`-deck shoe exactly."""
    return count_coups_of([4 * decks] + [decks] * 9, decks, tableau)


def count_coups_of(per_suit: list[int], decks: int = 0,
                   tableau: Tableau | None = None) -> CoupCounts:
    """Enumerate every coup of a shoe with `per_suit[v]` cards of value v in each suit."""
    return _CoupEnumerator(per_suit, decks, tableau or standard_tableau()).run()


class _CoupEnumerator:
    """Depth-first walk of the coups; `remaining`/`used` track the cards of each value."""

    def __init__(self, per_suit: list[int], decks: int, tableau: Tableau) -> None:
        self.per_suit = per_suit
        self.tab = tableau
        self.remaining = [4 * k for k in per_suit]
        self.used = [0] * 10
        self.n = sum(self.remaining)
        self.out = CoupCounts(decks=decks, total=falling(self.n, 6))

    def take(self, v: int) -> int:
        """Deal a card of value v; returns how many such cards there were to choose from."""
        w = self.remaining[v]
        self.remaining[v] -= 1
        self.used[v] += 1
        return w

    def give(self, v: int) -> None:
        self.remaining[v] += 1
        self.used[v] -= 1

    def run(self) -> CoupCounts:
        self.walk((), (), 1)
        return self.out

    def walk(self, player: tuple[int, ...], banker: tuple[int, ...], weight: int) -> None:
        """Every way to go on from these card values: the next card to whichever hand the
        coup's flow (`next_to_draw`, the engine's) names, each value as often as the shoe
        holds it."""
        hand = next_to_draw(self.tab, player, banker)
        if hand is None:
            self.leaf(player, banker, weight)
            return
        for v in range(10):
            if self.remaining[v]:
                w = weight * self.take(v)
                if hand is Hand.PLAYER:
                    self.walk((*player, v), banker, w)
                else:
                    self.walk(player, (*banker, v), w)
                self.give(v)

    def leaf(self, player: tuple[int, ...], banker: tuple[int, ...], weight: int) -> None:
        """Record a finished coup: its six-card-sequence count and, on a nine, the suited
        card sequences among them."""
        k = len(player) + len(banker)
        continuations = falling(self.n - k, 6 - k)
        pt, bt = sum(player) % 10, sum(banker) % 10
        out = self.out
        out.by_totals[pt][bt] += weight * continuations
        if pt != NINE_TOTAL and bt != NINE_TOTAL:
            return
        if pt == NINE_TOTAL:
            suited = 4 * self.suited(((player, 0),)) * continuations
            out.player_suited_nine += suited
            if len(player) == 2:
                out.player_two_card_nine += weight * continuations
                out.player_two_card_suited_nine += suited
        if bt == NINE_TOTAL:
            suited = 4 * self.suited(((banker, 0),)) * continuations
            out.banker_suited_nine += suited
            if len(banker) == 2:
                out.banker_two_card_nine += weight * continuations
                out.banker_two_card_suited_nine += suited
        if pt == NINE_TOTAL and bt == NINE_TOTAL:
            same = 4 * self.suited(((player, 0), (banker, 0))) * continuations
            other = 12 * self.suited(((player, 0), (banker, 1))) * continuations
            out.both_suited_nine += same + other
            if sorted(player) == [ACE, EIGHT] and sorted(banker) == [ACE, EIGHT]:
                out.both_suited_ace_eight_same_suit += same
                out.both_suited_ace_eight_other_suits += other

    def suited(self, hands: tuple[tuple[tuple[int, ...], int], ...]) -> int:
        """Card sequences for the current leaf with each given hand's cards all of its given
        suit, every other card free."""
        forced: dict[int, dict[int, int]] = {}
        for hand, suit in hands:
            for v in hand:
                forced.setdefault(v, {}).setdefault(suit, 0)
                forced[v][suit] += 1
        values = [v for v in range(10) if self.used[v]]
        return _suited_ways(values, forced, self.per_suit, self.used)


@dataclass(frozen=True)
class WagerMath(Wager):
    """A wager's exact distribution over the coups' six-card sequences, beside the designer's
    claim."""

    claimed_edge_percent: Decimal | None = None
    note: str = ""
    break_even_jackpot_cents: Fraction | None = None
    """Progressive only: the top award at which a lone bettor's expected return is 100%."""

    @property
    def exact_percent_2dp(self) -> Decimal:
        """The exact edge in percent, rounded half-up to two places (the JSON's
        `house_edge_percent`)."""
        value = self.house_edge * 100
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP)

    @property
    def claim_agrees(self) -> bool | None:
        """Does the designer's claim agree with the exact edge to the precision it states?
        None if there is no claim."""
        if self.claimed_edge_percent is None:
            return None
        return agrees_to_stated_precision(self.claimed_edge_percent, self.house_edge * 100)


def agrees_to_stated_precision(claim: Decimal, exact: Fraction) -> bool:
    """A figure written to d decimal places agrees with the exact value when it is that value
    rounded to d places, down or up (21.65 for 21.6572): they differ by less than one unit of
    the claim's last place. Compared exactly, so no float rounding decides a verdict."""
    exponent = claim.as_tuple().exponent
    if not isinstance(exponent, int):
        raise ValueError(f"a claim must be a finite number, not {claim}")
    return abs(Fraction(claim) - exact) < Fraction(10) ** exponent


@dataclass(frozen=True)
class BaccaratReport:
    rules: BaccaratRules
    counts: CoupCounts
    wagers: tuple[WagerMath, ...]

    def wager(self, name: str) -> WagerMath:
        for w in self.wagers:
            if w.name == name:
                return w
        raise KeyError(name)

    def to_json(self) -> dict[str, object]:
        c = self.counts
        return {
            "game": "baccarat",
            "decks": self.rules.decks,
            "paytable": self.rules.paytable,
            "commission": frac(self.rules.commission),
            "tie_pays": self.rules.tie_pays,
            "jackpot_seed_cents": self.rules.jackpot_seed_cents,
            "jackpot_contribution": frac(self.rules.jackpot_contribution),
            "sequences": c.total,
            "outcomes": {
                "banker": _prob_json(c.banker_wins, c.total),
                "player": _prob_json(c.player_wins, c.total),
                "tie": _prob_json(c.ties, c.total),
            },
            "totals": c.by_totals,
            "nines": {hand.name.lower(): {kind: _prob_json(k, c.total)
                                          for kind, k in c.nines(hand).items()}
                      for hand in (Hand.PLAYER, Hand.BANKER)},
            "wagers": [_wager_json(w) for w in self.wagers],
        }


def _prob_json(count: int, total: int) -> dict[str, object]:
    p = Fraction(count, total)
    return {"sequences": count, "probability": float(p), "probability_exact": frac(p)}


def _wager_json(w: WagerMath) -> dict[str, object]:
    return {
        "name": w.name,
        "house_edge": float(w.house_edge),
        "house_edge_exact": frac(w.house_edge),
        "house_edge_percent": str(w.exact_percent_2dp),
        "std_dev": w.std_dev,
        "claimed_edge_percent": None if w.claimed_edge_percent is None
        else str(w.claimed_edge_percent),
        "claim_agrees": w.claim_agrees,
        "outcomes": [
            {"label": o.label, "net": frac(o.net), **_prob_json(o.count, w.total)}
            for o in w.outcomes
        ],
        "note": w.note,
        **_break_even_json(w),
    }


def _break_even_json(w: WagerMath) -> dict[str, object]:
    """The break-even top award in whole cents (the least amount at which the bettor is not
    behind: the exact value rounded up) and exactly."""
    be = w.break_even_jackpot_cents
    if be is None:
        return {}
    return {"break_even_jackpot_cents": math.ceil(be), "break_even_jackpot_cents_exact": frac(be)}


def _wager(name: str, outcomes: list[Outcome], total: int, claim: Decimal | None = None,
           edge: Fraction | None = None, note: str = "") -> WagerMath:
    wager = WagerMath.exact(name, [o for o in outcomes if o.count], total, edge)
    return dataclasses.replace(wager, claimed_edge_percent=claim, note=note)


def _nine_wager(name: str, suited_pays: int, unsuited_pays: int, suited: int, nines: int,
                total: int, claim: Decimal | None) -> WagerMath:
    """A Player-9 or Banker-9 wager: `nines` coups of its hand's total nine, `suited` of them
    two suited cards."""
    return _wager(name, [Outcome("suited nine", Fraction(suited_pays), suited),
                         Outcome("nine", Fraction(unsuited_pays), nines - suited),
                         Outcome("lose", Fraction(-1), total - nines)], total, claim)


def analyze(rules: BaccaratRules, tableau: Tableau | None = None,
            counts: CoupCounts | None = None) -> BaccaratReport:
    """Every wager's exact distribution and house edge for these house rules, off the top of
    a full shoe, or for the shoe whose `counts` are given. The designer's claims apply to a
    full 8-deck shoe only."""
    c = count_coups(rules.decks, tableau) if counts is None else counts
    n = c.total
    tie = c.ties
    pay = nine_pay_table(rules.paytable)
    sched = progressive_schedule()
    claims_apply = rules.decks == c.decks == 8 and n == falling(8 * 52, 6)
    wagers = [
        _wager("player", [Outcome("win", Fraction(1), c.player_wins),
                          Outcome("push", Fraction(0), tie),
                          Outcome("lose", Fraction(-1), c.banker_wins)], n),
        _wager("banker", [Outcome("win", 1 - rules.commission, c.banker_wins),
                          Outcome("push", Fraction(0), tie),
                          Outcome("lose", Fraction(-1), c.player_wins)], n),
        _wager("tie", [Outcome("win", Fraction(rules.tie_pays), tie),
                       Outcome("lose", Fraction(-1), n - tie)], n),
        _nine_wager("player_9", pay.player_suited, pay.player_unsuited, c.player_suited_nine,
                    c.count(player_total=9), n, pay.claimed_edge_player if claims_apply else None),
        _nine_wager("banker_9", pay.banker_suited, pay.banker_unsuited, c.banker_suited_nine,
                    c.count(banker_total=9), n, pay.claimed_edge_banker if claims_apply else None),
        _progressive(rules, c, sched.claimed_edge if claims_apply else None),
    ]
    return BaccaratReport(rules, c, tuple(wagers))


def _progressive(rules: BaccaratRules, c: CoupCounts, claim: Decimal | None) -> WagerMath:
    """House edge = 1 - E[fixed for-1 awards] - contribution - P(top award) x seed, per $1.

    The jackpot itself is paid from the meter, which the contributions and the seed fund; the
    seed is the house's cost of each top award (one jackpot wager per coup assumed). The standard
    deviation values a top award at the seed."""
    seed = Fraction(rules.jackpot_seed_cents, progressive_schedule().wager_cents)
    by_award = c.progressive()
    n = c.total
    outcomes = []
    fixed = Fraction(0)
    for award in sorted(by_award, reverse=True):
        count = by_award[award]
        multiple = fixed_award_for_one(award)
        fixed += Fraction(multiple * count, n)
        returned = seed if award is ProgressiveAward.JACKPOT else Fraction(multiple)
        label = "lose" if award is ProgressiveAward.NONE else award.name.lower()
        outcomes.append(Outcome(label, returned - 1, count))
    p_top = Fraction(by_award[ProgressiveAward.JACKPOT], n)
    edge = 1 - fixed - rules.jackpot_contribution - p_top * seed
    claimed = progressive_schedule().claimed_contribution
    note = ""
    if claim is not None and Fraction(str(claimed)) != rules.jackpot_contribution:
        claim = None
        note = "the designer's claim assumes a 20-cent contribution"
    wager = _wager("progressive", outcomes, n, claim, edge, note)
    return dataclasses.replace(wager, break_even_jackpot_cents=progressive_break_even_cents(c))


def progressive_break_even_cents(c: CoupCounts) -> Fraction | None:
    """The top award J (cents) at which a lone jackpot bettor gets back exactly what he stakes:
    E[fixed for-1 award] + P(top award) x J / wager = 1. None if the top award cannot happen."""
    by_award = c.progressive()
    if not by_award[ProgressiveAward.JACKPOT]:
        return None
    fixed = sum((Fraction(fixed_award_for_one(a) * k, c.total) for a, k in by_award.items()),
                Fraction(0))
    p_top = Fraction(by_award[ProgressiveAward.JACKPOT], c.total)
    return (1 - fixed) / p_top * progressive_schedule().wager_cents


def shared_break_even_cents(c: CoupCounts, sharers: int) -> tuple[Fraction, int] | None:
    """The top award at which one of `sharers` jackpot bettors breaks even, when all of them
    hit it together (Super-9: "If the top jackpot hits all players who have a progressive bet
    will share equally"; every seat plays the same coup, so every seat with a jackpot wager on
    it hits): each gets the posted amount divided by `sharers`, his for-1 awards unchanged, so
    the exact break-even is `sharers` times the lone bettor's. Also the least posted amount in
    whole cents at which he is not behind: the pool pays each share rounded down to the cent
    (`JackpotPool.shares`: cents that do not divide stay in the meter), so his share must reach
    the lone break-even rounded up, `sharers` x that. None if the top award cannot happen."""
    if sharers < 1:
        raise ValueError("a top award is shared by at least one bettor")
    lone = progressive_break_even_cents(c)
    if lone is None:
        return None
    return lone * sharers, math.ceil(lone) * sharers
