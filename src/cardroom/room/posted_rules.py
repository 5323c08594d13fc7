"""The posted rules of a table (WAC 230-15-060, and the game documents: the Pai Gow house way
and commission "clearly posted", the Super-9 jackpot "conspicuously posted"): generated from
the table's house-rules file and the games' own rule tables, so what is posted is what is
played. Sections are plain sentences and small tables; the server renders them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cardroom.games.baccarat.paytables import nine_pay_table, progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import ProgressiveAward, fixed_award_for_one
from cardroom.games.pai_gow.houseway import house_way
from cardroom.games.pai_gow.houseway_words import describe_house_way
from cardroom.games.pai_gow.limits import PaiGowTableRules
from cardroom.games.pai_gow.rules import (
    DragonHand,
    ExposedCardPolicy,
    FoulPolicy,
    WrongCountPolicy,
)
from cardroom.games.pan.melds import CONDITION_TABLE
from cardroom.games.pan.rules import PanRules
from cardroom.games.super_pan_9.rules import IrregularityPolicy, SuperPan9Rules
from cardroom.houserules import HouseRules, TurnTimerRules
from cardroom.money import Cents, format_money, format_rate
from cardroom.profile import profile_in_force
from cardroom.room.tables import TableRow, parse_rules

TITLES = {"baccarat": "Mini-Baccarat", "super-pan-9": "Super Pan 9", "pai-gow": "Pai Gow Poker",
          "pan": "Panguingue (Pan)"}


@dataclass(frozen=True)
class Section:
    id: str
    heading: str
    lines: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    """A small table: the first row is its header."""


@dataclass(frozen=True)
class PostedRules:
    table: str
    game: str
    title: str
    sections: tuple[Section, ...] = field(default=())


def commission_words(rate: Fraction, chip_cents: int, what: str) -> str:
    """The commission and its rounding to the table's smallest chip, as posted (rounding is
    always down, the fraction waived: docs/house-rules.md explains why no other rounding
    stands)."""
    chips = f"Wagers are placed in whole {format_money(chip_cents)} chips."
    if rate == 0:
        return f"No commission is charged on {what}. {chips}"
    unit = ("the cent" if chip_cents == 1
            else f"the table's smallest chip, {format_money(chip_cents)}")
    return (f"A commission of {format_rate(rate)} is charged on {what}, rounded down to "
            f"{unit}; the house waives the rest, so it is never more than "
            f"{format_rate(rate)}. {chips}")


def _modifications(rules: HouseRules) -> Section:
    if not rules.modifications:
        return Section("modifications", "Changes from the game's approved rules",
                       ("This table plays the game's rules as approved, with no "
                        "modification.",))
    return Section("modifications", "Changes from the game's approved rules", tuple(
        f"{m.description} (instead of {m.clause}; recorded in the internal controls as "
        f"\u201c{m.id}\u201d)." for m in rules.modifications))


def _law(rules: HouseRules) -> Section:
    """The caps of the regulatory profile that govern this table, each once, with its section."""
    profile = profile_in_force()
    lines = dict.fromkeys(f"{a.rule[0].upper()}{a.rule[1:]} ({a.cap.section})."
                          for a in profile.applying(rules.regulated()))
    return Section("law", f"Limits set by law ({profile.title})", tuple(lines))


DISPUTES = Section("disputes", "Questions and disputes", (
    "If you disagree with how a hand was dealt, played or paid, say so at once and ask for "
    "the floor supervisor before the next hand begins; the floor decides from the rules "
    "posted here.",
    "Every hand is recorded move by move: the floor (and you, for your own hands, under "
    "Hand history) can replay it exactly as it was dealt.",
    "If you are not satisfied with the floor's decision, ask for the card room manager. You "
    "may also contact the Washington State Gambling Commission.",
    "Card room employees do not play at the tables.",
))


PROGRESSIVE_WORDS = {
    ProgressiveAward.ONE_SUITED_NINE: "Player or Banker has a suited 9",
    ProgressiveAward.BOTH_SUITED_NINE: "Player and Banker both have a suited 9 (the suits "
    "may differ)",
    ProgressiveAward.BOTH_SUITED_ACE_EIGHT: "Player and Banker both have a two-card suited "
    "Ace-8, in different suits",
    ProgressiveAward.JACKPOT: "Player and Banker have the same two-card suited Ace-8 (the "
    "same suit)",
}
"""The progressive's winning hands in the layout's words, one per award the engine pays
(`progressive_award`); each award's multiple is the engine's (`fixed_award_for_one`)."""


def award_words(level: str) -> str:
    """A progressive award as its meters name it ("one_suited_nine") in the layout's words."""
    award = ProgressiveAward.__members__.get(level.upper())
    return PROGRESSIVE_WORDS[award] if award in PROGRESSIVE_WORDS else level.replace("_", " ")


