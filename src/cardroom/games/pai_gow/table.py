"""The Pai Gow table: positions, dice, the deal, setting hands, dragon hands, banking, settlement,
irregularities (misdeal, exposed card, wrong number of cards) by house policy.

The table follows the engine protocol (`cardroom.engine`): each action comes as verify_x()
(raises a `RuleError` naming the clause), can_x() and x() (verifies, applies and returns a
frozen event appended to `events`, from which the hand history is derived). Physical spots: 0
is the house dealer, 1-6 the player seats counter-clockwise from the dealer. Betting positions
are numbered 1-7 from the banker's spot counter-clockwise (rules clause 5), so they move when a
player banks.
Money is integer cents.

A hand (a seeded shuffle, for the example only; live tables shuffle with the OS CSPRNG): the
player at seat 1 wagers $10 against the house dealer and asks for the house way; both his hands
beat the dealer's, so he wins even money less the 5% commission.

>>> from cardroom.games.pai_gow.rules import PaiGowRules
>>> from cardroom.shoe import SeededRandom
>>> table = PaiGowTable(PaiGowRules())
>>> table.sit(1, 10_000)
>>> _ = table.place_wager(1, 1_000)
>>> _ = table.deal(SeededRandom(7))
>>> " ".join(map(str, table.hands[1]))
'9d 5d Kd 8h Js Ah 9h'
>>> str(table.ask_house_way(1).setting)
'front Kd Ah | back 9d 5d 8h Js 9h'
>>> result = table.settle().results[0]
>>> result.outcome.value, result.commission, result.net, table.chips
('win', 50, 950, {1: 10950})

Through the engine protocol (`cardroom.engine`): the hand is over and settled; the table's own
step, the next hand, comes next.

>>> table.is_over(), table.settlement(), table.legal_actions()
(True, {1: 950}, [Action(name='next_hand', args=(), seat='table')])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import Any, ClassVar

from cardroom import engine as protocol
from cardroom.cards import Card, format_cards
from cardroom.engine import NO_WAGER, Engine, Event, RuleError, WagerRefused, able, action
from cardroom.games.pai_gow.houseway import HouseWay, house_way, set_hand
from cardroom.games.pai_gow.rules import (
    WAGERS,
    DragonHand,
    ExposedCardPolicy,
    FoulPolicy,
    PaiGowRules,
    WrongCountPolicy,
)
from cardroom.games.pai_gow.settings import FoulSettingError, Setting, make_setting
from cardroom.money import Cents, format_money, require_cents
from cardroom.shoe import RandomSource, ShoeSpec, SystemRandom, fisher_yates

DEALER = 0
SPOTS = 7
BANKING = "banking the game"
DRAGON = "clause 7 (dragon hand)"
DEAL = "clauses 4, 5 (the deal)"
SETTING = "clause 6 (setting a hand)"
HOUSE_WAY = "clause 6 (the house way)"
SETTLEMENT = "clauses 8, 10 (settlement)"
IRREGULARITIES = "irregularities (misdeals, exposed cards, wrong card counts)"
"""The clause each kind of action applies; a refusal names the clause of its action."""
PLAYER_SEATS = range(1, 7)
DECK = ShoeSpec(packs=1, jokers=1)


class Phase(StrEnum):
    BETTING = "betting"
    SETTING = "setting"
    SETTLED = "settled"


class Outcome(StrEnum):
    WIN = "win"
    PUSH = "push"
    LOSS = "loss"
    VOID = "void"  # no action (an irregularity): the wager is returned


# ----------------------------------------------------------------------------- events
@dataclass(frozen=True)
class WagerPlaced(Event):
    clause: ClassVar[str] = WAGERS
    seat: int
    amount: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "wager", "seat": self.seat, "amount": self.amount}


@dataclass(frozen=True)
class BankTaken(Event):
    clause: ClassVar[str] = BANKING
    seat: int
    dealer_wager: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "bank", "seat": self.seat, "dealer_wager": self.dealer_wager}


@dataclass(frozen=True)
class DragonTaken(Event):
    clause: ClassVar[str] = DRAGON
    seat: int
    spot: int
    amount: Cents

    def history_action(self) -> dict[str, Any]:
        return {"type": "dragon", "seat": self.seat, "spot": self.spot, "amount": self.amount}


@dataclass(frozen=True)
class WagersWithdrawn(Event):
    """A seat's wager, and the dragon hand it carries, taken back before the deal; the hand
    history keeps no trace of them."""

    clause: ClassVar[str] = WAGERS
    seat: int
    returned: Cents

    def takes_back(self, action: dict[str, Any]) -> bool:
        return action["type"] in ("wager", "dragon") and action.get("seat") == self.seat


@dataclass(frozen=True)
class Dealt(Event):
    """The shuffle and deal: start position, dice (if used), the hand of every position."""

    clause: ClassVar[str] = DEAL
    banker_spot: int
    start_position: int
    dice: tuple[int, ...]
    machine: bool
    hands: tuple[tuple[Card, ...], ...]  # by position 1..7 (index 0 = position 1)
    order: tuple[Card, ...] = ()
    """The shuffled deck, first card dealt first (the history's pack)."""

    def history_action(self) -> dict[str, Any]:
        return {"type": "deal", "dice": list(self.dice), "start": self.start_position}

    def dealt(self) -> tuple[Card, ...]:
        return self.order


@dataclass(frozen=True)
class Collected(Event):
    """Hands of unoccupied positions and the four remaining cards, to the discard rack."""

    clause: ClassVar[str] = DEAL
    positions: tuple[int, ...]
    remainder: tuple[Card, ...]


@dataclass(frozen=True)
class HandSet(Event):
    clause: ClassVar[str] = SETTING
    spot: int
    setting: Setting
    house_way: bool
    foul: bool
    dragon: bool = False
    asked: str = ""
    """The player's action that set the hand ("set" or "house_way"); "" for the house dealer's
    hand and a dragon hand set the house way."""

    def history_action(self) -> dict[str, Any] | None:
        if not self.asked:
            return None
        return {"type": self.asked, "spot": self.spot,
                "front": [str(c) for c in self.setting.front], "house_way": self.house_way}


@dataclass(frozen=True)
class HandResult(Event):
    clause: ClassVar[str] = SETTLEMENT
    spot: int
    seat: int
    dragon: bool
    wager: Cents
    outcome: Outcome
    commission: Cents
    net: Cents


@dataclass(frozen=True)
class Settled(Event):
    clause: ClassVar[str] = SETTLEMENT
    banker_spot: int
    banker_setting: Setting
    results: tuple[HandResult, ...]
    banker_net: Cents
    banker_commission: Cents


@dataclass(frozen=True)
class CardExposed(Event):
    """Irregularities (cards exposed): a card of `spot` shown before the reveal, by the dealer
    or by the player holding it; it is public from now on."""

    clause: ClassVar[str] = IRREGULARITIES
    spot: int
    card: Card
    by_dealer: bool

    def history_action(self) -> dict[str, Any]:
        return {"type": "expose", "spot": self.spot, "card": str(self.card),
                "by_dealer": self.by_dealer}


@dataclass(frozen=True)
class WrongCardCount(Event):
    """Irregularities (incorrect number of cards): the dealer finds `count` cards at `spot`."""

    clause: ClassVar[str] = IRREGULARITIES
    spot: int
    count: int

    def history_action(self) -> dict[str, Any]:
        return {"type": "card_count", "spot": self.spot, "count": self.count}


@dataclass(frozen=True)
class HandVoided(Event):
    """A hand taken out of play by house policy: `outcome` VOID (wager returned) or LOSS."""

    clause: ClassVar[str] = IRREGULARITIES
    spot: int
    outcome: Outcome
    reason: str


@dataclass(frozen=True)
class Misdeal(Event):
    """Irregularities (misdeal): every hand is collected; the wagers, the bank and any dragon
    hand stand; the deck is shuffled and dealt again."""

    clause: ClassVar[str] = IRREGULARITIES
    reason: str

    supersedes: ClassVar[frozenset[str]] = frozenset({"deal", "set", "house_way", "expose",
                                                      "card_count"})
    """The redeal replaces the first deal (and any setting or irregularity of it) in the
    hand's history; the room's `irregularities` keep who declared the misdeal and why."""




def position_of_spot(spot: int, banker_spot: int) -> int:
    """Clause 5: the banker is position one, then counter-clockwise."""
    return (spot - banker_spot) % SPOTS + 1


def spot_of_position(position: int, banker_spot: int) -> int:
    return (banker_spot + position - 1) % SPOTS


def start_from_dice(dice: Sequence[int]) -> int:
    """Clause 5: count positions from the banker as one, open seats included, to the sum."""
    return (sum(dice) - 1) % SPOTS + 1


def roll(source: RandomSource, use_dice: bool) -> tuple[tuple[int, ...], int]:
    """The wheel of clause 5, the deal's one chance outcome besides the shuffle: three dice and
    the position they give the first hand (`start_from_dice`), or without dice (house rule
    `use_dice`) the position drawn at random."""
    if use_dice:
        dice = tuple(source.randbelow(6) + 1 for _ in range(3))
        return dice, start_from_dice(dice)
    return (), source.randbelow(SPOTS) + 1


def _wheel(dice: Sequence[int], start: int, use_dice: bool) -> tuple[tuple[int, ...], int]:
    """The wheel as `roll` would give it for these dice (or this start without dice)."""
    if use_dice:
        return tuple(dice), start_from_dice(dice) if len(dice) == 3 and all(
            1 <= d <= 6 for d in dice) else -1
    return (), start if not dice and 1 <= start <= SPOTS else -1


def deal_line(order: Sequence[Card], machine: bool) -> tuple[list[list[Card]], list[Card]]:
    """Clause 4: seven hands in a line, one card at a time (or seven at a time from a shuffle
    machine); the four cards left over are returned separately."""
    if len(order) != DECK.size:
        raise RuleError(DEAL, f"a Pai Gow deal needs the {DECK.size}-card deck")
    if machine:
        hands = [list(order[7 * k: 7 * k + 7]) for k in range(7)]
    else:
        hands = [[order[k + 7 * j] for j in range(7)] for k in range(7)]
    return hands, list(order[49:])


@dataclass
class PaiGowTable(Engine):
    rules: PaiGowRules = field(default_factory=PaiGowRules)
    way: HouseWay | None = None
    chips: dict[int, Cents] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    phase: Phase = Phase.BETTING
    wagers: dict[int, Cents] = field(default_factory=dict)
    last_wagers: dict[int, Cents] = field(default_factory=dict)
    banker_spot: int = DEALER
    player_banked_last: bool = False
    dragon: tuple[int, int, Cents] | None = None  # seat, spot, wager
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)  # by spot
    settings: dict[int, HandSet] = field(default_factory=dict)  # by spot
    house_result: Cents = 0
    exposed: dict[int, list[Card]] = field(default_factory=dict)  # public cards, by spot
    out_of_play: dict[int, Outcome] = field(default_factory=dict)  # voided hands, by spot
    misdealt: bool = False  # after a misdeal only the redeal may follow

    def __post_init__(self) -> None:
        if self.way is None:
            self.way = house_way(self.rules.house_way)

    @property
    def house_way(self) -> HouseWay:
        assert self.way is not None
        return self.way

    # -------------------------------------------------------------- seating and wagers
    def sit(self, seat: int, chips: Cents) -> None:
        if seat not in PLAYER_SEATS:
            raise RuleError(WAGERS, f"seat {seat} does not exist: up to six players, seats 1-6")
        self.chips[seat] = require_cents(chips, "chips")

    def in_hand(self, seat: int) -> bool:
        """Whether the seat has chips in the hand: a wager, the bank or the dragon hand."""
        return seat in self.wagers or seat == self.banker_spot or (
            self.dragon is not None and self.dragon[0] == seat)

    def leave(self, seat: int) -> None:
        """The player gets up: not with chips in the hand; the seat's last wager (the house
        dealer's stake were it to bank) goes with it."""
        if self.in_hand(seat):
            raise RuleError(WAGERS, "you have chips in play: wait for the hand to settle")
        self.chips.pop(seat, None)
        self.last_wagers.pop(seat, None)

    def open_spots(self) -> list[int]:
        """The player spots nobody sits at (clause 7: a dragon hand is played at one)."""
        return [s for s in PLAYER_SEATS if s not in self.chips]

    def _no_change_after_misdeal(self, clause: str) -> None:
        if self.misdealt:
            raise RuleError(clause, "after a misdeal the same wagers are dealt again: "
                                     "deal the hand")

    def verify_place_wager(self, seat: int, amount: Cents) -> None:
        if self.phase is not Phase.BETTING:
            raise RuleError(WAGERS, "wagers are placed before the deal")
        self._no_change_after_misdeal(WAGERS)
        if seat not in self.chips:
            raise RuleError(WAGERS, f"no player sits at seat {seat}")
        if seat == self.banker_spot:
            raise RuleError(WAGERS, "the player-banker does not wager against the bank")
        if seat in self.wagers:
            raise WagerRefused(WAGERS, "you already have a wager on this hand")
        require_cents(amount, "wager")
        if amount <= 0:
            raise WagerRefused(WAGERS, "a wager must be positive")
        self.rules.check_wager(amount, "a wager")
        if amount > self.chips[seat]:
            raise WagerRefused(WAGERS, f"seat {seat} has {format_money(self.chips[seat])}, "
                               f"cannot wager {format_money(amount)}")
        self._bank_covers(amount)

    can_place_wager = able(verify_place_wager)

    @action
    def place_wager(self, seat: int, amount: Cents) -> WagerPlaced:
        self.wagers[seat] = amount
        return self._log(WagerPlaced(seat, amount))

    def verify_withdraw_wagers(self, seat: int) -> None:
        if seat not in self.wagers:
            raise RuleError(WAGERS, NO_WAGER)
        if self.phase is not Phase.BETTING:
            raise RuleError(WAGERS, "the cards are dealt: wagers can no longer change")
        self._no_change_after_misdeal(WAGERS)

    can_withdraw_wagers = able(verify_withdraw_wagers)

    @action
    def withdraw_wagers(self, seat: int) -> WagersWithdrawn:
        """Until the deal a seat may take its wager back, and with it the dragon hand it
        bought (the dragon hand is played only beside the player's own wager); a bank taken
        stays taken."""
        returned = self.wagers.pop(seat)
        if self.dragon is not None and self.dragon[0] == seat:
            returned += self.dragon[2]
            self.dragon = None
        return self._log(WagersWithdrawn(seat, returned))

    # -------------------------------------------------------------- player banking
    def exposure(self, banker: int) -> Cents:
        """What `banker` would pay were every wager against the bank to win: the players'
        wagers, the house dealer's (the banker's last wager) and the dragon hand's."""
        exposure = sum(a for s, a in self.wagers.items() if s != banker)
        exposure += self.last_wagers.get(banker, 0)  # the house dealer's wager
        if self.dragon:
            exposure += self.dragon[2]
        return exposure

    def _bank_covers(self, extra: Cents) -> None:
        """Banking clause: a player-banker covers every wager, a new one (`extra`) too."""
        if self.banker_spot == DEALER:
            return
        need, has = self.exposure(self.banker_spot) + extra, self.chips[self.banker_spot]
        if has < need:
            raise WagerRefused(BANKING, f"the player-banker cannot cover this wager: the bank "
                               f"needs {format_money(need)}, has {format_money(has)}")

    def verify_bank(self, seat: int) -> None:
        """Banking clause: one "Banker" button a hand (a seat that holds it cannot take it
        again, nor another seat take it from it); the house banks at least every other hand;
        the player-banker must cover every wager, the house dealer's included (his last wager
        on the previous hand); the player of the dragon hand does not bank against it."""
        if self.dragon is not None and self.dragon[0] == seat:
            raise RuleError(BANKING, "you play the dragon hand: you cannot bank against it")
        if self.phase is not Phase.BETTING:
            raise RuleError(BANKING, "the bank is taken before the deal")
        self._no_change_after_misdeal(BANKING)
        if seat not in self.chips:
            raise RuleError(BANKING, f"no player sits at seat {seat}")
        if self.banker_spot == seat:
            raise RuleError(BANKING, "you already hold the bank for this hand")
        if self.banker_spot != DEALER:
            raise RuleError(BANKING, f"seat {self.banker_spot} holds the bank for this hand: "
                                     "one player banks a hand")
        if self.player_banked_last:
            raise WagerRefused(BANKING, "the house must bank at least every other hand: a player "
                               "banked the previous hand, so the house banks this one")
        if not self.last_wagers.get(seat):
            raise WagerRefused(BANKING, "the house dealer wagers what the player-banker wagered "
                               f"on the previous hand: seat {seat} had no wager then")
        need = self.exposure(seat)
        if self.chips[seat] < need:
            raise WagerRefused(BANKING, f"seat {seat} cannot cover the wagers: needs "
                               f"{format_money(need)} to pay every winning wager, has "
                               f"{format_money(self.chips[seat])}")

    can_bank = able(verify_bank)

    @action
    def bank(self, seat: int) -> BankTaken:
        self.banker_spot = seat
        self.wagers.pop(seat, None)
        return self._log(BankTaken(seat, self.last_wagers[seat]))

    # -------------------------------------------------------------- dragon hand
    def verify_dragon_for(self, seat: int) -> None:
        """Clause 7, for the seat alone: the house allows dragon hands, the hand is not dealt
        (nor misdealt), the seat has a wager on its own hand and no one holds the dragon
        hand yet."""
        if self.rules.dragon_hand is DragonHand.NOT_ALLOWED:
            raise RuleError(DRAGON, "this card room does not allow dragon hands")
        if self.phase is not Phase.BETTING:
            raise RuleError(DRAGON, "a dragon hand is taken before the deal")
        self._no_change_after_misdeal(DRAGON)
        if seat not in self.wagers:
            raise RuleError(DRAGON, "only a player with a wager on their own hand may play a "
                                     "dragon hand")
        if self.dragon is not None:
            raise RuleError(DRAGON, "the dragon hand is already taken")

    def verify_take_dragon(self, seat: int, spot: int, amount: Cents) -> None:
        """Clause 7: a dragon hand is the hand of an open spot, if the house allows it."""
        self.verify_dragon_for(seat)
        if spot not in PLAYER_SEATS or spot in self.chips or spot == self.banker_spot:
            raise RuleError(DRAGON, f"spot {spot} is not an open spot")
        require_cents(amount, "wager")
        if amount <= 0 or amount + self.wagers[seat] > self.chips[seat]:
            raise WagerRefused(DRAGON, f"seat {seat} cannot wager {format_money(amount)} more on "
                               "a dragon hand")
        self.rules.check_wager(amount, "a dragon-hand wager")
        self._bank_covers(amount)

    can_take_dragon = able(verify_take_dragon)

    @action
    def take_dragon(self, seat: int, spot: int, amount: Cents) -> DragonTaken:
        self.dragon = (seat, spot, amount)
        return self._log(DragonTaken(seat, spot, amount))

    # -------------------------------------------------------------- the deal
    def occupied_spots(self) -> list[int]:
        spots = {self.banker_spot, DEALER}  # the dealer plays when a player banks
        spots.update(s for s in self.wagers if s != self.banker_spot)
        if self.dragon:
            spots.add(self.dragon[1])
        return sorted(spots)

    def verify_deal(self, source: RandomSource | None = None,
                    order: Sequence[Card] | None = None,
                    wheel: tuple[tuple[int, ...], int] | None = None) -> None:
        if order is not None and sorted(order) != sorted(DECK.cards()):
            raise RuleError(DEAL, "the deck is not the 53-card Pai Gow deck")
        if wheel is not None and wheel != _wheel(wheel[0], wheel[1], self.rules.use_dice):
            raise RuleError(DEAL, f"the dice {list(wheel[0])} do not start the deal at position "
                            f"{wheel[1]} (clause 5)")
        if self.phase is not Phase.BETTING:
            raise RuleError(DEAL, "the hand is already dealt")
        if not [s for s in self.wagers if s != self.banker_spot]:
            raise RuleError(DEAL, "no player has a wager against the bank")
        if self.banker_spot != DEALER:
            need = self.exposure(self.banker_spot)
            if self.chips[self.banker_spot] < need:
                raise WagerRefused(DEAL, f"the player-banker cannot cover {format_money(need)} "
                                         "of wagers")

    can_deal = able(verify_deal)

    @action
    def deal(self, source: RandomSource | None = None, order: Sequence[Card] | None = None,
             wheel: tuple[tuple[int, ...], int] | None = None) -> Dealt:
        """Shuffle (CSPRNG unless a replay source or order is given), pick the start position
        (`roll`, unless the `wheel` rolled is given), deal seven hands of seven, collect the
        unused ones."""
        src = source or SystemRandom()
        deck = list(order) if order is not None else fisher_yates(DECK.cards(), src)
        dice, start = wheel if wheel is not None else roll(src, self.rules.use_dice)
        line, remainder = deal_line(deck, self.rules.shuffle_machine)
        by_position: list[tuple[Card, ...]] = [()] * SPOTS
        for k, hand in enumerate(line):
            by_position[(start - 1 + k) % SPOTS] = tuple(hand)
        event = Dealt(self.banker_spot, start, dice, self.rules.shuffle_machine,
                      tuple(by_position), tuple(deck))
        self._log(event)
        occupied = self.occupied_spots()
        self.hands = {}
        empty = []
        for pos in range(1, 8):
            spot = spot_of_position(pos, self.banker_spot)
            if spot in occupied:
                self.hands[spot] = by_position[pos - 1]
            else:
                empty.append(pos)
        # the four remaining cards are verified: with the 49 dealt, the whole deck
        if len(remainder) != 4 or sorted([*remainder, *(c for h in line for c in h)]) != sorted(
                DECK.cards()):
            raise RuleError(DEAL, "card count irregularity: the deck is not complete")
        self._log(Collected(tuple(empty), tuple(remainder)))
        self.phase = Phase.SETTING
        self.misdealt = False
        if self.dragon and self.rules.dragon_hand is DragonHand.HOUSE_WAY:
            self._set(self.dragon[1], set_hand(self.hands[self.dragon[1]], self.house_way,
                                               self.rules.wheel_second).setting, True)
        return event

    # -------------------------------------------------------------- setting hands
    def spots_to_set(self, seat: int) -> list[int]:
        """The spots whose hand `seat` sets now (clause 6: its own; clause 7: the dragon hand
        it plays, where the player sets it), each still to set and in play."""
        if self.phase is not Phase.SETTING:
            return []
        own = {seat}
        if self.dragon is not None and self.dragon[0] == seat and \
                self.rules.dragon_hand is DragonHand.PLAYER_SETS:
            own.add(self.dragon[1])
        return sorted(s for s in own if s in self._player_spots() and s not in self.settings)

    def _player_spots(self) -> list[int]:
        """Spots whose owner sets the hand: players, the dragon, a player-banker."""
        spots = [s for s in self.wagers if s != self.banker_spot]
        if self.dragon:
            spots.append(self.dragon[1])
        if self.banker_spot != DEALER:
            spots.append(self.banker_spot)
        return [s for s in spots if s not in self.out_of_play]

    def verify_set_hand(self, spot: int, front: Sequence[Card]) -> None:
        """Clause 6: the player arranges the hand; clause 9: not after the dealer reveals."""
        if self.phase is not Phase.SETTING:
            raise RuleError(SETTING, "hands are set after the deal and before the reveal")
        if spot in self.out_of_play:
            raise RuleError(SETTING, f"spot {spot}'s hand is out of play (an irregularity)")
        if spot not in self._player_spots():
            raise RuleError(SETTING, f"spot {spot} has no hand for a player to set")
        if spot in self.settings:
            raise RuleError(SETTING, f"spot {spot}'s hand is already set")
        if self.dragon and spot == self.dragon[1] and (
                self.rules.dragon_hand is DragonHand.HOUSE_WAY):
            raise RuleError(SETTING, "the dragon hand is set the house way here")
        setting = make_setting(self.hands[spot], front, self.rules.wheel_second)
        if self.rules.foul_policy is FoulPolicy.REFUSE and setting.is_foul:
            raise FoulSettingError(f"foul setting refused: {setting}")

    can_set_hand = able(verify_set_hand)

    @action
    def set_hand(self, spot: int, front: Sequence[Card]) -> HandSet:
        setting = make_setting(self.hands[spot], front, self.rules.wheel_second)
        if setting.is_foul and self.rules.foul_policy is FoulPolicy.RESET_HOUSE_WAY:
            setting = set_hand(self.hands[spot], self.house_way, self.rules.wheel_second).setting
            return self._set(spot, setting, True, "set")
        return self._set(spot, setting, False, "set")

    def verify_ask_house_way(self, spot: int) -> None:
        if self.phase is not Phase.SETTING or spot not in self._player_spots():
            raise RuleError(HOUSE_WAY, f"spot {spot} has no hand to set now")
        if spot in self.settings:
            raise RuleError(HOUSE_WAY, f"spot {spot}'s hand is already set")

    can_ask_house_way = able(verify_ask_house_way)

    @action
    def ask_house_way(self, spot: int) -> HandSet:
        """Clause 6 note: the dealer sets the hand the house way (the house-way button)."""
        setting = set_hand(self.hands[spot], self.house_way, self.rules.wheel_second).setting
        return self._set(spot, setting, True, "house_way")

    def _set(self, spot: int, setting: Setting, by_house_way: bool, asked: str = "") -> HandSet:
        dragon = bool(self.dragon and spot == self.dragon[1])
        event = HandSet(spot, setting, by_house_way, setting.is_foul, dragon, asked)
        self.settings[spot] = event
        self._log(event)
        return event

    # -------------------------------------------------------------- irregularities
    def verify_declare_misdeal(self, reason: str) -> None:
        """Irregularities (misdeals): the dealer may void the deal until the reveal."""
        if self.phase is not Phase.SETTING:
            raise RuleError(IRREGULARITIES,
                            "a misdeal is declared after the deal and before the reveal")
        if not reason.strip():
            raise RuleError(IRREGULARITIES, "a misdeal needs a reason for the hand history")

    can_declare_misdeal = able(verify_declare_misdeal)

    @action
    def declare_misdeal(self, reason: str) -> Misdeal:
        return self._misdeal(reason)

    def _misdeal(self, reason: str) -> Misdeal:
        self.hands = {}
        self.settings = {}
        self.exposed = {}
        self.out_of_play = {}
        self.phase = Phase.BETTING
        self.misdealt = True
        return self._log(Misdeal(reason))

    def verify_expose_card(self, spot: int, card: Card, by_dealer: bool = True) -> None:
        if self.phase is not Phase.SETTING:
            raise RuleError(IRREGULARITIES,
                            "cards are exposed only between the deal and the reveal")
        if spot not in self.hands:
            raise RuleError(IRREGULARITIES, f"spot {spot} holds no hand in play")
        if card not in self.hands[spot]:
            raise RuleError(IRREGULARITIES, f"{card} is not in spot {spot}'s hand")
        if card in self.exposed.get(spot, []):
            raise RuleError(IRREGULARITIES, f"{card} is already exposed")
        if not by_dealer and spot not in self._player_spots():
            raise RuleError(IRREGULARITIES, f"no player holds spot {spot}'s hand")

    can_expose_card = able(verify_expose_card)

    @action
    def expose_card(self, spot: int, card: Card, by_dealer: bool = True) -> CardExposed:
        """Irregularities (cards exposed): a card the dealer exposes is a misdeal or is shown
        to the table and plays (house rule `exposed_card`); a card a player shows of their own
        hand plays (clause 9: the hand is the player's responsibility). An exposed card is
        public: every viewer's snapshot shows it."""
        event = CardExposed(spot, card, by_dealer)
        self._log(event)
        self.exposed.setdefault(spot, []).append(card)
        if by_dealer and self.rules.exposed_card is ExposedCardPolicy.MISDEAL:
            self._misdeal(f"{card} of spot {spot} exposed by the dealer")
        return event

    def verify_report_card_count(self, spot: int, count: int) -> None:
        if self.phase is not Phase.SETTING:
            raise RuleError(IRREGULARITIES, "hands are counted between the deal and the reveal")
        if spot not in self.hands or spot in self.out_of_play:
            raise RuleError(IRREGULARITIES, f"spot {spot} holds no hand in play")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuleError(IRREGULARITIES, f"a card count is a whole number, not {count!r}")
        if count == 7:
            raise RuleError(IRREGULARITIES, "seven cards is the right number: no irregularity")

    can_report_card_count = able(verify_report_card_count)

    @action
    def report_card_count(self, spot: int, count: int) -> WrongCardCount:
        """Irregularities (incorrect number of cards): the banker's or the house dealer's hand
        is always a misdeal (every wager plays against it, or it is the dealer's wager); a
        player's hand follows house rule `wrong_card_count`: misdeal, void (wager returned) or
        dead (wager lost)."""
        event = WrongCardCount(spot, count)
        self._log(event)
        policy = self.rules.wrong_card_count
        if spot in (self.banker_spot, DEALER) or policy is WrongCountPolicy.MISDEAL:
            self._misdeal(f"spot {spot} holds {count} cards")
        else:
            outcome = Outcome.VOID if policy is WrongCountPolicy.VOID_HAND else Outcome.LOSS
            self.out_of_play[spot] = outcome
            self.settings.pop(spot, None)
            self._log(HandVoided(spot, outcome, f"{count} cards instead of seven"))
        return event

    # -------------------------------------------------------------- reveal and settle
    def verify_settle(self) -> None:
        if self.phase is not Phase.SETTING:
            raise RuleError(SETTLEMENT, "nothing to settle now")
        unset = [s for s in self._player_spots() if s not in self.settings]
        if unset:
            raise RuleError(SETTLEMENT, f"spots {unset} have not set their hands")

    can_settle = able(verify_settle)

    @action
    def settle(self) -> Settled:
        """Clause 8: the dealer sets by the house way; clause 10: both hands must beat the
        banker's to win even money less commission; one each is a push; copies go to the
        banker. A player-banker pays commission on the bank's net win."""
        way, wheel = self.house_way, self.rules.wheel_second
        # the house dealer's hand, banker's or (when a player banks) a player's, house way
        self._set(DEALER, set_hand(self.hands[DEALER], way, wheel).setting, True)
        bank = self.settings[self.banker_spot].setting
        bank_foul = self.settings[self.banker_spot].foul
        policy = self.rules.commission_policy
        results = []
        opponents: list[tuple[int, int, Cents, bool]] = [
            (s, s, a, False) for s, a in self.wagers.items() if s != self.banker_spot]
        if self.dragon:
            opponents.append((self.dragon[1], self.dragon[0], self.dragon[2], True))
        if self.banker_spot != DEALER:
            opponents.append((DEALER, DEALER, self.last_wagers[self.banker_spot], False))
        banker_net = 0
        for spot, seat, wager, dragon in opponents:
            if spot in self.out_of_play:
                outcome = self.out_of_play[spot]
            else:
                hs = self.settings[spot]
                outcome = _outcome(hs.setting, hs.foul, bank, bank_foul)
            commission = policy.charge(wager) if outcome is Outcome.WIN else 0
            net = {Outcome.WIN: wager - commission, Outcome.PUSH: 0, Outcome.VOID: 0,
                   Outcome.LOSS: -wager}[outcome]
            banker_net += {Outcome.WIN: -wager, Outcome.PUSH: 0, Outcome.VOID: 0,
                           Outcome.LOSS: wager}[outcome]
            results.append(HandResult(spot, seat, dragon, wager, outcome, commission, net))
            if seat == DEALER:
                self.house_result += net
            else:
                self.chips[seat] += net
            self.house_result += commission
        banker_commission = 0
        if self.banker_spot != DEALER:
            banker_commission = policy.charge(banker_net) if banker_net > 0 else 0
            self.chips[self.banker_spot] += banker_net - banker_commission
            self.house_result += banker_commission
        else:
            self.house_result += banker_net
        event = Settled(self.banker_spot, bank, tuple(results), banker_net, banker_commission)
        self._log(event)
        self.phase = Phase.SETTLED
        return event

    def verify_next_hand(self) -> None:
        if self.phase is not Phase.SETTLED:
            raise RuleError(SETTLEMENT, "the hand is not settled yet")

    can_next_hand = able(verify_next_hand)

    @action
    def next_hand(self) -> None:
        """Clear the layout; remember wagers (the dealer's stake when a player banks next)."""
        self.player_banked_last = self.banker_spot != DEALER
        self.last_wagers = dict(self.wagers)
        self.wagers = {}
        self.banker_spot = DEALER
        self.dragon = None
        self.hands = {}
        self.settings = {}
        self.exposed = {}
        self.out_of_play = {}
        self.phase = Phase.BETTING

    def _void(self, reason: str) -> int:
        """Every wager (the dragon's too) goes back and the layout is cleared; a voided hand
        does not count for the every-other-hand banking rule (it was not played), so the
        previous hand's wagers and banker stay as they were. (The table keeps the chips at
        the seats: a wager never left them.)"""
        back = sum(self.wagers.values()) + (self.dragon[2] if self.dragon else 0)
        self.wagers, self.dragon, self.banker_spot = {}, None, DEALER
        self.hands, self.settings, self.exposed, self.out_of_play = {}, {}, {}, {}
        self.phase, self.misdealt = Phase.BETTING, False
        return back

    # -------------------------------------------------------------- the game's flow (protocol)
    free = frozenset({"place_wager", "take_dragon"})

    def table_seats(self) -> list[protocol.Seat]:
        return [*sorted(self.chips), protocol.TABLE]

    def _offers(self, seat: protocol.Seat) -> Iterator[protocol.Action]:
        """A seat's wager at `engine.amounts` (the game's own rules set no limit: the table's least
        buy-in to a hundred times it, within the seat's chips), the bank, the
        dragon hand at each open spot for the least wager; each of its hands set every way
        (the 21 fronts) or the house way; the table's deal (no source: the CSPRNG; a replay
        or a test gives one), settlement and next hand."""
        if seat == protocol.TABLE:
            yield protocol.Action({Phase.BETTING: "deal", Phase.SETTING: "settle",
                          Phase.SETTLED: "next_hand"}[self.phase])
            return
        assert isinstance(seat, int)
        least, chips = self.rules.least_buy_in, self.chips.get(seat, 0)
        if self.phase is Phase.BETTING:
            for a in protocol.amounts(least, 100 * least, chips):
                yield protocol.Action("place_wager", (seat, a), seat)
            yield protocol.Action("withdraw_wagers", (seat,), seat)
            yield protocol.Action("bank", (seat,), seat)
            for spot in self.open_spots():
                yield protocol.Action("take_dragon", (seat, spot, least), seat)
        for spot in self.spots_to_set(seat):
            for front in combinations(self.hands[spot], 2):
                yield protocol.Action("set_hand", (spot, front), seat)
            yield protocol.Action("ask_house_way", (spot,), seat)

    def is_over(self) -> bool:
        return self.phase is Phase.SETTLED

    def _settlement(self) -> dict[int, int]:
        last = next(e for e in reversed(self.events) if isinstance(e, Settled))
        net: dict[int, int] = {}
        for r in last.results:
            if r.seat != DEALER:
                net[r.seat] = net.get(r.seat, 0) + r.net
        if last.banker_spot != DEALER:
            net[last.banker_spot] = net.get(last.banker_spot, 0) + last.banker_net \
                - last.banker_commission
        return net

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        return dict(self.snapshot(seat))

    # -------------------------------------------------------------- what a viewer may see
    def snapshot(self, viewer_spot: int | None) -> dict[str, object]:
        """A client's view: its own cards, others' only once settled (hidden stays hidden)."""
        revealed = self.phase is Phase.SETTLED
        hands = {}
        for spot, cards in self.hands.items():
            visible = revealed or spot == viewer_spot or (
                self.dragon is not None and spot == self.dragon[1]
                and viewer_spot == self.dragon[0])
            hands[spot] = format_cards(cards) if visible else "hidden"
        exposed = {spot: format_cards(cards) for spot, cards in self.exposed.items()}
        return {"phase": self.phase.value, "banker_spot": self.banker_spot,
                "wagers": dict(self.wagers), "hands": hands, "exposed": exposed}


def _outcome(player: Setting, foul: bool, bank: Setting, bank_foul: bool) -> Outcome:
    if foul:
        return Outcome.LOSS  # house policy: a foul hand loses
    if bank_foul:
        return Outcome.WIN
    wins = (player.front_score > bank.front_score) + (player.back_score > bank.back_score)
    return (Outcome.LOSS, Outcome.PUSH, Outcome.WIN)[wins]

