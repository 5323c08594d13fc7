"""The one Pan table driver, with no I/O: the room's table (`room/play/pan_live.py`), the terminal
(`cli/pan_play.py`) and the simulation (`analysis/pan_sim.py`) all play through it.

`advance` plays a hand's own steps and its bots' turns (forced discards, the empty stock
reshuffled, the only hand left after fouls put face up) until a person must decide.
`PanTable` is Pan's engine (`cardroom.engine`), living as long as the table, as every game's
engine does: it holds the table's random source and the hand in play (`hand`, a `PanHand`:
its one-hand part, as a baccarat table holds its coup), deals each hand on the pack the last
one left (`table.pack_after`) with the tops a redeal carried (foul rule 6), plays the bots,
applies a person's actions with the offers the others must answer (a settlement, foul rule
5A; splitting the tops, pays rule 2) and voids (`void(reason)`). Its callers seat the
players, pick the dealer (`table.next_dealer`), and show or record what happened.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import Card
from cardroom.engine import TABLE, Action, Engine, RuleError, Seat, Voided, able, action
from cardroom.errors import IllegalActionError
from cardroom.shoe import RandomSource, SystemRandom, fisher_yates

from . import errors as R
from .bots import Bots
from .commands import Kind, PanAction, apply_action, engine_call, legal_actions
from .engine import DiscardEntry, PanHand, SeatSpec
from .errors import PanRuleError
from .rules import PanRules
from .state import COMPLETE, DECLARING, LAST_PLAYER, PLAYING
from .table import dealer_at, pack_after

MAX_STEPS = 20_000
"""Steps in one `advance` before it gives up: a bug in a bot or the engine, never play."""


class RngSource:
    """A seeded `random.Random` as a `RandomSource` (simulations and tests): `fisher_yates`
    with it shuffles exactly as `rng.shuffle` would."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


def reshuffle_if_empty(hand: PanHand, source: RandomSource) -> bool:
    """The stock is empty when a turn is to start: every discard but the top one, shuffled by
    `source`, becomes the new stock. Whether it did."""
    if hand.phase is not PLAYING or hand.stock or hand.turn_started:
        return False
    hand.reshuffle_stock(fisher_yates([d.card for d in hand.discards[:-1]], source))
    return True


def _nothing(*_: object) -> None:
    return None


def advance(hand: PanHand, bots: Bots, source: RandomSource,
            last_top: DiscardEntry | None = None,
            after: Callable[[int | None], None] = _nothing,
            window: Callable[[], None] = _nothing) -> DiscardEntry | None:
    """Play the hand's own steps (the stock reshuffled, the only hand left after fouls
    playing face up, foul rule 5B) and every bot's turn until the hand is over or a person's
    decision is due (`bots[seat]` is None for a person).

    A new discard that fits its discarder's spread or puts him out (borrowing included: an
    out card discarded to pyramid, rule 14A) first goes round the other bots in seat order
    (force it back, rules 13 and 14), then to `window` (the people's chance to react); after
    a bot draws, the other bots may force the option card (rule 12), then `window`.
    `after(seat)` follows every step (`None`: the reactions to a discard). Returns the
    discard last reacted to: pass it in again next time.
    """
    for _ in range(MAX_STEPS):
        if hand.phase is COMPLETE:
            return last_top
        top = hand.discards[-1] if hand.discards else None
        if top is not None and top is not last_top:
            last_top = top
            if hand.phase is PLAYING and (hand.fitting_melds(top.seat, top.card)
                                                or hand.goes_out_with(top.seat, top.card)):
                for i in hand.ring:
                    bot = bots[i]
                    if bot is not None and i != top.seat and hand.phase is PLAYING:
                        bot.react(hand, i)
                        if hand.forced_discard is not None:
                            break
            after(None)
            if hand.forced_discard is None:
                window()
            continue
        seat = hand.to_act
        assert seat is not None
        bot = bots[seat]
        if hand.phase is LAST_PLAYER and bot is None:
            return last_top  # a person left alone by fouls: settle (5A) or face up (5B)
        if hand.phase is LAST_PLAYER:
            hand.play_face_up(seat)
        elif reshuffle_if_empty(hand, source):
            pass
        elif bot is None:
            return last_top  # a person's decision
        elif hand.phase is DECLARING:
            bot.declare(hand, seat)
        elif hand.forced_discard == seat:
            bot.forced_discard(hand, seat)
        else:
            if not hand.turn_started:  # started already: left alone by fouls, face up
                bot.start(hand, seat)
                option_window(hand, seat, bots)
                window()
            if hand.phase is PLAYING and hand.current == seat and hand.turn_started:
                bot.finish(hand, seat)
        after(seat)
    raise IllegalActionError("the bots did not finish their turns: the hand is left for the "
                             "floor")


