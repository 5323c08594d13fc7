"""Pan in the terminal: the human is seat 0, bots fill the other seats."""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console

from cardroom.cards import format_cards, parse_cards
from cardroom.errors import CardroomError
from cardroom.history import HandHistory
from cardroom.shoe import RandomSource, SeededRandom, SystemRandom, fisher_yates

from .bots import SoundBot
from .cards import pan_pack, sort_key
from .engine import PanHand, Phase, SeatSpec
from .events import ChipsMoved, ConditionMade, Discarded, Drew, Melded, Took
from .replay import history_of
from .rules import PanRules
from .table import next_dealer

HELP = ("commands: play | pass | draw | take | meld CARDS (with the drawn card if one is up) | "
        "lay MELD [CARD] | discard [CARD] | collect | out | hand | quit")


def _show_events(console: Console, hand: PanHand, start: int) -> None:
    def who(i: int) -> str:
        return "you" if i == 0 else hand.seats[i].name

    for ev in hand.events[start:]:
        if isinstance(ev, Drew):
            console.print(f"{who(ev.seat)} drew [bold]{ev.card}[/bold]")
        elif isinstance(ev, Took):
            console.print(f"{who(ev.seat)} took {ev.card}")
        elif isinstance(ev, Melded):
            console.print(f"{who(ev.seat)}: {ev.action} {format_cards(ev.cards)}")
        elif isinstance(ev, ConditionMade):
            console.print(f"[yellow]{who(ev.seat)}: condition worth {ev.units}[/yellow]")
        elif isinstance(ev, ChipsMoved):
            a = "tops" if ev.payer is None else who(ev.payer)
            b = "tops" if ev.payee is None else who(ev.payee)
            console.print(f"[green]{ev.chips} chip(s) {a} -> {b} ({ev.reason})[/green]")
        elif isinstance(ev, Discarded):
            console.print(f"{who(ev.seat)} discarded {ev.card}")


def _board(console: Console, hand: PanHand) -> None:
    me = hand.seats[0]
    for i, s in enumerate(hand.seats):
        melds = "  ".join(f"[{k}] {format_cards(m.cards)}" for k, m in enumerate(s.melds))
        console.print(f"seat {i} {s.name} ({s.status.value}, {s.chips} chips): {melds}",
                      highlight=False)
    console.print(f"your hand: [bold]{format_cards(sorted(me.hand, key=sort_key))}[/bold]"
                  + (f"   drawn: [bold]{hand.drawn}[/bold]" if hand.drawn else ""))


def _human(hand: PanHand, console: Console, ask: Callable[[str], str]) -> bool:
    """One command from the human; False to quit."""
    text = ask("pan").strip()
    words = text.split()
    if not words:
        return True
    cmd, rest = words[0].lower(), " ".join(words[1:])
    try:
        if cmd == "quit":
            return False
        if cmd in ("play", "knock"):
            hand.declare(0, True)
        elif cmd == "pass":
            hand.declare(0, False)
        elif cmd == "draw":
            hand.draw(0)
        elif cmd == "take":
            hand.take(0)
        elif cmd == "meld":
            hand.meld(0, parse_cards(rest), use_drawn=hand.drawn is not None)
        elif cmd == "lay":
            parts = rest.split()
            card = parse_cards(parts[1])[0] if len(parts) > 1 else None
            hand.lay_off(0, int(parts[0]), card)
        elif cmd == "discard":
            card = parse_cards(rest)[0] if rest else hand.drawn
            if card is None:
                raise CardroomError("name the card to discard")
            hand.discard(0, card)
        elif cmd == "collect":
            hand.collect(0)
        elif cmd == "out":
            hand.go_out(0)
        elif cmd == "hand":
            _board(console, hand)
        else:
            console.print(HELP)
    except (CardroomError, ValueError, IndexError) as exc:
        console.print(f"[red]{exc}[/red]", highlight=False)
    return True


def play_session(rules: PanRules, bots: int, seed: int | None, console: Console,
                 ask: Callable[[str], str]) -> list[HandHistory]:
    source: RandomSource = SeededRandom(seed) if seed is not None else SystemRandom()
    rng = random.Random(seed)
    n = bots + 1
    chips = [rules.buy_in_chips] * n
    names = ["you"] + [f"bot{i}" for i in range(1, n)]
    dealer = rng.randrange(n)
    histories: list[HandHistory] = []
    console.print(HELP)
    while True:
        pack = fisher_yates(pan_pack(rules), source)
        hand = PanHand(rules, [SeatSpec(names[i], chips[i]) for i in range(n)], dealer, pack)
        robot = SoundBot()
        seen = 0
        _board(console, hand)
        while hand.phase is not Phase.COMPLETE:
            who_acts: int | None
            if hand.phase is Phase.DECLARING:
                who_acts = hand.order[hand.next_declarer]
            else:
                who_acts = hand.current if hand.forced_discard is None else hand.forced_discard
            if who_acts is None:
                break
            seat = who_acts
            if hand.phase is Phase.LAST_PLAYER:
                hand.play_face_up(seat)
                continue
            if seat == 0:
                if hand.phase is Phase.PLAYING and not hand.turn_started and not hand.stock:
                    pile = [d.card for d in hand.discards[:-1]]
                    rng.shuffle(pile)
                    hand.reshuffle_stock(pile)
                    continue
                if not _human(hand, console, ask):
                    histories.append(history_of(hand))
                    return histories
            elif hand.phase is Phase.DECLARING:
                robot.declare(hand, seat)
            else:
                if not hand.stock and not hand.turn_started:
                    pile = [d.card for d in hand.discards[:-1]]
                    rng.shuffle(pile)
                    hand.reshuffle_stock(pile)
                    continue
                robot.turn(hand, seat)
            _show_events(console, hand, seen)
            seen = len(hand.events)
            if seat != 0 and hand.phase is Phase.PLAYING and hand.current == 0:
                _board(console, hand)
        console.print(f"[bold]hand over[/bold]: {hand.end_reason}")
        histories.append(history_of(hand))
        chips = [s.chips for s in hand.seats]
        if any(c <= 0 for c in chips) or ask("another hand? (y/n)").strip().lower() != "y":
            return histories
        dealer = next_dealer(n, hand.winner, dealer)