def decks_words(decks: int) -> str:
    return f"{decks} deck{'s' if decks != 1 else ''}"


def _baccarat(r: BaccaratRules, jackpot: Cents | None, maximum: Cents = 0) -> list[Section]:
    nine = nine_pay_table(r.paytable)
    limits = Section("limits", "Wagering limits and fees", (
        f"Player and Banker: {format_money(r.table_min_cents)} to "
        f"{format_money(r.table_max_cents)}.",
        f"Tie: {format_money(r.tie_min_cents)} to {format_money(r.tie_max_cents)}.",
        f"Super-9 bonus wagers: {format_money(r.bonus_min_cents)} to "
        f"{format_money(r.bonus_max_cents)}"
        + ("" if r.bonus_without_main else ", with a Player or Banker wager")
        + ("" if r.bonus_over_main else ", no larger than that wager") + ".",
        "There is no fee to play."))
    pays = Section("pays", "Pay tables", (
        "Player wins pay 1 to 1. Banker wins pay 1 to 1 less the commission.",
        f"Tie pays {r.tie_pays} to 1; on a tie, Player and Banker wagers push.",
        f"Player 9 and Banker 9 (pay table {r.paytable}) win when that hand totals 9, with "
        "two cards or three, whichever hand wins the coup; a suited 9 has every card of the "
        "hand in one suit."),
        (("Winning hand", "Pays"),
         ("Player 9, not suited", f"{nine.player_unsuited} to 1"),
         ("Player 9, suited", f"{nine.player_suited} to 1"),
         ("Banker 9, not suited", f"{nine.banker_unsuited} to 1"),
         ("Banker 9, suited", f"{nine.banker_suited} to 1")))
    sections = [limits, pays, Section("commission", "Commission", (
        commission_words(r.commission, r.smallest_chip_cents, "each winning Banker wager"),))]
    if r.jackpot:
        p = progressive_schedule()
        sections.append(Section("jackpot", "Progressive jackpot", (
            "The jackpot now stands at "
            + (format_money(jackpot) if jackpot is not None else "its seed")
            + " (posted daily before the table opens).",
            f"The progressive wager is {format_money(p.wager_cents)}"
            + ("" if r.jackpot_alone else ", placed with a Player or Banker wager")
            + f". The jackpot is seeded with {format_money(r.jackpot_seed_cents)} by the "
            f"house, which is not recovered; {format_rate(r.jackpot_contribution)} of every "
            "progressive wager is added to it.",
            "If more than one hand wins the jackpot on the same coup, they share it equally.",
            *((f"The jackpot has a maximum prize of {format_money(maximum)} (WAC "
               "230-15-685): the jackpot does not grow above it; what would be added above it "
               "is set aside to seed the next jackpot.",) if maximum else ()),
            "Awards are \u201cfor 1\u201d: the progressive wager is collected even when it "
            "wins. A coup pays its highest award only. A suited 9 has every card of the hand "
            "in one suit, two cards or three; the Ace-8 awards take two cards."),
            (("Winning hands", "Award"),
             *((PROGRESSIVE_WORDS[a], f"{fixed_award_for_one(a)} for 1"
                if a is not ProgressiveAward.JACKPOT else "the jackpot")
               for a in ProgressiveAward if a is not ProgressiveAward.NONE))))
    sections.append(Section("irregularities", "Irregularities", (
        f"The game is dealt from a shoe of {decks_words(r.decks)}; the cut card is placed "
        f"{r.cut_card_from_end} cards from the end.",
        "A misdealt coup is voided by the floor supervisor and every wager on it is "
        "returned.")))
    return sections


