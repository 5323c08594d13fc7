"""Pan in the terminal: one human and bots, hand after hand.

Before each prompt the human's legal actions are listed. While bots act, the human gets a say
whenever he may force a card (house rules 12 and 13) or call a hand foul (rule 3). Between
hands the pack is made as the house rules say (`table.pack_after`), the winner is first hand,
and, when players are waiting, the seat rule for the player who panned (Pan rule 2) moves the
human after his one more hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from rich.console import Console
from rich.markup import escape

from cardroom.cards import Card, format_cards, parse_cards
from cardroom.errors import CardroomError
from cardroom.history import HandHistory
from cardroom.shoe import RandomSource, SeededRandom, SystemRandom, fisher_yates

from .bots import Bot, SoundBot, hand_melds, option_window
from .cards import pan_pack, sort_key
from .engine import PanHand, Phase, SeatSpec
from .events import (
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
from .replay import history_of
from .rules import PanRules
from .table import must_change_seat, next_dealer, pack_after

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


class CommandError(CardroomError):
    """A command the terminal cannot read (the engine's own errors name the rule)."""


AskFn = Callable[[str], str]
AgreeFn = Callable[[int, int], bool]
"""Whether foul seat `p` agrees to pay `chips` in a settlement (foul rule 5A)."""


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


def legal_commands(hand: PanHand, me: int) -> list[str]:
    """The human's legal actions now, as commands he can type."""
    out: list[str] = []
    s = hand.seats[me]
    if hand.phase is Phase.DECLARING and hand.order[hand.next_declarer] == me:
        out += [w for w, play in (("play", True), ("pass", False)) if hand.can_declare(me, play)]
    if hand.can_change_declaration(me):
        out.append("change")
    if hand.phase is Phase.LAST_PLAYER and hand.current == me:
        return ["settle SEAT CHIPS [SEAT CHIPS ...]", "face up"]
    if hand.can_accept_split(me):
        out += ["accept split", "decline split"]
    elif hand.can_offer_split(me):
        out.append("offer split")
    if hand.forced_discard == me:
        out += [f"discard {c}" for c in _distinct(s.hand)]
    elif hand.phase is Phase.PLAYING and hand.current == me:
        out += _turn_commands(hand, me)
    out += reactions(hand, me)
    if hand.can_declare_own_foul(me):
        out.append("foul self")
    return out


def _turn_commands(hand: PanHand, me: int) -> list[str]:
    s = hand.seats[me]
    out: list[str] = []
    if hand.can_take_tops(me):
        return ["take tops"]
    if hand.can_draw(me):
        out.append("draw")
    opt = hand.option_card()
    if opt is not None and hand.can_take(me):
        out.append("take")
    if hand.drawn is not None:
        for use in hand.card_uses(me, hand.drawn):
            if use[0] == "lay_off":
                out.append(f"lay {use[1]}")
            elif use[0] == "meld":
                out.append(f"meld {format_cards(use[1])}")
            else:
                out.append(f"borrow {use[1]} {format_cards(use[2])} / {format_cards(use[3])}")
        if hand.can_discard(me, hand.drawn):
            out.append(f"discard {hand.drawn}")
        return out
    if not hand.turn_started:
        return out
    out += sorted({f"meld {format_cards(sorted(t, key=sort_key))}" for t in hand_melds(s.hand)})
    for c in _distinct(s.hand):
        out += [f"lay {mi} {c}" for mi in hand.fitting_melds(me, c)]
    for mi, m in enumerate(s.melds):
        for part in _split_parts(hand, me, mi):
            out.append(f"split {mi} {format_cards(part)}")
        if m.kind is not None and len(m.cards) >= 4 and s.hand:
            out.append(f"borrow {mi} CARDS / HAND")
    if hand.can_collect(me):
        out.append("collect")
    if hand.can_go_out(me):
        out.append("out")
    out += [f"discard {c}" for c in _distinct(s.hand) if hand.can_discard(me, c)]
    return out


def _split_parts(hand: PanHand, seat: int, meld: int) -> list[tuple[Card, ...]]:
    cards = hand.seats[seat].melds[meld].cards
    if len(cards) < 6:
        return []
    parts = {tuple(sorted(p, key=sort_key)) for k in range(3, len(cards) - 2)
             for p in combinations(cards, k)}
    return sorted(p for p in parts if hand.can_split(seat, meld, p))


def reactions(hand: PanHand, me: int) -> list[str]:
    """What the human may do while another player acts: force a card, call a foul."""
    out: list[str] = []
    if hand.can_force_option_card(me, True):
        out.append("force option use")
    if hand.can_force_option_card(me, False):
        out.append("force option continue")
    others = [i for i in range(hand.n) if i != me]
    out += [f"force back {i}" for i in others if hand.can_force_back(me, i)]
    out += [f"foul {i}" for i in others if hand.can_call_foul(me, i)]
    return out


def _distinct(cards: list[Card]) -> list[Card]:
    return sorted(set(cards), key=sort_key)


def _cards(text: str, what: str) -> list[Card]:
    cards = parse_cards(text)
    if not cards:
        raise CommandError(f"{what}: name the cards, e.g. 3c 4c")
    return cards


def _meld_number(word: str) -> int:
    if not word.isdigit():
        raise CommandError(f"{word!r} is not a meld number (the number in [brackets])")
    return int(word)


def _seat_number(word: str, hand: PanHand) -> int:
    if not word.isdigit() or int(word) >= hand.n:
        raise CommandError(f"{word!r} is not a seat (0 to {hand.n - 1})")
    return int(word)


def _settle(hand: PanHand, me: int, args: list[str], agree: AgreeFn | None) -> None:
    """Foul rule 5A: the payments each foul hand makes; every payer must agree."""
    if not args or len(args) % 2 or not all(a.isdigit() for a in args):
        raise CommandError("settle SEAT CHIPS [SEAT CHIPS ...], e.g. settle 1 3")
    payments: dict[int, int] = {}
    for i in range(0, len(args), 2):
        payments[_seat_number(args[i], hand)] = int(args[i + 1])
    hand.verify_settle(me, payments)
    for p, chips in payments.items():
        if agree is not None and not agree(p, chips):
            raise CommandError(f"seat {p} refuses to pay {chips} chip(s): a settlement must be "
                               "mutually satisfactory (foul rule 5A)")
    hand.settle(me, payments)


def apply_command(hand: PanHand, me: int, text: str, agree: AgreeFn | None = None) -> None:
    """Apply one typed command for seat `me`; a bad command raises and changes nothing.
    `agree` answers for the foul hands in a settlement (None: they agree)."""
    words = text.split()
    cmd, args = words[0].lower(), words[1:]
    rest = " ".join(args)
    if cmd in ("offer", "accept", "decline"):
        if args != ["split"]:
            raise CommandError(f"{cmd} split (the tops, house pays rule 2)")
        {"offer": hand.offer_split, "accept": hand.accept_split,
         "decline": hand.decline_split}[cmd](me)
    elif cmd == "settle":
        _settle(hand, me, args, agree)
    elif cmd == "face":
        if args != ["up"]:
            raise CommandError("face up")
        hand.play_face_up(me)
    elif cmd == "play":
        hand.declare(me, True)
    elif cmd == "knock":
        hand.knock(me)
    elif cmd == "pass":
        hand.declare(me, False)
    elif cmd == "change":
        hand.change_declaration(me)
    elif cmd == "draw":
        hand.draw(me)
    elif cmd == "take":
        if args == ["tops"]:
            hand.take_tops(me)
        else:
            hand.take(me)
    elif cmd == "meld":
        hand.meld(me, _cards(rest, "meld"), use_drawn=hand.drawn is not None)
    elif cmd == "lay":
        if not 1 <= len(args) <= 2:
            raise CommandError("lay MELD [CARD], e.g. lay 0 or lay 1 4c")
        card = parse_cards(args[1])[0] if len(args) == 2 else None
        hand.lay_off(me, _meld_number(args[0]), card)
    elif cmd == "borrow":
        if not args:
            raise CommandError("borrow MELD CARDS [/ HAND], e.g. borrow 0 4c / 4s")
        borrowed, _, own = " ".join(args[1:]).partition("/")
        hand.borrow(me, _meld_number(args[0]), _cards(borrowed, "borrow"), parse_cards(own),
                    use_drawn=hand.drawn is not None)
    elif cmd == "split":
        if len(args) < 2:
            raise CommandError("split MELD CARDS, e.g. split 0 Ac 2c 3c")
        hand.split(me, _meld_number(args[0]), _cards(" ".join(args[1:]), "split"))
    elif cmd == "collect":
        hand.collect(me)
    elif cmd == "discard":
        card = parse_cards(rest)[0] if rest else hand.drawn
        if card is None:
            raise CommandError("discard CARD: name the card (no drawn card is up)")
        hand.discard(me, card)
    elif cmd == "out":
        hand.go_out(me)
    elif cmd == "force":
        _force(hand, me, args)
    elif cmd == "foul":
        if args == ["self"]:
            hand.declare_own_foul(me)
        elif len(args) == 1:
            hand.call_foul(me, _seat_number(args[0], hand))
        else:
            raise CommandError("foul SEAT or foul self")
    else:
        raise CommandError(f"unknown command {cmd!r}: type help")


def _force(hand: PanHand, me: int, args: list[str]) -> None:
    if len(args) == 2 and args[0] == "option" and args[1] in ("use", "continue"):
        hand.force_option_card(me, args[1] == "use")
    elif len(args) == 2 and args[0] == "back":
        hand.force_back(me, _seat_number(args[1], hand))
    else:
        raise CommandError("force option use, force option continue, or force back SEAT")


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
        self.hand: PanHand | None = None
        self.seen = 0

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
            elif isinstance(ev, Irregularity) and ev.cause.startswith("split"):
                text = f"{self.who(hand, ev.seat)}: {ev.detail} (house pays rule 2)"
            elif isinstance(ev, FoulCalled):
                how = "declared own hand foul" if ev.self_declared else "hand called foul"
                text = f"[red]{self.who(hand, ev.seat)}: {how}[/red]"
            if text is not None:
                self.console.print(text, highlight=False)
        self.seen = len(hand.events)

    def board(self, hand: PanHand) -> None:
        for i, s in enumerate(hand.seats):
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
                apply_command(hand, self.me, text, self.agree)
            except (CardroomError, IndexError) as exc:
                self.console.print(f"[red]{escape(str(exc))}[/red]", highlight=False,
                                   soft_wrap=True)
                continue
            self.show_events(hand)
            self.answer_offer(hand)
            return True

    def agree(self, seat: int, chips: int) -> bool:
        """A foul bot's answer to the human's settlement (foul rule 5A)."""
        assert self.hand is not None
        bot = self.players[seat].bot
        return bot is None or bot.agree_settlement(self.hand, seat, chips)

    def answer_offer(self, hand: PanHand) -> None:
        """The human offered to split the tops: the other player in action answers."""
        if hand.split_offer != self.me or hand.phase is not Phase.PLAYING:
            return
        other = next(i for i in hand.in_players() if i != self.me)
        bot = self.players[other].bot
        if bot is None:
            return
        if bot.answer_split(hand, other):
            hand.accept_split(other)
        else:
            hand.decline_split(other)
        self.show_events(hand)

    def window(self, hand: PanHand) -> None:
        """The human may force a card or call a foul while another player acts."""
        while hand.phase is Phase.PLAYING and reactions(hand, self.me):
            if not self.human(hand, "react (or ok)", lambda: [*reactions(hand, self.me), "ok"]):
                return

    # ----- a hand -------------------------------------------------------------------------

    def play_hand(self, dealer: int, pack: list[Card]) -> PanHand:
        specs = [SeatSpec(p.name, p.chips) for p in self.players]
        hand = self.hand = PanHand(self.rules, specs, dealer, pack)
        self.seen = 0
        self.board(hand)
        last_top = None
        while hand.phase is not Phase.COMPLETE:
            self.step(hand)
            self.show_events(hand)
            top = hand.discards[-1] if hand.discards else None
            if top is not None and top is not last_top:
                last_top = top
                self.after_discard(hand, top.seat)
        return hand

    def step(self, hand: PanHand) -> None:
        if hand.phase is Phase.DECLARING:
            seat = hand.order[hand.next_declarer]
        elif hand.forced_discard is not None:
            seat = hand.forced_discard
        else:
            assert hand.current is not None
            seat = hand.current
        bot = self.players[seat].bot
        if hand.phase is Phase.LAST_PLAYER and bot is None:
            self.console.print("you are the only hand left after fouls: settle with the foul "
                               "hands (foul rule 5A) or play face up (5B)")
            self.human(hand, "pan", lambda: legal_commands(hand, self.me))
        elif hand.phase is Phase.LAST_PLAYER:
            self.console.print(f"{self.who(hand, seat)}: the only hand left plays face up "
                               "(foul rule 5B)")
            hand.play_face_up(seat)
        elif hand.phase is Phase.PLAYING and not hand.stock and not hand.turn_started:
            hand.reshuffle_stock(fisher_yates([d.card for d in hand.discards[:-1]],
                                              self.source))
        elif bot is None:
            if hand.phase is Phase.PLAYING and hand.current == seat and not hand.turn_started:
                self.board(hand)
            self.human(hand, "pan", lambda: legal_commands(hand, self.me))
        elif hand.phase is Phase.DECLARING:
            bot.declare(hand, seat)
        elif hand.forced_discard == seat:
            bot.forced_discard(hand, seat)
        else:
            if not hand.turn_started:   # started already: left alone by fouls, face up
                bot.start(hand, seat)
                self.show_events(hand)
                option_window(hand, seat, [p.bot for p in self.players])
                self.show_events(hand)
                self.window(hand)
            if hand.phase is Phase.PLAYING and hand.current == seat and hand.turn_started:
                bot.finish(hand, seat)

    def after_discard(self, hand: PanHand, discarder: int) -> None:
        """Every other player may force the discard back (rule 13): bots, then the human."""
        for i, p in enumerate(self.players):
            if p.bot is None or i == discarder or hand.phase is not Phase.PLAYING:
                continue
            p.bot.react(hand, i)
            if hand.forced_discard is not None:
                self.show_events(hand)
                return
        self.window(hand)

    # ----- hand after hand ----------------------------------------------------------------

    def run(self) -> list[HandHistory]:
        histories: list[HandHistory] = []
        self.console.print(HELP, markup=False, highlight=False)
        dealer, pack = first_deal(self.rules, len(self.players), self.source)
        try:
            while True:
                hand = self.play_hand(dealer, pack)
                histories.append(history_of(hand))
                self.settle(hand)
                if any(p.chips <= 0 for p in self.players) or \
                        self.ask("another hand? (y/n)").strip().lower() != "y":
                    return histories
                winner = None if hand.winner is None else self.players[hand.winner]
                self.seat_rule(hand.winner)
                first = None if winner is None else self.players.index(winner)
                dealer = next_dealer(len(self.players), first, dealer)
                pack = pack_after(hand, self.source)
        except _Quit:
            if self.hand is not None and self.hand.phase is not Phase.COMPLETE:
                histories.append(history_of(self.hand))
            return histories

    def settle(self, hand: PanHand) -> None:
        self.console.print(f"[bold]hand over[/bold]: {hand.end_reason}", highlight=False)
        for i, d in enumerate(hand.chips_delta()):
            self.console.print(f"  seat {i} {self.who(hand, i)}: {d:+d} chips, "
                               f"{hand.seats[i].chips} on the table", highlight=False)
        for p, s in zip(self.players, hand.seats, strict=True):
            p.chips = s.chips

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
