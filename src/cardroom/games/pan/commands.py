"""Pan's actions a seat may take: typed (`PanAction`, what the web table sends and lists as
buttons) and as words typed at the terminal (the command grammar).

One vocabulary for every place a person plays Pan: the web table (`cardroom.room.play.pan_live`)
lists `legal_actions` in the player's snapshot and applies the typed action a button sends; the
terminal (`cardroom play pan`, `cardroom.cli.pan_play`) reads a typed command with
`parse_command` and lists `legal_commands`, the same actions as words. It is the rules' own
vocabulary (declare, draw, take, meld, lay off, borrow, split, collect, discard, go out, force,
foul, settle), so it lives with the rules; the engine checks every action it applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any

from cardroom.cards import Card, cards_label, format_cards, parse_card, parse_cards
from cardroom.digits import whole_number
from cardroom.errors import CardParseError, CardroomError

from .bots import hand_melds
from .cards import sort_key
from .engine import PanHand, Phase


class CommandError(CardroomError):
    """A command or action that cannot be read (the engine's own errors name the rule)."""


class Kind(StrEnum):
    """Every kind of Pan action a seat may take."""

    PLAY = "play"
    PASS = "pass"
    KNOCK = "knock"
    CHANGE = "change"
    TAKE_TOPS = "take_tops"
    DRAW = "draw"
    TAKE = "take"
    MELD = "meld"
    LAY_OFF = "lay_off"
    BORROW = "borrow"
    SPLIT = "split"
    COLLECT = "collect"
    DISCARD = "discard"
    GO_OUT = "go_out"
    FORCE_OPTION = "force_option"
    FORCE_BACK = "force_back"
    CALL_FOUL = "call_foul"
    FOUL_SELF = "foul_self"
    OFFER_SPLIT = "offer_split"
    ACCEPT_SPLIT = "accept_split"
    DECLINE_SPLIT = "decline_split"
    SETTLE = "settle"
    FACE_UP = "face_up"
    ACCEPT_SETTLEMENT = "accept_settlement"
    DECLINE_SETTLEMENT = "decline_settlement"


@dataclass(frozen=True)
class PanAction:
    """One action of one seat, with what it needs: `cards` the hand cards it uses (a meld's,
    the card laid off or discarded, a borrow's own cards), `meld` the seat's own meld it adds
    to, borrows from or splits, `borrowed` the cards taken from that meld (a split's part),
    `seat` the seat (its number) it is aimed at (force back, foul, settlement), `use` whether
    a forced option card is to be used (True) or play goes on (False), `drawn` whether the
    drawn card is part of it, `payments` a settlement's chips per foul hand (by seat).
    `choose`: in a list of legal actions, the player picks the cards (or chips) and the
    engine checks them when sent."""

    kind: Kind
    cards: tuple[Card, ...] = ()
    meld: int | None = None
    borrowed: tuple[Card, ...] = ()
    seat: int | None = None
    use: bool | None = None
    drawn: bool = False
    choose: bool = False
    payments: tuple[tuple[int, int], ...] = ()

    def to_json(self, names: Mapping[int, str] | None = None) -> dict[str, Any]:
        """The action as the page reads it, with a button `label` in plain words (`names`:
        the hand's seat names, to name the seat an action is aimed at)."""
        return {"kind": self.kind.value, "cards": [str(c) for c in self.cards],
                "meld": self.meld, "borrowed": [str(c) for c in self.borrowed],
                "seat": self.seat, "use": self.use, "drawn": self.drawn,
                "choose": self.choose, "label": action_label(self, names)}


WORDS: dict[Kind, tuple[str, str]] = {
    Kind.PLAY: ("Play", "play"), Kind.PASS: ("Pass", "pass"), Kind.KNOCK: ("Knock", "knock"),
    Kind.CHANGE: ("Change my declaration", "change"),
    Kind.TAKE_TOPS: ("Take the tops", "take tops"), Kind.DRAW: ("Draw", "draw"),
    Kind.TAKE: ("Take the card", "take"), Kind.COLLECT: ("Collect", "collect"),
    Kind.GO_OUT: ("Go out", "out"), Kind.FOUL_SELF: ("Declare my hand foul", "foul self"),
    Kind.OFFER_SPLIT: ("Offer to split the tops", "offer split"),
    Kind.ACCEPT_SPLIT: ("Accept the split", "accept split"),
    Kind.DECLINE_SPLIT: ("Decline the split", "decline split"),
    Kind.SETTLE: ("Offer a settlement", "settle"), Kind.FACE_UP: ("Play face up", "face up"),
    Kind.ACCEPT_SETTLEMENT: ("Accept the settlement", "accept settlement"),
    Kind.DECLINE_SETTLEMENT: ("Decline the settlement", "decline settlement")}
"""The actions that need nothing chosen: each one's button label and its typed command."""


def _named(seat: int | None, names: Mapping[int, str] | None) -> str:
    if seat is None:
        return "?"
    return names[seat] if names is not None and seat in names else f"seat {seat}"


def action_label(a: PanAction, names: Mapping[int, str] | None = None) -> str:
    """What a button for `a` says: short plain words, the cards as a player reads them."""
    k, cards = a.kind, cards_label(a.cards)
    spread = f"spread {(a.meld or 0) + 1}"
    if k in WORDS:
        return WORDS[k][0]
    if k is Kind.MELD:
        return "Meld the chosen cards" if a.choose else \
            f"Meld {cards}" + (" with the drawn card" if a.drawn else "")
    if k is Kind.LAY_OFF:
        return f"Add {cards} to {spread}"
    if k is Kind.BORROW:
        if a.choose:
            return f"Borrow from {spread}"
        return f"Borrow {cards_label(a.borrowed)} from {spread}" + (
            f" with {cards}" if a.cards else "")
    if k is Kind.SPLIT:
        return f"Split {spread}: {cards_label(a.borrowed)}"
    if k is Kind.DISCARD:
        return f"Discard {cards}"
    if k is Kind.FORCE_OPTION:
        return "Force the card to be used" if a.use else "Force play to go on"
    if k is Kind.FORCE_BACK:
        return f"Force the card back on {_named(a.seat, names)}"
    return f"Call a foul on {_named(a.seat, names)}"  # Kind.CALL_FOUL


def legal_actions(hand: PanHand, me: int) -> list[PanAction]:
    """Seat `me`'s legal actions now: every one the engine would accept, the cards named
    (a `choose` action: the player picks the cards, the engine checks them)."""
    out: list[PanAction] = []
    s = hand.seats[me]
    if hand.phase is Phase.DECLARING and hand.order[hand.next_declarer] == me:
        out += [PanAction(k) for k, play in ((Kind.PLAY, True), (Kind.PASS, False))
                if hand.can_declare(me, play)]
    if hand.can_change_declaration(me):
        out.append(PanAction(Kind.CHANGE))
    if hand.phase is Phase.LAST_PLAYER and hand.current == me:
        return [PanAction(Kind.SETTLE, choose=True), PanAction(Kind.FACE_UP)]
    if hand.can_accept_split(me):
        out += [PanAction(Kind.ACCEPT_SPLIT), PanAction(Kind.DECLINE_SPLIT)]
    elif hand.can_offer_split(me):
        out.append(PanAction(Kind.OFFER_SPLIT))
    if hand.forced_discard == me:
        out += [PanAction(Kind.DISCARD, (c,)) for c in _distinct(s.hand)]
    elif hand.phase is Phase.PLAYING and hand.current == me:
        out += _turn_actions(hand, me)
    out += reaction_actions(hand, me)
    if hand.can_declare_own_foul(me):
        out.append(PanAction(Kind.FOUL_SELF))
    return out


def legal_commands(hand: PanHand, me: int) -> list[str]:
    """The legal actions as commands a person can type at the terminal."""
    return [t for a in legal_actions(hand, me) if (t := command_text(a)) is not None]


def _turn_actions(hand: PanHand, me: int) -> list[PanAction]:
    s = hand.seats[me]
    out: list[PanAction] = []
    if hand.can_take_tops(me):
        return [PanAction(Kind.TAKE_TOPS)]
    if hand.can_draw(me):
        out.append(PanAction(Kind.DRAW))
    if hand.option_card() is not None and hand.can_take(me):
        out.append(PanAction(Kind.TAKE))
    drawn = hand.drawn
    if drawn is not None:
        for use in hand.card_uses(me, drawn):
            if use[0] == "lay_off":
                out.append(PanAction(Kind.LAY_OFF, (drawn,), meld=use[1], drawn=True))
            elif use[0] == "meld":
                out.append(PanAction(Kind.MELD, tuple(use[1]), drawn=True))
            else:
                out.append(PanAction(Kind.BORROW, tuple(use[3]), meld=use[1],
                                     borrowed=tuple(use[2]), drawn=True))
        if hand.can_discard(me, drawn):
            out.append(PanAction(Kind.DISCARD, (drawn,), drawn=True))
        return out
    if not hand.turn_started:
        return out
    out += [PanAction(Kind.MELD, t) for t in
            sorted({tuple(sorted(t, key=sort_key)) for t in hand_melds(s.hand)},
                   key=lambda t: [sort_key(c) for c in t])]
    if len(s.hand) >= 3:
        out.append(PanAction(Kind.MELD, choose=True))
    for c in _distinct(s.hand):
        out += [PanAction(Kind.LAY_OFF, (c,), meld=mi) for mi in hand.fitting_melds(me, c)]
    for mi, m in enumerate(s.melds):
        out += [PanAction(Kind.SPLIT, meld=mi, borrowed=part)
                for part in _split_parts(hand, me, mi)]
        if m.kind is not None and len(m.cards) >= 4 and s.hand:
            out.append(PanAction(Kind.BORROW, meld=mi, choose=True))
    if hand.can_collect(me):
        out.append(PanAction(Kind.COLLECT))
    if hand.can_go_out(me):
        out.append(PanAction(Kind.GO_OUT))
    out += [PanAction(Kind.DISCARD, (c,)) for c in _distinct(s.hand) if hand.can_discard(me, c)]
    return out


def _split_parts(hand: PanHand, seat: int, meld: int) -> list[tuple[Card, ...]]:
    cards = hand.seats[seat].melds[meld].cards
    if len(cards) < 6:
        return []
    parts = {tuple(sorted(p, key=sort_key)) for k in range(3, len(cards) - 2)
             for p in combinations(cards, k)}
    return sorted(p for p in parts if hand.can_split(seat, meld, p))


def reaction_actions(hand: PanHand, me: int) -> list[PanAction]:
    """What seat `me` may do while another player acts: force a card, call a foul."""
    out: list[PanAction] = []
    out += [PanAction(Kind.FORCE_OPTION, use=use) for use in (True, False)
            if hand.can_force_option_card(me, use)]
    others = [i for i in hand.ring if i != me]
    out += [PanAction(Kind.FORCE_BACK, seat=i) for i in others if hand.can_force_back(me, i)]
    out += [PanAction(Kind.CALL_FOUL, seat=i) for i in others if hand.can_call_foul(me, i)]
    return out


def reactions(hand: PanHand, me: int) -> list[str]:
    """The reactions as commands a person can type."""
    return [t for a in reaction_actions(hand, me) if (t := command_text(a)) is not None]


def _distinct(cards: list[Card]) -> list[Card]:
    return sorted(set(cards), key=sort_key)


def _cards(text: str, what: str) -> list[Card]:
    cards = parse_cards(text)
    if not cards:
        raise CommandError(f"{what}: name the cards, e.g. 3c 4c")
    return cards


def _meld_number(word: str) -> int:
    number = whole_number(word)
    if number is None:
        raise CommandError(f"{word!r} is not a meld number (the number in [brackets])")
    return number


def _seat_number(word: str, hand: PanHand) -> int:
    number = whole_number(word)
    if number is None or number not in hand.seats:
        raise CommandError(f"{word!r} is not a seat of this hand "
                           f"({', '.join(map(str, hand.ring))})")
    return number


def command_text(a: PanAction) -> str | None:
    """The command a person types for `a` (None: a chosen meld, typed as "meld CARDS")."""
    k, cards = a.kind, format_cards(a.cards)
    if k in WORDS and k is not Kind.SETTLE:
        return WORDS[k][1]
    if k is Kind.SETTLE:
        return "settle SEAT CHIPS [SEAT CHIPS ...]" if a.choose else \
            "settle " + " ".join(f"{p} {c}" for p, c in a.payments)
    if k is Kind.MELD:
        return None if a.choose else f"meld {cards}"
    if k is Kind.LAY_OFF:
        return f"lay {a.meld}" if a.drawn else f"lay {a.meld} {cards}"
    if k is Kind.BORROW:
        if a.choose:
            return f"borrow {a.meld} CARDS / HAND"
        return f"borrow {a.meld} {format_cards(a.borrowed)} / {cards}"
    if k is Kind.SPLIT:
        return f"split {a.meld} {format_cards(a.borrowed)}"
    if k is Kind.DISCARD:
        return f"discard {cards}"
    if k is Kind.FORCE_OPTION:
        return f"force option {'use' if a.use else 'continue'}"
    if k is Kind.FORCE_BACK:
        return f"force back {a.seat}"
    return f"foul {a.seat}"  # Kind.CALL_FOUL


_PLAIN = {"play": Kind.PLAY, "knock": Kind.KNOCK, "pass": Kind.PASS, "change": Kind.CHANGE,
          "draw": Kind.DRAW, "collect": Kind.COLLECT, "out": Kind.GO_OUT}
_TWO_WORDS = {("offer", "split"): Kind.OFFER_SPLIT, ("accept", "split"): Kind.ACCEPT_SPLIT,
              ("decline", "split"): Kind.DECLINE_SPLIT, ("face", "up"): Kind.FACE_UP,
              ("take", "tops"): Kind.TAKE_TOPS, ("foul", "self"): Kind.FOUL_SELF,
              ("accept", "settlement"): Kind.ACCEPT_SETTLEMENT,
              ("decline", "settlement"): Kind.DECLINE_SETTLEMENT}


def parse_command(hand: PanHand, text: str) -> PanAction:
    """Read one typed command (the terminal's grammar) as a typed action; a command that
    cannot be read raises `CommandError` saying how it is written."""
    words = text.split()
    if not words:
        raise CommandError("type a command, or help")
    cmd, args = words[0].lower(), words[1:]
    low = tuple(w.lower() for w in words)
    try:
        if len(low) == 2 and low in _TWO_WORDS:
            return PanAction(_TWO_WORDS[low])
        if cmd in _PLAIN and not args:
            return PanAction(_PLAIN[cmd])
        return _parse_with_arguments(hand, cmd, args)
    except CardParseError as exc:
        raise CommandError(str(exc)) from None
    except (IndexError, ValueError):
        raise CommandError(f"cannot read the command {text[:40]!r}: type help") from None


def _parse_with_arguments(hand: PanHand, cmd: str, args: list[str]) -> PanAction:
    rest = " ".join(args)
    if cmd in ("offer", "accept", "decline"):
        raise CommandError(f"{cmd} split (the tops, house pays rule 2)")
    if cmd == "face":
        raise CommandError("face up")
    if cmd == "take":
        return PanAction(Kind.TAKE)
    if cmd == "settle":
        numbers = [whole_number(a) for a in args]
        if not args or len(args) % 2 or None in numbers:
            raise CommandError("settle SEAT CHIPS [SEAT CHIPS ...], e.g. settle 1 3")
        return PanAction(Kind.SETTLE, payments=tuple(
            (_seat_number(args[i], hand), int(args[i + 1])) for i in range(0, len(args), 2)))
    if cmd == "meld":
        return PanAction(Kind.MELD, tuple(_cards(rest, "meld")), drawn=hand.drawn is not None)
    if cmd == "lay":
        if not 1 <= len(args) <= 2:
            raise CommandError("lay MELD [CARD], e.g. lay 0 or lay 1 4c")
        if len(args) == 1:
            return PanAction(Kind.LAY_OFF, meld=_meld_number(args[0]), drawn=True)
        return PanAction(Kind.LAY_OFF, (parse_card(args[1]),), meld=_meld_number(args[0]))
    if cmd == "borrow":
        if not args:
            raise CommandError("borrow MELD CARDS [/ HAND], e.g. borrow 0 4c / 4s")
        borrowed, _, own = " ".join(args[1:]).partition("/")
        return PanAction(Kind.BORROW, tuple(parse_cards(own)), meld=_meld_number(args[0]),
                         borrowed=tuple(_cards(borrowed, "borrow")),
                         drawn=hand.drawn is not None)
    if cmd == "split":
        if len(args) < 2:
            raise CommandError("split MELD CARDS, e.g. split 0 Ac 2c 3c")
        return PanAction(Kind.SPLIT, meld=_meld_number(args[0]),
                         borrowed=tuple(_cards(" ".join(args[1:]), "split")))
    if cmd == "discard":
        card = _cards(rest, "discard")[0] if rest else hand.drawn
        if card is None:
            raise CommandError("discard CARD: name the card (no drawn card is up)")
        return PanAction(Kind.DISCARD, (card,))
    if cmd == "force":
        if len(args) == 2 and args[0] == "option" and args[1] in ("use", "continue"):
            return PanAction(Kind.FORCE_OPTION, use=args[1] == "use")
        if len(args) == 2 and args[0] == "back":
            return PanAction(Kind.FORCE_BACK, seat=_seat_number(args[1], hand))
        raise CommandError("force option use, force option continue, or force back SEAT")
    if cmd == "foul":
        if len(args) == 1:
            return PanAction(Kind.CALL_FOUL, seat=_seat_number(args[0], hand))
        raise CommandError("foul SEAT or foul self")
    raise CommandError(f"unknown command {cmd!r}: type help")


def _json_cards(data: Mapping[str, Any], key: str) -> tuple[Card, ...]:
    raw = data.get(key, [])
    if not isinstance(raw, list) or len(raw) > 20 or not all(isinstance(c, str) for c in raw):
        raise CommandError("the action names its cards badly: choose the cards again")
    try:
        return tuple(parse_card(c) for c in raw)
    except CardParseError:
        raise CommandError("the action names a card that is not a card: choose the cards "
                           "again") from None


def _json_number(data: Mapping[str, Any], key: str) -> int | None:
    v = data.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 100:
        raise CommandError("the action names a spread or a seat that is not there")
    return v


def action_from_json(data: object) -> PanAction:
    """A typed action as the page sends it (`PanAction.to_json`'s fields); what cannot be read
    raises `CommandError` in plain words."""
    if not isinstance(data, Mapping):
        raise CommandError("the action could not be read: choose it again")
    try:
        kind = Kind(str(data.get("kind")))
    except ValueError:
        raise CommandError("that is not a Pan action") from None
    use = data.get("use")
    if use is not None and not isinstance(use, bool):
        raise CommandError("the action could not be read: choose it again")
    raw = data.get("payments", [])
    if not isinstance(raw, list) or len(raw) > 10 or not all(
            isinstance(p, list) and len(p) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 10_000 for x in p)
            for p in raw):
        raise CommandError("a settlement names each foul hand and the whole chips it pays")
    return PanAction(kind, _json_cards(data, "cards"), meld=_json_number(data, "meld"),
                     borrowed=_json_cards(data, "borrowed"), seat=_json_number(data, "seat"),
                     use=use, drawn=data.get("drawn") is True,
                     payments=tuple((p[0], p[1]) for p in raw))


