"""Pan in the terminal: one human and bots, hand after hand.

Before each prompt the human's legal actions are listed. While bots act, the human gets a say
whenever he may force a card (house rules 12 and 13) or call a hand foul (rule 3). The table
is `games.pan.driver.PanTable`, as in the room: the bots' turns, the offers they answer, the
pack between hands and the tops a redeal carries (foul rule 6). The winner is first hand,
and, when players are waiting, the seat rule for the player who panned (Pan rule 2) moves the
human after his one more hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console

from cardroom.cards import Card, format_cards
from cardroom.cli.say import escape, flagged
from cardroom.errors import CardroomError
from cardroom.games.pan.bots import Bot, SoundBot
from cardroom.games.pan.cards import pan_pack, sort_key
from cardroom.games.pan.commands import legal_commands, parse_command, reactions
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import PanHand, Phase, SeatSpec
from cardroom.games.pan.events import (
    ChipsMoved,
    ConditionMade,
    Discarded,
    Drew,
    Forced,
    FoulCalled,
    Irregularity,
    Melded,
    Took,
)
from cardroom.games.pan.history import history_of
from cardroom.games.pan.rules import PanRules
from cardroom.games.pan.table import must_change_seat, next_dealer
from cardroom.history import HandHistory
from cardroom.shoe import RandomSource, SeededRandom, SystemRandom, fisher_yates

HELP = """commands (cards as 3c Jd Ks; melds by the number shown in [brackets]):
  play | knock | pass | change         declare, or change your declaration
  draw | take                          draw from the stock, or take the previous player's card
  take tops                            the one player left when all others passed takes the tops
  meld CARDS                           a new meld (with the drawn card when one is up)
  lay MELD [CARD]                      lay off the drawn card, or CARD from your hand
  borrow MELD CARDS [/ HAND]           CARDS from meld MELD, with HAND cards (and the drawn
                                       card when one is up), make a new meld
  split MELD CARDS                     CARDS split off meld MELD as a new meld
  collect | discard [CARD] | out       call for pay; discard (the drawn card); go out
  force option use|continue            rule 12: the player who drew overlooked the option card
  force back SEAT                      rule 13: SEAT's discard goes back onto his spread
  foul SEAT | foul self                call SEAT's hand foul; declare your own hand foul
  offer split | accept split | decline split
                                       pays rule 2: two players in action split the tops
  settle SEAT CHIPS [SEAT CHIPS ...] | face up
                                       foul rule 5: the one player left after fouls settles
                                       with the foul hands (5A) or plays face up (5B)
  ok                                   let play go on (when asked while others act)
  board | actions | help | quit"""


AskFn = Callable[[str], str]


def new_bot(seat: int) -> Bot:
    """The computer player for a seat (tests replace it with scripted players)."""
    return SoundBot()


def first_deal(rules: PanRules, players: int, source: RandomSource) -> tuple[int, list[Card]]:
    """The first dealer and the first shuffled pack (tests replace it with a stacked pack)."""
    return source.randbelow(players), fisher_yates(pan_pack(rules), source)


@dataclass
class Player:
    name: str
    chips: int
    bot: Bot | None



class _Quit(Exception):
    """The human typed quit."""


class Session:
    """A terminal session: the human at seat `me`, bots elsewhere, hand after hand."""

    def __init__(self, rules: PanRules, bots: int, seed: int | None, console: Console,
                 ask: AskFn, waiting: bool = False) -> None:
        self.rules = rules
        self.console = console
        self.ask = ask
        self.waiting = waiting
        self.source: RandomSource = SeededRandom(seed) if seed is not None else SystemRandom()
        self.players = [Player("you", rules.buy_in_chips, None)] + [
            Player(f"bot{i}", rules.buy_in_chips, new_bot(i)) for i in range(1, bots + 1)]
        self.me = 0
        self.hands_since_pan: int | None = None
        self.table = PanTable(self.source)
        self.seen = 0

    def bots(self) -> list[Bot | None]:
        return [p.bot for p in self.players]

    # ----- output -------------------------------------------------------------------------

    def who(self, hand: PanHand, seat: int | None) -> str:
        return "tops" if seat is None else ("you" if seat == self.me else hand.seats[seat].name)

    def show_events(self, hand: PanHand) -> None:
        for ev in hand.events[self.seen:]:
            text = None
            if isinstance(ev, Drew):
                text = f"{self.who(hand, ev.seat)} drew [bold]{ev.card}[/bold]"
            elif isinstance(ev, Took):
                text = f"{self.who(hand, ev.seat)} took {ev.card}"
            elif isinstance(ev, Melded):
                text = f"{self.who(hand, ev.seat)}: {ev.action} {format_cards(ev.cards)}"
            elif isinstance(ev, ConditionMade):
                text = f"[yellow]{self.who(hand, ev.seat)}: condition worth {ev.units}[/yellow]"
            elif isinstance(ev, ChipsMoved):
                text = (f"[green]{ev.chips} chip(s) {self.who(hand, ev.payer)} -> "
                        f"{self.who(hand, ev.payee)} ({ev.reason})[/green]")
            elif isinstance(ev, Discarded):
                text = f"{self.who(hand, ev.seat)} discarded {ev.card}"
            elif isinstance(ev, Forced):
                text = (f"[magenta]{self.who(hand, ev.forcer)} forced {ev.card} on "
                        f"{self.who(hand, ev.seat)}: {ev.outcome}[/magenta]")
            elif isinstance(ev, Irregularity) and ev.cause == "face up" and ev.seat != self.me:
                text = f"{self.who(hand, ev.seat)}: the only hand left plays face up (foul rule 5B)"
            elif isinstance(ev, Irregularity) and ev.cause.startswith("split"):
                text = f"{self.who(hand, ev.seat)}: {ev.detail} (house pays rule 2)"
            elif isinstance(ev, FoulCalled):
                how = "declared own hand foul" if ev.self_declared else "hand called foul"
                text = f"[red]{self.who(hand, ev.seat)}: {how}[/red]"
            if text is not None:
                self.console.print(text, highlight=False)
        self.seen = len(hand.events)

    def board(self, hand: PanHand) -> None:
        for i, s in hand.seats.items():
            melds = "  ".join(escape(f"[{k}]") + f" {format_cards(m.cards)}"
                              for k, m in enumerate(s.melds))
            self.console.print(f"seat {i} {self.who(hand, i)} ({s.status.value}, {s.chips} "
                               f"chips, {len(s.hand)} in hand): {melds}", highlight=False)
        me = hand.seats[self.me]
        top = hand.discards[-1].card if hand.discards else None
        self.console.print(
            f"your hand: [bold]{format_cards(sorted(me.hand, key=sort_key))}[/bold]"
            + (f"   drawn: [bold]{hand.drawn}[/bold]" if hand.drawn else "")
            + (f"   top discard: {top}" if top else "") + f"   tops: {hand.tops_single}",
            highlight=False)

    # ----- the human ----------------------------------------------------------------------

    def human(self, hand: PanHand, prompt: str, allowed: Callable[[], list[str]]) -> bool:
        """Read commands until one changes the hand (True) or `ok` / quit (False / None)."""
        while True:
            legal = allowed()
            self.console.print("legal: " + " | ".join(legal or ["ok"]), markup=False,
                               highlight=False, soft_wrap=True)
            text = self.ask(prompt).strip()
            if not text:
                continue
            word = text.split()[0].lower()
            if word == "quit":
                raise _Quit
            if word == "ok":
                return False
            if word in ("board", "hand"):
                self.board(hand)
                continue
            if word == "help":
                self.console.print(HELP, markup=False, highlight=False)
                continue
            if word == "actions":
                continue
            try:
                self.table.act(self.me, parse_command(hand, text), self.bots())
            except (CardroomError, IndexError) as exc:
                self.console.print(flagged("", exc), highlight=False,
                                   soft_wrap=True)
                continue
            self.show_events(hand)
            return True

    def window(self, hand: PanHand) -> None:
        """The human may force a card or call a foul while another player acts."""
        while hand.phase is Phase.PLAYING and reactions(hand, self.me):
            if not self.human(hand, "react (or ok)", lambda: [*reactions(hand, self.me), "ok"]):
                return

    # ----- a hand -------------------------------------------------------------------------

    def play_hand(self, dealer: int, pack: list[Card] | None) -> PanHand:
        """One hand, on `pack` (the first) or the pack the last hand left, with the tops it
        carried."""
        specs = [SeatSpec(p.name, p.chips) for p in self.players]
        hand = self.table.deal(self.rules, specs, dealer, pack)
        self.seen = 0
        self.board(hand)
        while True:
            self.table.play(self.bots(), after=lambda _: self.show_events(hand),
                            window=lambda: self.window(hand))
            if hand.phase is Phase.COMPLETE:
                return hand
            self.decide(hand)
            self.show_events(hand)

    def decide(self, hand: PanHand) -> None:
        """The human's decision is due (the bots' turns are played by the table)."""
        if hand.phase is Phase.LAST_PLAYER:
            self.console.print("you are the only hand left after fouls: settle with the foul "
                               "hands (foul rule 5A) or play face up (5B)")
        elif hand.phase is Phase.PLAYING and hand.current == self.me and not hand.turn_started:
            self.board(hand)
        self.human(hand, "pan", lambda: legal_commands(hand, self.me))

    # ----- hand after hand ----------------------------------------------------------------

    def run(self) -> list[HandHistory]:
        histories: list[HandHistory] = []
        self.console.print(HELP, markup=False, highlight=False)
        dealer, dealt = first_deal(self.rules, len(self.players), self.source)
        pack: list[Card] | None = dealt
        try:
            while True:
                hand = self.play_hand(dealer, pack)
                pack = None
                histories.append(history_of(hand))
                self.settle(hand)
                if any(p.chips <= 0 for p in self.players) or \
                        self.ask("another hand? (y/n)").strip().lower() != "y":
                    self.game_over()
                    return histories
                winner = None if hand.winner is None else self.players[hand.winner]
                self.seat_rule(hand.winner)
                first = None if winner is None else self.players.index(winner)
                dealer = next_dealer(len(self.players), first, dealer)
        except _Quit:
            hand_left = self.table.hand
            if hand_left is not None and hand_left.phase is not Phase.COMPLETE:
                histories.append(history_of(hand_left))
            self.game_over()
            return histories

    def game_over(self) -> None:
        """The game ends (the last hand settled, or the human quit, a hand left unfinished
        counting for nothing): tops carried from a redeal go back to the players who put them
        up (`PanTable.break_up`), and every player's chips are shown."""
        back = self.table.break_up()
        for p in self.players:
            p.chips += back.get(p.name, 0)
        if back:
            self.console.print("the game ends before the redeal: the tops go back to the "
                               "players who put them up: " + ", ".join(
                                   f"{name} {chips}" for name, chips in back.items()),
                               highlight=False)
        self.console.print("chips at the end: " + ", ".join(
            f"{p.name} {p.chips}" for p in self.players), highlight=False)

    def settle(self, hand: PanHand) -> None:
        self.console.print(f"[bold]hand over[/bold]: {hand.end_reason}", highlight=False)
        for i, s in hand.seats.items():
            self.console.print(f"  seat {i} {self.who(hand, i)}: {s.chips - s.start_chips:+d} "
                               f"chips, {s.chips} on the table", highlight=False)
        for p, s in zip(self.players, hand.seats.values(), strict=True):
            p.chips = s.chips
        if any(self.table.carried):
            self.console.print(f"the tops stay for the redeal (foul rule 6): "
                               f"{sum(self.table.carried)} chip(s) go to the next hand",
                               highlight=False)

    def seat_rule(self, winner: int | None) -> None:
        """Pan rule 2: when players are waiting, the player who panned plays ONE more hand in
        that seat, then changes seats (to the next seat in the order of play)."""
        if self.hands_since_pan is not None:
            self.hands_since_pan += 1
        elif winner == self.me:
            self.hands_since_pan = 0
        if self.hands_since_pan is not None and must_change_seat(True, self.hands_since_pan,
                                                                 self.waiting):
            new = (self.me + 1) % len(self.players)
            self.players[self.me], self.players[new] = self.players[new], self.players[self.me]
            self.console.print(f"seat rule (Pan rule 2): players are waiting, you panned and "
                               f"played one more hand: you move from seat {self.me} to seat "
                               f"{new}", highlight=False)
            self.me = new
            self.hands_since_pan = None
        elif self.hands_since_pan == 0 and self.waiting:
            self.console.print("you panned: one more hand in this seat (Pan rule 2)")


def play_session(rules: PanRules, bots: int, seed: int | None, console: Console, ask: AskFn,
                 waiting: bool = False) -> list[HandHistory]:
    """Play until the human quits or declines another hand; the histories of every hand."""
    return Session(rules, bots, seed, console, ask, waiting).run()