_SP9_POLICY = {
    IrregularityPolicy.VOID_AND_RETURN: "only the affected hand is voided and its wagers "
    "returned (every hand, if the dealer's hand or the whole deal is affected)",
    IrregularityPolicy.VOID_ROUND: "every hand of the round is voided and every wager "
    "returned",
}


def _turns(r: TurnTimerRules, default: str) -> Section:
    """The action timer (issue 23): how long a turn lasts, what is done for a player who
    does not act, and when they sit out."""
    misses = r.misses_to_sit_out
    return Section("turns", "Time to act", (
        f"On your turn you have {r.turn_seconds} seconds to act; then {default}. The dealer "
        "or the floor may do the same for a player who has left the table.",
        f"After {misses} missed turn{'s' if misses != 1 else ''} in a row you sit out: no hand "
        "is dealt to you until you say you are back."))


def _super_pan_9(r: SuperPan9Rules) -> list[Section]:
    lines = [f"Each hand: {format_money(r.min_wager_cents)} to "
             f"{format_money(r.max_wager_cents)}."]
    if r.tie_bet_offered:
        lines.append(f"Tie Bet: {format_money(r.tie_min_cents)} to "
                     f"{format_money(r.tie_max_cents)}.")
    lines.append("There is no fee to play.")
    pays = ["Winning hands pay 1 to 1 less the commission; ties with the dealer push."]
    if r.tie_bet_offered:
        pays.append(f"Tie Bet pays {r.tie_pays} to 1.")
    what = "each winning wager" + (", the Tie Bet included" if r.commission_on_tie_bet
                                   else " (not on the Tie Bet)")
    return [Section("limits", "Wagering limits and fees", tuple(lines)),
            Section("pays", "Pay tables", tuple(pays)),
            Section("commission", "Commission",
                    (commission_words(r.commission, r.smallest_chip_cents, what),)),
            Section("irregularities", "Irregularities", (
                f"The game is dealt from {decks_words(r.decks)} of 36 cards (no 7s, 8s, 9s, 10s or "
                f"jokers); the cut card is placed {r.cut_from_end} cards from the end.",
                "On a misdeal, an exposed card or a wrong count, "
                f"{_SP9_POLICY[r.irregularity_policy]}.")),
            _turns(r, "you stand")]


_FOUL = {FoulPolicy.HAND_LOSES: "a player's hand set foul loses its wager",
         FoulPolicy.RESET_HOUSE_WAY: "a player's hand set foul is reset by the house way",
         FoulPolicy.REFUSE: "a foul setting is refused and the player sets the hand again"}
_EXPOSED = {ExposedCardPolicy.MISDEAL: "a card the dealer exposes before the reveal makes a "
            "misdeal: every hand is collected and the cards are shuffled again",
            ExposedCardPolicy.HAND_PLAYS: "a card the dealer exposes before the reveal is "
            "shown to the whole table and the hand plays"}
_WRONG = {WrongCountPolicy.MISDEAL: "a hand of other than seven cards makes a misdeal: "
          "wagers stand, the cards are shuffled and dealt again",
          WrongCountPolicy.VOID_HAND: "a hand of other than seven cards has no action: its "
          "wager is returned",
          WrongCountPolicy.HAND_LOSES: "a hand of other than seven cards is dead and loses "
          "its wager"}
_DRAGON = {DragonHand.NOT_ALLOWED: "There is no dragon hand at this table.",
           DragonHand.HOUSE_WAY: "A player may wager on the dragon hand (the unused seat); "
           "the dealer sets it by the house way.",
           DragonHand.PLAYER_SETS: "A player may wager on the dragon hand (the unused seat) "
           "and sets it."}


