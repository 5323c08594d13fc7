"""Pan's command grammar: the actions a seat may take, as words it can type.

One grammar for every place a person plays Pan: the terminal (`cardroom play pan`,
`cardroom.cli.pan_play`) and the web table (`cardroom.room.pan_live`) both read commands with
`apply_command` and list what may be typed now with `legal_commands`. It is the rules' own
vocabulary (declare, draw, take, meld, lay off, borrow, split, collect, discard, go out, force,
foul, settle), so it lives with the rules; the engine checks every action it applies.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from cardroom.cards import Card, format_cards, parse_cards
from cardroom.errors import CardroomError

from .bots import hand_melds
from .cards import sort_key
from .engine import PanHand, Phase


class CommandError(CardroomError):
    """A command the terminal cannot read (the engine's own errors name the rule)."""



AgreeFn = Callable[[int, int], bool]
"""Whether foul seat `p` agrees to pay `chips` in a settlement (foul rule 5A)."""


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

