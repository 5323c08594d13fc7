"""The six wagers of a Super-9 Mini-Baccarat table and how each is settled."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from cardroom.cards import Card, Rank
from cardroom.errors import WagerError
from cardroom.games.baccarat.coup import CoupResult, Winner
from cardroom.games.baccarat.paytables import nine_pay_table, progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.money import Cents, require_cents


class WagerKind(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_9 = "player_9"
    BANKER_9 = "banker_9"
    PROGRESSIVE = "progressive"

    @property
    def label(self) -> str:
        """The wager's name on the layout, for people: "Player 9", "Jackpot"."""
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> WagerKind:
        key = text.strip().lower().replace("-", "_")
        key = {"dealer_9": "banker_9", "jackpot": "progressive"}.get(key, key)
        try:
            return cls(key)
        except ValueError:
            names = ", ".join(k.value for k in cls)
            raise WagerError(f"unknown wager {text!r}: choose one of {names}") from None


_LABELS = {WagerKind.PLAYER: "Player", WagerKind.BANKER: "Banker", WagerKind.TIE: "Tie",
           WagerKind.PLAYER_9: "Player 9", WagerKind.BANKER_9: "Banker 9",
           WagerKind.PROGRESSIVE: "Jackpot"}
MAIN_WAGERS = frozenset({WagerKind.PLAYER, WagerKind.BANKER})
NINE_WAGERS = frozenset({WagerKind.PLAYER_9, WagerKind.BANKER_9})


def is_suited(cards: tuple[Card, ...]) -> bool:
    """Super-9: "all cards in the hand must be suited" (two or three cards, one suit)."""
    return len({c.suit for c in cards}) == 1


def is_suited_nine(cards: tuple[Card, ...], total: int) -> bool:
    return total == 9 and is_suited(cards)


def is_suited_ace_eight(cards: tuple[Card, ...]) -> bool:
    """A two-card suited Ace-8; three-card hands never qualify."""
    return (
        len(cards) == 2
        and is_suited(cards)
        and sorted(int(c.rank) for c in cards) == [Rank.ACE, Rank.EIGHT]
    )


class ProgressiveAward(IntEnum):
    """Ordered so that a hand is paid its highest award only."""

    NONE = 0
    ONE_SUITED_NINE = 1
    BOTH_SUITED_NINE = 2
    BOTH_SUITED_ACE_EIGHT = 3
    JACKPOT = 4


def progressive_award(result: CoupResult) -> ProgressiveAward:
    p, b = result.player, result.banker
    if is_suited_ace_eight(p) and is_suited_ace_eight(b):
        same_suit = p[0].suit == b[0].suit
        return ProgressiveAward.JACKPOT if same_suit else ProgressiveAward.BOTH_SUITED_ACE_EIGHT
    p9 = is_suited_nine(p, result.player_total)
    b9 = is_suited_nine(b, result.banker_total)
    if p9 and b9:
        return ProgressiveAward.BOTH_SUITED_NINE
    if p9 or b9:
        return ProgressiveAward.ONE_SUITED_NINE
    return ProgressiveAward.NONE


def fixed_award_for_one(award: ProgressiveAward) -> int:
    """The "for 1" multiple of a fixed award; 0 for none and for the jackpot (paid by the pool)."""
    sched = progressive_schedule()
    return {
        ProgressiveAward.ONE_SUITED_NINE: sched.one_suited_nine,
        ProgressiveAward.BOTH_SUITED_NINE: sched.both_suited_nine,
        ProgressiveAward.BOTH_SUITED_ACE_EIGHT: sched.both_suited_ace_eight,
    }.get(award, 0)


@dataclass(frozen=True)
class Settlement:
    """One wager's result: `won` before commission, `net` = won - commission (< 0 if lost)."""

    kind: WagerKind
    stake: Cents
    outcome: str
    won: Cents
    commission: Cents = 0

    @property
    def net(self) -> Cents:
        return self.won - self.commission

    @property
    def returned(self) -> Cents:
        """What goes back to the player's stack: stake plus net (0 on a loss)."""
        return self.stake + self.net

    @property
    def words(self) -> str:
        """The wager and its result in the layout's words: "Player 9 wins on a suited 9"."""
        return f"{self.kind.label} {result_words(self.outcome)}"


RESULT_WORDS = {"lose": "loses", "win": "wins", "push": "pushes", "jackpot": "wins the jackpot",
                "nine": "wins on a 9", "suited nine": "wins on a suited 9",
                "one suited nine": "wins: one hand a suited 9",
                "both suited nine": "wins: both hands a suited 9",
                "both suited ace eight": "wins: both hands a two-card suited Ace-8"}
"""A settlement's `outcome` as a person reads it (the outcomes `settle_wager` gives)."""


def result_words(outcome: str) -> str:
    return RESULT_WORDS.get(outcome, outcome)


def _nine_settlement(kind: WagerKind, stake: Cents, cards: tuple[Card, ...], total: int,
                     unsuited: int, suited: int) -> Settlement:
    if total != 9:
        return Settlement(kind, stake, "lose", -stake)
    if is_suited(cards):
        return Settlement(kind, stake, "suited nine", stake * suited)
    return Settlement(kind, stake, "nine", stake * unsuited)


def settle_wager(kind: WagerKind, stake: Cents, result: CoupResult, rules: BaccaratRules,
                 jackpot_share: Cents = 0) -> Settlement:
    """Settle one wager on a finished coup. `jackpot_share` is this hand's share of the
    posted jackpot, decided by the table's pool when the top award hits."""
    require_cents(stake, "stake")
    if stake <= 0:
        raise WagerError("a wager must be a positive amount")
    winner = result.winner
    if kind is WagerKind.PLAYER or kind is WagerKind.BANKER:
        if winner is Winner.TIE:
            return Settlement(kind, stake, "push", 0)
        if winner.value != kind.value:
            return Settlement(kind, stake, "lose", -stake)
        commission = rules.commission_policy.charge(stake) if kind is WagerKind.BANKER else 0
        return Settlement(kind, stake, "win", stake, commission)
    if kind is WagerKind.TIE:
        if winner is Winner.TIE:
            return Settlement(kind, stake, "win", stake * rules.tie_pays)
        return Settlement(kind, stake, "lose", -stake)
    table = nine_pay_table(rules.paytable)
    if kind is WagerKind.PLAYER_9:
        return _nine_settlement(kind, stake, result.player, result.player_total,
                                table.player_unsuited, table.player_suited)
    if kind is WagerKind.BANKER_9:
        return _nine_settlement(kind, stake, result.banker, result.banker_total,
                                table.banker_unsuited, table.banker_suited)
    award = progressive_award(result)
    if award is ProgressiveAward.JACKPOT:
        return Settlement(kind, stake, "jackpot", jackpot_share - stake)
    multiple = fixed_award_for_one(award)
    outcome = award.name.lower().replace("_", " ") if multiple else "lose"
    return Settlement(kind, stake, outcome, stake * multiple - stake)