def _pai_gow(r: PaiGowTableRules) -> list[Section]:
    wheel = ("A-2-3-4-5 is the second-highest straight" if r.wheel_second
             else "A-2-3-4-5 is the lowest straight")
    return [
        Section("limits", "Wagering limits and fees", (
            f"Each wager, the dragon hand's too: {format_money(r.min_wager_cents)} to "
            f"{format_money(r.max_wager_cents)}.", "There is no fee to play.")),
        Section("pays", "Pay tables", (
            "A hand whose two hands both beat the banker's wins 1 to 1 less the commission; "
            "one won and one lost is a push; copies go to the banker.", f"{wheel}.")),
        Section("commission", "Commission", (
            commission_words(r.commission, r.smallest_chip_cents, "each winning hand"),
            "A player who banks pays the commission on the bank's net win.")),
        Section("house-way", "The house way", tuple(describe_house_way(house_way(
            r.house_way)))),
        Section("banking", "Dragon hand and banking", (
            _DRAGON[r.dragon_hand],
            "The house banks every hand unless a player who wagered on the last hand takes "
            "the bank and can cover every wager against it; the house then plays against the "
            "player-banker.")),
        Section("irregularities", "Irregularities", tuple(
            f"{line[0].upper()}{line[1:]}." for line in (
                _FOUL[r.foul_policy], _EXPOSED[r.exposed_card], _WRONG[r.wrong_card_count],
                "a dealing position is chosen with the dice" if r.use_dice
                else "the first hand is dealt without dice"))),
    ]


def _pan(r: PanRules) -> list[Section]:
    chip = format_money(r.chip_cents)
    fee = r.fee.describe() if r.fee is not None else "no fee to play"
    units = sorted(CONDITION_TABLE.items(), key=lambda kv: kv[0].value)
    double = r.spades_double
    header = ("Condition", "Pays when laid down", "Pays for each card added") + (
        ("In spades",) if double else ())
    return [
        Section("limits", "Wagering limits and fees", (
            f"A chip is {chip}; the buy-in is {r.buy_in_chips} chips "
            f"({format_money(r.buy_in_chips * r.chip_cents)}).",
            "Each player pays one chip to the tops when the hand is dealt; the player who "
            f"goes out takes the tops and {r.outs_chips} chip(s) from each player still in.",
            f"The house does not bank Pan: it charges {fee}.",
            "Seats marked \u201cbot\u201d are house players playing the house's own chips; "
            "they pay no fee.")),
        Section("pays", "Conditions (pays), in chips", tuple(
            ["Spade conditions pay double." if double else
             "Spade conditions pay the same as any other suit."]),
            (header, *((pay.description or kind.value, str(pay.units),
                        str(pay.addition_units))
                       + ((f"{pay.units_spades_double} / {pay.addition_units_spades_double}",)
                          if double else ()) for kind, pay in units))),
        Section("irregularities", "Irregularities", (
            "A foul (a wrong count, two discards, a card on the floor, an invalid meld, a "
            "card from the stock in hand) is settled by the Pan foul rules: a fouled hand "
            "pays as it lies.",
            "A hand that cannot be settled by the rules is voided by the floor supervisor and "
            "every chip it moved is returned.",
            "Double condition is offered at this table." if r.allow_double_condition
            else "This table plays straight condition: no double condition.")),
        _turns(r, "the house plays for you: you pass if you have not yet declared, "
                  "otherwise you draw and discard the card drawn"),
    ]


def posted_rules(row: TableRow, jackpot: Cents | None = None, maximum: Cents = 0
                 ) -> PostedRules:
    """The table's posted rules, from its house rules as the room stored them; a baccarat
    table's with its pool's posted amount and maximum prize (0: none)."""
    rules: Any = parse_rules(row.game, row.rules)
    if isinstance(rules, BaccaratRules):
        body = _baccarat(rules, jackpot, maximum)
    elif isinstance(rules, SuperPan9Rules):
        body = _super_pan_9(rules)
    elif isinstance(rules, PaiGowTableRules):
        body = _pai_gow(rules)
    else:
        assert isinstance(rules, PanRules)
        body = _pan(rules)
    return PostedRules(row.name, row.game, TITLES[row.game],
                       (*body, _law(rules), _modifications(rules), DISPUTES))