def option_window(hand: PanHand, seat: int, bots: Bots) -> None:
    """Right after `seat` draws, every other active player in turn may force the option card
    (None: a seat asked separately, the human)."""
    if hand.drawn_kind != "stock" or hand.option_resolved:
        return
    top = hand.option_card()
    if top is None or not hand.fitting_melds(seat, top.card):
        return
    for other in hand.in_players():
        bot = bots[other]
        if bot is not None and other != seat and hand.current == seat \
                and not hand.option_resolved:
            bot.react_option(hand, other)


def play_hand(hand: PanHand, bots: Bots, rng: random.Random) -> PanHand:
    """Drive one hand alone to its end with one bot per seat (`advance`), shuffling with
    `rng` (tests)."""
    advance(hand, bots, RngSource(rng))
    return hand


DEAL = "engine protocol: a table deals its next hand"


@dataclass
class PanTable(Engine):
    """Pan's engine: a table from one hand to the next (see the module docstring). `bots`
    gives each seat of the hand by its number its bot, None for a person (`bots.Bots`)."""

    source: RandomSource = field(default_factory=SystemRandom)
    """The table's random source: the packs made between hands, the stock reshuffled."""
    hand: PanHand | None = None
    """The hand in play or last played: the engine's one-hand part."""
    next_pack: list[Card] | None = None
    """The pack the next hand is dealt from, made when the hand before it ended."""
    carried: tuple[int, int] = (0, 0)
    """The tops, single and double, the last hand left for the next (a redeal, rule 6)."""
    carried_by: dict[str, int] = field(default_factory=dict)
    """Who put up the tops carried from a redeal (player name -> chips), over every redeal
    since tops were last won: they are his again if the table breaks up (`break_up`)."""
    last_top: DiscardEntry | None = None
    offer: dict[int, int] | None = None
    """Foul rule 5A: the chips each foul hand is asked to pay in the settlement on offer."""
    agreed: set[int] = field(default_factory=set)
    """The foul hands that accepted the settlement on offer."""

    @property
    def events(self) -> list[Any]:  # type: ignore[override]
        """The log of the hand in play (each hand of a table is a history of its own)."""
        return [] if self.hand is None else self.hand.events

    def verify_deal(self, rules: PanRules, seats: Sequence[SeatSpec] | Mapping[int, SeatSpec],
                    dealer: int, pack: Sequence[Card] | None = None, record: bool = True
                    ) -> None:
        if self.hand is not None and self.hand.phase is not COMPLETE:
            raise RuleError(DEAL, "a hand is in play at this table")
        if pack is None and self.next_pack is None:
            raise RuleError(DEAL, "no pack to deal from: give the table's first pack")

    can_deal = able(verify_deal)

    @action
    def deal(self, rules: PanRules, seats: Sequence[SeatSpec] | Mapping[int, SeatSpec],
             dealer: int, pack: Sequence[Card] | None = None, record: bool = True) -> PanHand:
        """The next hand, dealt from `pack` (a table's first hand) or else from the pack the
        last hand left, with the tops it carried: "the Tops remain and the hand is redealt"
        (foul rule 6)."""
        cards = self.next_pack if pack is None else pack
        assert cards is not None
        hand = PanHand(rules, seats, dealer, cards, carried_tops=self.carried, record=record)
        self.hand, self.next_pack, self.carried, self.last_top = hand, None, (0, 0), None
        self.offer, self.agreed = None, set()
        return hand

    def play(self, bots: Bots,
             after: Callable[[int | None], None] = _nothing,
             window: Callable[[], None] = _nothing) -> PanHand:
        """The bots play (`advance`) until a person must decide or the hand is over; a hand
        over leaves the next pack (shuffled by the table's source) and the tops it carries."""
        hand = self._hand()
        self.last_top = advance(hand, bots, self.source, self.last_top, after, window)
        self._close()
        return hand

    def legal(self, seat: int) -> list[PanAction]:
        """The seat's legal actions: the engine's, and the answers to a settlement it is
        asked to pay."""
        if self.hand is None:
            return []
        asked = self.offer is not None and seat in self.offer and seat not in self.agreed
        return legal_actions(self.hand, seat) + (
            [PanAction(Kind.ACCEPT_SETTLEMENT), PanAction(Kind.DECLINE_SETTLEMENT)]
            if asked else [])

    def act(self, seat: int, action: PanAction, bots: Bots) -> None:
        """A person's action; a refused one raises and changes nothing. A settlement (foul
        rule 5A) is an offer: the bots among the foul hands answer at once, people with
        accept or decline, and it is made when every foul hand asked has agreed; playing face
        up (5B) withdraws it. An offer to split the tops (pays rule 2) is answered at once by
        the other player's bot. Every other action goes to the engine."""
        hand = self._hand()
        if action.kind is Kind.SETTLE:
            self._offer(seat, dict(action.payments), bots)
        elif action.kind in (Kind.ACCEPT_SETTLEMENT, Kind.DECLINE_SETTLEMENT):
            self._answer(seat, action.kind is Kind.ACCEPT_SETTLEMENT)
        else:
            apply_action(hand, seat, action)
            if action.kind is Kind.FACE_UP:
                self.offer, self.agreed = None, set()
            elif action.kind is Kind.OFFER_SPLIT:
                self._answer_split(bots)

    def break_up(self) -> dict[str, int]:
        """The table breaks up (the game ends) while tops carried from a redeal wait for the
        next hand, or are in a hand left unfinished: "the Tops remain and the hand is
        redealt" (foul rule 6), but no hand will be dealt and no one has won them, so each
        player takes back what he put up. Chips per player name; nothing is carried after."""
        back, self.carried_by, self.carried = self.carried_by, {}, (0, 0)
        return back

    def void(self, reason: str) -> Voided:
        """The hand in play voided (`Engine.void`, the hand's: every chip back, the carried
        tops kept for the next hand); the next pack is made as after any hand."""
        voided = self._hand().void(reason)
        self._close()
        return voided

    # ----- the game's flow (the engine protocol) ------------------------------------------

    def verify_reshuffle(self) -> None:
        hand = self._hand()
        if hand.phase is not PLAYING or hand.stock or hand.turn_started:
            raise PanRuleError(R.STOCK_OUT, "the stock is reshuffled only when it is empty as a "
                               "turn is to start")

    can_reshuffle = able(verify_reshuffle)

    @action
    def reshuffle(self) -> bool:
        """The table's own step: the empty stock made again (`reshuffle_if_empty`)."""
        return reshuffle_if_empty(self._hand(), self.source)

    def table_seats(self) -> list[Seat]:
        return [] if self.hand is None else [*range(self.hand.n), TABLE]

    def _legal(self, seat: Seat) -> Iterable[Action]:
        """A seat's legal actions are Pan's own list (`commands.legal_actions`) with what it
        names chosen (a settlement offer, which the table puts to the foul hands, and a
        "choose the cards" button are not listed); the table's steps are the reshuffle and,
        once the hand is over, the next deal: the same players, chips as they stand, the
        next dealer by the rules (`table.dealer_at`)."""
        hand = self.hand
        if hand is None:
            return []
        if seat == TABLE:
            step = Action("reshuffle")
            if hand.phase is COMPLETE:
                specs = {n: SeatSpec(s.name, s.chips) for n, s in hand.seats.items()}
                dealer = hand.ring[dealer_at(hand.ring, hand.winner, hand.dealer)]
                step = Action("deal", (hand.rules, specs, dealer))
            return [step] if self.can(step) else []
        assert isinstance(seat, int)
        return [] if hand.phase is COMPLETE else [
            Action(*engine_call(hand, seat, a), seat) for a in legal_actions(hand, seat)
            if not a.choose and a.kind is not Kind.SETTLE]

    def actor(self, a: Action) -> Engine:
        return self if a.name in ("deal", "reshuffle") else self._hand()

    def apply(self, a: Action) -> Any:
        """`Engine.apply`; a hand over leaves the next pack, as `play` does."""
        out = super().apply(a)
        self._close()
        return out

    def is_over(self) -> bool:
        return self.hand is not None and self.hand.phase is COMPLETE

    def _settlement(self) -> dict[int, int]:
        hand = self._hand()
        return {n: s.chips - spec.chips for (n, s), spec in zip(
            hand.seats.items(), hand.specs, strict=True)}

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        return self._hand().snapshot(seat)

    # ----- inside ---------------------------------------------------------------------------

    def _hand(self) -> PanHand:
        if self.hand is None:
            raise IllegalActionError("no hand is in play at this table")
        return self.hand

    def _close(self) -> None:
        """Once, when the hand is over: the next pack and the tops carried to it."""
        hand = self.hand
        if hand is not None and hand.phase is COMPLETE and self.next_pack is None:
            self.next_pack = pack_after(hand, self.source)
            self.carried = hand.tops_carry
            self.carried_by = self._carried_by(hand)
            self.offer, self.agreed = None, set()

    def _carried_by(self, hand: PanHand) -> dict[str, int]:
        """Who put up the tops `hand` carries: the tops carried into it and, when it was
        redealt (it carries more than it was dealt with; a void returned its own tops), the
        tops each seat put up in it."""
        if not any(hand.tops_carry):
            return {}
        by = Counter(self.carried_by)
        if sum(hand.tops_carry) > sum(hand.carried_tops):
            for i, s in hand.seats.items():
                by[s.name] += hand.single_contrib[i] + hand.double_contrib[i]
        return dict(by)

    def _offer(self, seat: int, payments: dict[int, int], bots: Bots) -> None:
        hand = self._hand()
        if not payments:
            raise PanRuleError(R.FOUL_5, "say what each foul hand pays")
        hand.verify_settle(seat, payments)
        for p, chips in payments.items():
            bot = bots[p]
            if bot is not None and not bot.agree_settlement(hand, p, chips):
                raise PanRuleError(R.FOUL_5, f"seat {p} refuses to pay {chips} chip(s): a "
                                   "settlement must be mutually satisfactory (5A)")
        self.offer, self.agreed = payments, {p for p in payments if bots[p] is not None}
        self._settle_if_agreed(seat)

    def _answer(self, seat: int, agree: bool) -> None:
        hand = self._hand()
        if self.offer is None or seat not in self.offer or seat in self.agreed:
            raise PanRuleError(R.FOUL_5, "no settlement offer waits for your answer")
        if not agree:
            self.offer, self.agreed = None, set()
            return
        self.agreed.add(seat)
        assert hand.current is not None
        self._settle_if_agreed(hand.current)

    def _settle_if_agreed(self, seat: int) -> None:
        if self.offer is not None and set(self.offer) <= self.agreed:
            offer, self.offer, self.agreed = self.offer, None, set()
            self._hand().settle(seat, offer)

    def _answer_split(self, bots: Bots) -> None:
        hand = self._hand()
        offerer = hand.split_offer
        if offerer is None or hand.phase is not PLAYING:
            return
        other = next(i for i in hand.in_players() if i != offerer)
        bot = bots[other]
        if bot is None:
            return
        if bot.answer_split(hand, other):
            hand.accept_split(other)
        else:
            hand.decline_split(other)