def _need(value: int | None, what: str) -> int:
    if value is None:
        raise CommandError(f"the action does not say {what}")
    return value


def apply_action(hand: PanHand, me: int, a: PanAction) -> None:
    """Apply one typed action for seat `me`; a bad action raises and changes nothing. A
    settlement is made as offered (the foul hands' agreement is the table's to ask:
    `driver.PanTable.act`)."""
    name, args = engine_call(hand, me, a)
    getattr(hand, name)(*args)


SIMPLE: dict[Kind, str] = {
    Kind.OFFER_SPLIT: "offer_split", Kind.ACCEPT_SPLIT: "accept_split",
    Kind.DECLINE_SPLIT: "decline_split", Kind.FACE_UP: "play_face_up", Kind.KNOCK: "knock",
    Kind.CHANGE: "change_declaration", Kind.DRAW: "draw", Kind.TAKE_TOPS: "take_tops",
    Kind.TAKE: "take", Kind.COLLECT: "collect", Kind.GO_OUT: "go_out",
    Kind.FOUL_SELF: "declare_own_foul"}
"""The actions that need nothing but the seat: the hand's ``@action`` each one calls."""


def engine_call(hand: PanHand, me: int, a: PanAction) -> tuple[str, tuple[Any, ...]]:
    """The hand's ``@action`` a typed action of seat `me` calls, and its positional
    arguments (the engine protocol's `cardroom.engine.Action`); raises `CommandError` for
    one that says too little."""
    k, use_drawn = a.kind, hand.drawn is not None
    if k in SIMPLE:
        return SIMPLE[k], (me,)
    if k in (Kind.PLAY, Kind.PASS):
        return "declare", (me, k is Kind.PLAY)
    if k is Kind.SETTLE:
        return "settle", (me, dict(a.payments))
    if k is Kind.MELD:
        return "meld", (me, a.cards, use_drawn)
    if k is Kind.LAY_OFF:
        return "lay_off", (me, _need(a.meld, "which spread"),
                           None if a.drawn or not a.cards else a.cards[0])
    if k is Kind.BORROW:
        return "borrow", (me, _need(a.meld, "which spread"), a.borrowed, a.cards, use_drawn)
    if k is Kind.SPLIT:
        return "split", (me, _need(a.meld, "which spread"), a.borrowed)
    if k is Kind.DISCARD:
        card = a.cards[0] if a.cards else hand.drawn
        if card is None:
            raise CommandError("choose the card to discard")
        return "discard", (me, card)
    if k is Kind.FORCE_OPTION:
        return "force_option_card", (me, a.use is True)
    if k is Kind.FORCE_BACK:
        return "force_back", (me, _need(a.seat, "on whom"))
    if k is Kind.CALL_FOUL:
        return "call_foul", (me, _need(a.seat, "whose hand"))
    # the settlement's answers: only a table keeps an offer open (`driver.PanTable`)
    raise CommandError("no settlement offer waits for your answer")
