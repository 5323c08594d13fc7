"""Exact Super Pan 9 math over the finite shoe: optimal draw/stand by composition, house edges.

Cards are grouped into the seven value classes of the shoe (0 for J Q K, then 1..6). Every
probability is a ratio of integer counts of ordered card sequences, so the results are exact
`Fraction`s. The heads-up hand is dealt as eight positions: the player's three, the dealer's
three, the player's draw and the dealer's draw; by exchangeability any fixed dealing order gives
the same joint law, and a card position that is not used (a stand) is simply summed over.

Other players at the table do not change one player's expectation: their cards are unseen by
that player and by the dealer's rule, and a card taken at a stopping time from a well-shuffled
shoe is distributed like the top card (see `table_ev_by_orderings`, which checks this exactly).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, perm, prod
from typing import TYPE_CHECKING, Any

from cardroom.analysis.removal import removed_counts
from cardroom.analysis.wager import Tally, frac
from cardroom.cards import Card
from cardroom.errors import RulesError
from cardroom.games.super_pan_9.cards import REMOVED_RANKS, card_value
from cardroom.games.super_pan_9.rules import DEALER_DRAWS
from cardroom.shoe import ShoeSpec

if TYPE_CHECKING:
    from cardroom.engine import Action
    from cardroom.games.super_pan_9.engine import SuperPan9Table

VALUES = 7
"""Value classes: 0 (J, Q, K), 1 (ace), 2..6."""

Counts = tuple[int, ...]
Holding = tuple[int, int, int]
Strategy = Mapping[Holding, bool]
"""True: draw. Keyed by the sorted values of the three-card holding."""

WIN, PUSH, LOSS = 0, 1, 2
_OUT = tuple(tuple(WIN if p > d else LOSS if p < d else PUSH for d in range(10))
             for p in range(10))


def shoe_counts(decks: int) -> Counts:
    """Rule 1: per deck 12 cards of value 0 (J, Q, K) and 4 each of ace..6."""
    if not 1 <= decks <= 8:
        raise RulesError(f"decks must be 1 to 8 (rule 1), not {decks}")
    return (12 * decks,) + (4 * decks,) * 6


def shoe_after(decks: int, removed: Iterable[Card]) -> Counts:
    """The value counts of a `decks`-deck shoe with these cards taken out (a card the shoe does
    not hold, such as a seven or a ninth ace of spades in eight decks, is refused)."""
    base = list(shoe_counts(decks))
    spec = ShoeSpec(packs=decks, removed_ranks=REMOVED_RANKS)
    for card, n in removed_counts(spec, removed, "Super Pan 9").items():
        base[card_value(card)] -= n
    if sum(base) < 8:
        raise RulesError("at least eight cards must be left in the shoe to deal a hand")
    return tuple(base)


def ordered_ways(need: Sequence[int], avail: Sequence[int]) -> int:
    """Ordered card sequences (distinct physical cards) whose values form the multiset `need`."""
    arrangements = factorial(sum(need)) // prod(factorial(k) for k in need)
    return arrangements * prod(perm(a, k) for a, k in zip(avail, need, strict=True))


def holdings() -> list[Holding]:
    return [(a, b, c) for a, b, c in combinations_with_replacement(range(VALUES), 3)]


def _as_counts(h: Sequence[int]) -> Counts:
    out = [0] * VALUES
    for v in h:
        out[v] += 1
    return tuple(out)


@dataclass(frozen=True, slots=True)
class HoldingResult:
    cards: Holding
    total: int
    weight: int
    """Ordered ways to be dealt this holding from the full shoe."""
    denom: int
    stand: Tally
    """Counts of ordered completions (over the holding's common denominator)."""
    draw: Tally

    def ev(self, draw: bool, commission: Fraction) -> Fraction:
        """Rule 8: winners are paid even money less commission."""
        return (self.draw if draw else self.stand).ev(self.denom, commission)

    def gain_from_drawing(self, commission: Fraction) -> Fraction:
        return self.ev(True, commission) - self.ev(False, commission)


def _tally_holding(h: Counts, shoe: Counts) -> tuple[list[int], list[int]]:
    a = [n - k for n, k in zip(shoe, h, strict=True)]
    t_p = sum(v * k for v, k in enumerate(h)) % 10
    stand = [0, 0, 0]
    draw = [0, 0, 0]
    values = range(VALUES)
    for dealer in holdings():
        d = _as_counts(dealer)
        w_d = ordered_ways(d, a)
        if w_d == 0:
            continue
        m = [x - k for x, k in zip(a, d, strict=True)]
        r = sum(m)
        t_d = sum(dealer) % 10
        if not DEALER_DRAWS[t_d]:
            stand[_OUT[t_p][t_d]] += w_d * r * (r - 1)
            for c in values:
                if m[c]:
                    draw[_OUT[(t_p + c) % 10][t_d]] += w_d * m[c] * (r - 1)
            continue
        row = _OUT[t_p]
        for e in values:
            if m[e]:
                stand[row[(t_d + e) % 10]] += w_d * m[e] * (r - 1)
        for c in values:
            mc = m[c]
            if not mc:
                continue
            row = _OUT[(t_p + c) % 10]
            acc = [0, 0, 0]
            for e in values:
                me = m[e] - (c == e)
                if me > 0:
                    acc[row[(t_d + e) % 10]] += me
            f = w_d * mc
            draw[0] += f * acc[0]
            draw[1] += f * acc[1]
            draw[2] += f * acc[2]
    return stand, draw


@lru_cache(maxsize=16)
def analyse_holdings(shoe: Counts) -> tuple[HoldingResult, ...]:
    """Win/push/loss counts for standing and for drawing, for every three-card holding."""
    if len(shoe) != VALUES or min(shoe) < 0 or sum(shoe) < 8:
        raise RulesError("a shoe needs seven value counts and at least eight cards")
    n = sum(shoe)
    denom = perm(n - 3, 5)
    out = []
    for cards in holdings():
        h = _as_counts(cards)
        weight = ordered_ways(h, shoe)
        if weight == 0:
            continue
        stand, draw = _tally_holding(h, shoe)
        assert sum(stand) == denom and sum(draw) == denom
        out.append(HoldingResult(cards, sum(cards) % 10, weight, denom,
                                 Tally(*stand), Tally(*draw)))
    return tuple(out)


def optimal_strategy(results: Sequence[HoldingResult], commission: Fraction) -> dict[Holding, bool]:
    """Draw exactly when drawing has the strictly higher expectation, commission included."""
    return {r.cards: r.gain_from_drawing(commission) > 0 for r in results}


def dealer_rule_strategy(results: Sequence[HoldingResult]) -> dict[Holding, bool]:
    """The simple strategy: draw on 0 to 5, stand on 6 to 9, as the dealer does."""
    return {r.cards: DEALER_DRAWS[r.total] for r in results}


def holding_of(cards: Iterable[Card]) -> Holding:
    """A seat's three cards as a strategy's key: their values, sorted."""
    a, b, c = sorted(card_value(x) for x in cards)
    return a, b, c


def strategy_move(table: SuperPan9Table, seat: int, strategy: Strategy) -> Action:
    """The computer player's move at the seat in turn (rule 6): of the seat's legal actions
    (`legal_actions`: draw and stand), the one `strategy` picks for its three cards. The
    terminal's computer players and the simulation's reference deal play it (`apply`)."""
    want = "draw" if strategy[holding_of(table.seats[seat].cards)] else "stand"
    [move] = [a for a in table.legal_actions(seat) if a.name == want]
    return move


class _Wager:
    """A wager's result with its expected value `ev` per unit staked."""

    ev: Fraction

    @property
    def house_edge(self) -> Fraction:
        return -self.ev


@dataclass(frozen=True)
class MainResult(_Wager):
    win: Fraction
    push: Fraction
    loss: Fraction
    ev: Fraction


def main_result(results: Sequence[HoldingResult], strategy: Strategy,
                commission: Fraction) -> MainResult:
    total_weight = sum(r.weight for r in results)
    win = push = loss = Fraction(0)
    for r in results:
        t = r.draw if strategy[r.cards] else r.stand
        p = Fraction(r.weight, total_weight * r.denom)
        win += p * t.win
        push += p * t.push
        loss += p * t.loss
    return MainResult(win, push, loss, win * (1 - commission) - loss)


@dataclass(frozen=True)
class TieResult(_Wager):
    probability: Fraction
    pays: int
    commission: Fraction
    ev: Fraction
    break_even_pays: Fraction
    """The payout (to 1) at which the Tie Bet would have no edge either way."""


def tie_result(p_tie: Fraction, pays: int, commission: Fraction) -> TieResult:
    """Rule 9: the Tie Bet wins `pays` to 1 when the totals are equal, else loses."""
    ev = p_tie * pays * (1 - commission) - (1 - p_tie)
    be = (1 - p_tie) / (p_tie * (1 - commission))
    return TieResult(p_tie, pays, commission, ev, be)


@dataclass(frozen=True)
class PostedTable:
    """What a player would post: one decision per total, and the holdings that differ."""

    by_total: dict[int, bool]
    exceptions: list[HoldingResult]


def posted_table(results: Sequence[HoldingResult], commission: Fraction) -> PostedTable:
    by_total: dict[int, bool] = {}
    for t in range(10):
        gain = sum((r.gain_from_drawing(commission) * r.weight for r in results if r.total == t),
                   Fraction(0))
        by_total[t] = gain > 0
    best = optimal_strategy(results, commission)
    exceptions = [r for r in results if best[r.cards] != by_total[r.total]]
    return PostedTable(by_total, exceptions)


OTHERS_EXPLANATION = (
    "None. Other players' cards are face down, so a player's decision and the dealer's rule "
    "never depend on them; by exchangeability of a shuffled shoe, the cards a player and the "
    "dealer receive (even when taken after others drew at times that depend on their own cards) "
    "have the same joint law as if they played heads-up. Each seat's expectation, probabilities "
    "and optimal strategy are the heads-up figures; only the correlation between seats changes "
    "(they share one dealer hand). Checked exactly on a small shoe by "
    "cardroom.analysis.super_pan_9.table_ev_by_orderings."
)


@dataclass(frozen=True)
class SuperPan9Analysis:
    decks: int
    commission: Fraction
    tie_pays: int
    tie_commission: Fraction
    results: tuple[HoldingResult, ...]
    strategy: dict[Holding, bool]
    optimal: MainResult
    dealer_rule: MainResult
    tie: TieResult
    tie_dealer_rule: TieResult
    table: PostedTable

    @property
    def warnings(self) -> list[str]:
        out = []
        if self.optimal.house_edge < 0:
            out.append(f"MAIN WAGER FAVOURS THE PLAYER: edge {float(-self.optimal.ev):+.4%} "
                       "to an optimal player")
        if self.dealer_rule.house_edge < 0:
            out.append("MAIN WAGER FAVOURS THE PLAYER even when drawing on 0 to 5")
        if self.tie.house_edge < 0:
            out.append(f"TIE BET FAVOURS THE PLAYER at {self.tie_pays} to 1: break-even is "
                       f"{float(self.tie.break_even_pays):.4f} to 1")
        return out

    def to_json(self) -> dict[str, Any]:
        def main_entry() -> dict[str, Any]:
            o, d = self.optimal, self.dealer_rule
            return {
                "name": "main", "strategy": "optimal",
                "house_edge": float(o.house_edge), "house_edge_exact": frac(o.house_edge),
                "win": float(o.win), "push": float(o.push), "loss": float(o.loss),
                "win_exact": frac(o.win), "push_exact": frac(o.push),
                "loss_exact": frac(o.loss),
                "dealer_rule": {
                    "house_edge": float(d.house_edge), "house_edge_exact": frac(d.house_edge),
                    "win": float(d.win), "push": float(d.push), "loss": float(d.loss),
                },
            }

        t = self.tie
        return {
            "game": "super-pan-9",
            "decks": self.decks,
            "commission": frac(self.commission),
            "tie_pays": self.tie_pays,
            "wagers": [main_entry(), {
                "name": "tie", "pays": t.pays,
                "house_edge": float(t.house_edge), "house_edge_exact": frac(t.house_edge),
                "probability": float(t.probability), "probability_exact": frac(t.probability),
                "break_even_pays": float(t.break_even_pays),
                "break_even_pays_exact": frac(t.break_even_pays),
                "house_edge_dealer_rule": float(self.tie_dealer_rule.house_edge),
            }],
            "strategy": {
                "by_total": {str(k): "draw" if v else "stand"
                             for k, v in self.table.by_total.items()},
                "exceptions": [{
                    "cards": list(r.cards), "total": r.total,
                    "decision": "draw" if self.strategy[r.cards] else "stand",
                    "gain_from_drawing": float(r.gain_from_drawing(self.commission)),
                } for r in self.table.exceptions],
                "holdings": [{
                    "cards": list(r.cards), "total": r.total,
                    "decision": "draw" if self.strategy[r.cards] else "stand",
                    "ev_draw": float(r.ev(True, self.commission)),
                    "ev_stand": float(r.ev(False, self.commission)),
                } for r in self.results],
            },
            "other_players": {"effect": "none", "why": OTHERS_EXPLANATION},
            "warnings": self.warnings,
        }


def analyse(decks: int = 8, commission: Fraction = Fraction(1, 20), tie_pays: int = 8,
            commission_on_tie: bool = False, shoe: Counts | None = None) -> SuperPan9Analysis:
    """The whole exact report for one set of house rules."""
    if not 0 <= commission <= Fraction(1, 20):
        raise RulesError(f"commission must be between 0% and 5% (rule 8), not {commission}")
    if not 1 <= tie_pays <= 100:
        raise RulesError(f"tie payout must be 1 to 100 (to 1), not {tie_pays}")
    counts = shoe if shoe is not None else shoe_counts(decks)
    results = analyse_holdings(counts)
    strategy = optimal_strategy(results, commission)
    simple = dealer_rule_strategy(results)
    optimal = main_result(results, strategy, commission)
    dealer = main_result(results, simple, commission)
    tie_c = commission if commission_on_tie else Fraction(0)
    return SuperPan9Analysis(
        decks, commission, tie_pays, tie_c, results, strategy, optimal, dealer,
        tie_result(optimal.push, tie_pays, tie_c), tie_result(dealer.push, tie_pays, tie_c),
        posted_table(results, commission))


# ----- exact check of the "other players" claim, for small shoes ------------------------------

def _orderings(counts: list[int], length: int) -> Iterator[tuple[int, ...]]:
    """Every distinct ordering of the multiset (each equally likely after a uniform shuffle)."""
    if length == 0:
        yield ()
        return
    for v, k in enumerate(counts):
        if k:
            counts[v] -= 1
            for rest in _orderings(counts, length - 1):
                yield (v, *rest)
            counts[v] += 1


def table_ev_by_orderings(shoe: Counts, strategies: Sequence[Callable[[Holding], bool]]
                          ) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Exact (win, push, loss) probabilities of each seat at a full table, by dealing every
    distinct ordering of a SMALL shoe (all of its cards) as the table deals: round-robin three
    cards, then the seats' draws in seat order, then the dealer's. Independent of
    `analyse_holdings`; used to check it, and that other players do not change a seat's odds."""
    seats = len(strategies)
    size = sum(shoe)
    if size < 4 * (seats + 1):
        raise RulesError("the shoe is too small for that many seats")
    tallies = [[0, 0, 0] for _ in range(seats)]
    count = 0
    for order in _orderings(list(shoe), size):
        count += 1
        hands = [[order[i * (seats + 1) + s] for i in range(3)] for s in range(seats)]
        dealer = [order[i * (seats + 1) + seats] for i in range(3)]
        pos = 3 * (seats + 1)
        for s in range(seats):
            a, b, c = sorted(hands[s])
            if strategies[s]((a, b, c)):
                hands[s].append(order[pos])
                pos += 1
        if DEALER_DRAWS[sum(dealer) % 10]:
            dealer.append(order[pos])
        t_d = sum(dealer) % 10
        for s in range(seats):
            tallies[s][_OUT[sum(hands[s]) % 10][t_d]] += 1
    return [(Fraction(w, count), Fraction(p, count), Fraction(lo, count))
            for w, p, lo in tallies]
