"""High Card's live table (`cardroom.room.play.live_table.LiveTable`): its messages, its snapshot
model and its settlement through the ledger; the lifecycle (seats, wagers, void, the hand's
record) is the room's own. Also its posted rules (`sections`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Never

from pydantic import ConfigDict, Field
from sqlalchemy.engine import Connection

from cardroom.engine import history_actions, history_pack
from cardroom.errors import IllegalActionError
from cardroom.history import GameReplay, HandHistory
from cardroom.money import Cents, format_money
from cardroom.room.compliance.surveillance import Payout
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play import protocol
from cardroom.room.play.live_table import LiveTable, Stake, card_view
from cardroom.room.play.posted_rules import Section
from cardroom.room.play.protocol import Amount, Key
from cardroom.room.play.protocol_state import (
    CardView,
    HandResult,
    Part,
    SeatedYou,
    TablePlayer,
    TableState,
    VoidedHand,
)

from .engine import HighCardRules, HighCardTable, Settled
from .replay import Replay

GAME = "high-card"


class HighCardStakes(protocol.Message):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    wager: Amount


class HighCardBet(protocol.Bet):
    """The seat's one wager (rule 1)."""

    type: Literal["bet"]
    key: Key
    bets: HighCardStakes
    refusals: ClassVar[dict[str, str]] = {
        "bets": "the bet must be one amount, on the wager",
        "bets.wager": "the wager is not an amount of money"}


class HighCardChangeBets(HighCardBet, protocol.ChangeBets):
    """Until the deal, the wager replaced; `{}` withdraws it."""

    type: Literal["change_bets"]  # type: ignore[assignment]
    bets: HighCardStakes | protocol.NoWagers  # type: ignore[assignment]


class HighCardRow(Part):
    seat: int
    name: str
    card: CardView
    wager: Cents = Field(description="cents")
    net: Cents = Field(description="cents won (negative: lost)")


class HighCardResult(HandResult):
    house: CardView
    seats: list[HighCardRow]

    def outcome_words(self) -> str:
        return f"the house shows {self.house.text}"


class HighCardState(TableState):
    game: Literal["high-card"]
    you: SeatedYou
    players: list[TablePlayer]
    wagers: dict[str, Cents] = Field(description="each seat's wager down, by seat number")
    last: HighCardResult | VoidedHand | None


@dataclass
class HighCardLive(LiveTable[HighCardTable, HighCardResult, Never]):
    rules: HighCardRules = field(default_factory=HighCardRules)

    max_seats = 5
    game = GAME
    rules_model = HighCardRules
    state_model = HighCardState
    messages = (protocol.Sit, protocol.Leave, HighCardBet, HighCardChangeBets, protocol.Deal,
                protocol.Void)

    def __post_init__(self) -> None:
        self.engine = HighCardTable(self.rules, source=self.source)

    def on_seat(self, account_id: int, seat: int, stack: Cents) -> None:
        self.engine.sit(seat, stack)

    def on_leave(self, account_id: int, seat: int) -> None:
        self.engine.leave(seat)

    def in_play(self, account_id: int) -> bool:
        return self.seat_of.get(account_id) in self.engine.wagers

    def stake_of(self, msg: protocol.Bet | protocol.ChangeBets) -> Stake:
        return {"wager": msg.bets.wager} if isinstance(msg.bets, HighCardStakes) else {}

    def place_bets(self, who: Account, seat: int, bets: Stake) -> Stake:
        self.engine.place_wager(seat, bets["wager"])
        return bets

    def withdraw_bets(self, who: Account, seat: int) -> None:
        self.engine.withdraw(seat)

    def deal(self, conn: Connection, who: Account, msg: protocol.Deal) -> None:
        """Rules 2 and 3: the deal settles at once, in one balanced ledger transaction."""
        if not (who.may(Permission.DEAL) or self.seat_of.get(who.id) in self.engine.wagers):
            raise IllegalActionError("only a dealer or a player with a wager may deal")
        settled = self.engine.deal()
        t, rows, postings, payouts = self.table_id, [], [], []
        for s in settled.seats:
            aid = self.account_at(s.seat)
            assert aid is not None
            postings += [(ledger.wagers(t), -s.wager), (ledger.stack(t, aid), s.wager + s.net),
                         (ledger.tray(t), -s.net)]
            payouts.append(Payout(aid, "wager", s.wager, s.net, 0, ledger.tray(t)))
            self.stacks[aid] += s.wager + s.net
            rows.append(HighCardRow(seat=s.seat, name=self.seated[aid], card=card_view(s.card),
                                    wager=s.wager, net=s.net))
        self.dealt_by = who.username
        self.close_hand(conn, self.history(settled), HighCardResult(
            **self.settled_hand(), house=card_view(settled.house), seats=rows),
            {"house": settled.house, "nets": {str(r.seat): r.net for r in rows}},
            postings=postings, payouts=payouts)
        del self.engine.events[:]

    def history(self, settled: Settled | None = None) -> dict[str, Any]:
        """The hand in the shared format: settled, with each seat's chips after it; in play
        (`settled` None), the wagers down so far."""
        order = sorted(self.before, key=lambda a: self.seat_of[a])
        return HandHistory(
            game=GAME, rules=self.rules.model_dump(mode="json"),
            seats=[{"seat": self.seat_of[a], "name": self.seated[a], "account": a,
                    "chips": self.before[a]} for a in order],
            pack=history_pack(self.engine.events), actions=history_actions(self.engine.events),
            setup={"unit": "cents"},
            result=None if settled is None else {"chips": [self.stacks[a] for a in order]}
        ).to_json()

    def hand_so_far(self) -> dict[str, Any]:
        """The deal settles at once, so a hand in play is its wagers (a restart resumes it)."""
        return self.history()

    def adopt(self, replayed: GameReplay[Any], fields: dict[str, Any]) -> None:
        """The replayed wagers are the engine's; the seats not in the hand as they are."""
        assert isinstance(replayed, Replay)
        engine = replayed.table
        engine.stacks = {**self.engine.stacks, **engine.stacks}
        engine.source, engine.order = self.source, None
        self.engine = engine

    def state(self, viewer: Account | None) -> HighCardState:
        return HighCardState(
            **self.envelope("betting" if self.hand_id is not None else "idle"),
            you=SeatedYou(**self.viewer_flags(viewer)), players=self.players_view(viewer),
            wagers={str(s): w for s, w in self.engine.wagers.items()})


def sections(rules: Any, jackpot: Cents | None = None, maximum: Cents = 0) -> list[Section]:
    """The table's own posted rules: the limits and the three rules of the game."""
    assert isinstance(rules, HighCardRules)
    return [Section("limits", "Wagering limits and fees", (
                f"Each wager: {format_money(rules.min_wager_cents)} to "
                f"{format_money(rules.max_wager_cents)}.", "There is no fee to play.")),
            Section("pays", "How a hand is played and paid", (
                "Each player with a wager and the house get one card; aces are high.",
                "A card higher than the house's wins 1 to 1; a lower one loses; the same "
                "rank is a push."))]
