"""Hidden information (docs/security.md, Hidden information): nothing a person can read through
the room tells the order of a card not yet seen, in any game.

A reader collects, hand after hand, everything the room lets people read: the hand record
(the recall page; the `history.json` export is a part of it), the table snapshots of a player,
of the floor and of someone watching, the open hand's record while it is in play, and the
audit log as the auditor reads it. Every run of cards in
it (a list of cards, or the cards written in a text such as ``meld 3c 4c 5c``) is kept, read
forwards and backwards. Then, at every deal, the order the shoe or pack really holds from that
deal on (the cards the deal takes and every card after them: the rest of a baccarat or Super
Pan 9 shoe, the whole Pan pack, the Pai Gow deck) is compared with it: a card is predictable
when the run of `RUN` cards starting at it was readable before the deal. During a hand the
same is asked of the cards still unseen (a Super Pan 9 shoe's rest, the Pan stock, a Pai Gow
deck). A shoe's salt may be read only once the shoe is out of play.

Figure (issue 9): zero predictable cards, for every game, over 1,000 hands each; the Pan table
plays the packet reshuffle (the unused stock stays on top of the next pack: the case that
leaked). A run of 8 cards in the same order comes up by chance about once in 40**8.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.cards import JOKER, STANDARD_RANKS, Card, Suit
from cardroom.engine import history_pack
from cardroom.history import FORMAT, HIDDEN_CARD
from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import hands
from cardroom.room.people.accounts import Account, Role
from cardroom.room.play.baccarat_live import BaccaratLive
from cardroom.room.play.live_table import card_json
from cardroom.room.play.pai_gow_live import PaiGowLive
from cardroom.room.play.pan_live import PanLive
from cardroom.room.play.recall import history_of
from cardroom.room.play.super_pan_9_live import SuperPan9Live
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, open_database
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom, Shoe, ShoeSpec, verify_commitment

from .people import person
from .rooms import playing_table

HANDS = 1000
RUN = 8
PAN_PLAYED_HANDS = 3
"""Pan hands with a person at the table (mid-hand views checked after each decision); the
rest are bots only, dealt by the floor, which keeps the figure fast."""
TEXT: dict[Card | str, str] = {c: str(c) for c in [
    *(Card(r, s) for r in STANDARD_RANKS for s in Suit), JOKER]}
CARD_TEXTS = frozenset(TEXT.values())
WORD = re.compile(r"[A-Za-z0-9?]+")
PW = "seven unseen cards in a row"


# ----- the reader -------------------------------------------------------------------------


def card_runs(text: str) -> Iterator[list[str]]:
    """Every run of cards in a document's JSON text: cards one after the other, whether a
    list of card texts, cards as the page draws them (``{"code": 5, "text": "2d"}``: the
    keys and numbers between cards are skipped) or the words of a text (``meld 3c 4c``)."""
    run: list[str] = []
    for word in WORD.findall(text):
        if word in CARD_TEXTS:
            run.append(word)
        elif word not in ("code", "text") and not word.isdigit() and run:
            yield run
            run = []
    if run:
        yield run


def windows(cards: Sequence[str]) -> Iterator[int]:
    for i in range(len(cards) - RUN + 1):
        yield hash(tuple(cards[i:i + RUN]))


@dataclass
class Reader:
    """What people have read so far, as every run of `RUN` cards (both ways)."""

    seen: set[int] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)  # this hand's documents, for the salts
    audit_seq: int = 0

    def read(self, doc: Any) -> None:
        text = json.dumps(doc)
        self.texts.append(text)
        for run in card_runs(text):
            self.seen.update(windows(run))
            self.seen.update(windows(run[::-1]))

    def predictable(self, order: Sequence[Card | str]) -> int:
        """How many cards of `order` (the real order, next card first) a reader could name."""
        return sum(w in self.seen for w in windows([TEXT.get(c) or str(c) for c in order]))


@dataclass
class Figure:
    hands: int = 0
    checked: int = 0  # cards whose order was checked, counted at each check
    predictable: int = 0
    retired: int = 0  # shoes published once out of play, checked against their commitment

    def check(self, reader: Reader, order: Sequence[Card | str]) -> None:
        self.checked += len(order)
        self.predictable += reader.predictable(order)


# ----- the room ---------------------------------------------------------------------------


@dataclass
class Table:
    room: Room
    people: dict[str, Account]
    table_id: int
    reader: Reader = field(default_factory=Reader)
    figure: Figure = field(default_factory=Figure)
    published: set[str] = field(default_factory=set)  # shoe commitments shown at the table

    @property
    def live(self) -> Any:
        return self.room.table(self.table_id)

    def act(self, who: str, msg: dict[str, Any]) -> None:
        self.room.act(self.people[who], self.table_id, msg)

    def read_views(self) -> None:
        """Every kind of viewer's snapshot: the players, the staff, someone watching."""
        for who in ("alice", "fred", None):
            snap = self.live.snapshot(self.people[who] if who else None)
            self.reader.read(snap)
            if (snap.get("shoe") or {}).get("commitment"):
                self.published.add(snap["shoe"]["commitment"])

    def read_records(self, hand_id: int) -> None:
        """The hand's record (what the recall page shows its players and the auditor; the
        replay report beside it is worked out from it; history.json is a part of it), and
        the audit log as the auditor reads it."""
        with self.room.storage.read() as conn:
            record = hands.hand_record(conn, hand_id)
            self.reader.read(record)
            if record.get("format") == FORMAT:  # history.json: the record's shared part
                assert history_of(record).to_json().items() <= record.items()
            retired = ((record.get("setup") or {}).get("shoe") or {}).get("retired")
            if retired is not None:  # a shoe out of play, published: it keeps its promise
                assert retired["commitment"] in self.published
                assert verify_commitment(retired["commitment"], retired["salt"],
                                         retired["order"])
                assert self.room.recall(self.people["audrey"], hand_id).ok  # still replays
                self.figure.retired += 1
            for e in audit.entries(conn, after=self.reader.audit_seq):
                self.reader.read(json.loads(e.detail))
                self.reader.audit_seq = e.seq

    def salts_kept(self, shoe: Shoe | None) -> None:
        """The salt of the shoe in play appears in nothing read during this hand."""
        if shoe is not None:
            assert not any(shoe.salt.hex() in t for t in self.reader.texts)
        self.reader.texts.clear()


def open_table(storage: Storage, game: str, rules: dict[str, Any] | None = None) -> Table:
    room = Room(storage, SeededRandom(9))
    room.start()
    with storage.unit() as conn:
        people = {name: person(conn, name, PW, role) for name, role in
                  [("olga", Role.OWNER), ("alice", Role.PLAYER),
                   ("fred", Role.FLOOR), ("audrey", Role.AUDITOR)]}
        buy_chips(conn, SELF_SERVICE, people["alice"], 10_000_000, "first")
    live = playing_table(room, people["olga"], f"{game} 1", game, rules)
    return Table(room, people, live.table_id)


def shoe_from(shoe: Shoe | None, before: tuple[Shoe | None, int]) -> list[Card]:
    """The shoe's order from the deal on: the rest of the old shoe, or a new shoe whole."""
    assert shoe is not None
    return shoe.order[before[1]:] if shoe is before[0] else list(shoe.order)


def baccarat_hand(t: Table, n: int, rng: random.Random) -> None:
    live: BaccaratLive = t.live
    t.act("alice", {"type": "bet", "bets": {rng.choice(["player", "banker", "tie"]): 500},
                    "key": f"b{n}"})
    e = live.engine
    before = (e.shoe, e.shoe.position if e.shoe else 0)
    hand_id = live.hand_id
    t.act("alice", {"type": "deal"})
    t.figure.check(t.reader, shoe_from(e.shoe, before))
    assert hand_id is not None
    t.read_views()
    t.read_records(hand_id)
    t.salts_kept(e.shoe)


def super_pan_9_hand(t: Table, n: int, rng: random.Random) -> None:
    live: SuperPan9Live = t.live
    t.act("alice", {"type": "bet", "bets": {"wager": 500}, "key": f"b{n}"})
    e = live.engine
    before = (e.shoe, e.shoe.position if e.shoe else 0)
    hand_id = live.hand_id
    assert hand_id is not None
    t.act("alice", {"type": "deal"})
    t.figure.check(t.reader, shoe_from(live.engine.shoe, before))
    while live.hand_id is not None:
        t.read_views()
        t.read_records(hand_id)
        shoe = live.engine.shoe
        t.figure.check(t.reader, shoe.order[shoe.position:])
        t.act("alice", {"type": rng.choice(["draw", "stand"])})
    t.read_views()
    t.read_records(hand_id)
    t.salts_kept(live.engine.shoe)


def pai_gow_hand(t: Table, n: int, rng: random.Random) -> None:
    live: PaiGowLive = t.live
    t.act("alice", {"type": "bet", "bets": {"wager": 500}, "key": f"b{n}"})
    hand_id = live.hand_id
    assert hand_id is not None
    t.act("alice", {"type": "deal"})
    deck = history_pack(live.engine.events)  # the shuffled deck, as the history keeps it
    t.figure.check(t.reader, deck)
    t.read_views()
    t.read_records(hand_id)
    t.figure.check(t.reader, deck)
    for spot in live.snapshot(t.people["alice"])["you"]["to_set"]:
        t.act("alice", {"type": "house_way", "spot": spot})
    assert live.hand_id is None
    t.read_views()
    t.read_records(hand_id)
    t.salts_kept(None)


def pan_unseen_stock(live: PanLive) -> list[Card]:
    hand = live.engine.hand
    assert hand is not None
    return [c for c, o in zip(hand.stock, hand.stock_origin, strict=True)
            if o is not None][::-1]


def pan_hand(t: Table, n: int, rng: random.Random) -> None:
    """Bots fill the table (fred of the floor seats them) and he deals; in the first hands
    alice plays too, and the views are read after each of her decisions."""
    live: PanLive = t.live
    if n == 0:
        t.act("alice", {"type": "sit", "buy_in": 100 * live.chip, "key": "sit"})
    if n == PAN_PLAYED_HANDS:
        t.act("alice", {"type": "leave", "key": "leave"})
    for k in range(2 - len(live.engine.bots)):
        t.act("fred", {"type": "bot", "key": f"bot{n}-{k}"})
    t.act("fred", {"type": "deal"})
    hand = live.engine.hand
    assert hand is not None and live.hand_number == n + 1
    t.figure.check(t.reader, hand.pack)  # the whole pack of this deal
    hand_id = live.hand_id if live.hand_id is not None else live.last.hand
    while live.hand_id is not None:
        t.read_views()
        t.read_records(hand_id)
        t.figure.check(t.reader, pan_unseen_stock(live))
        legal = live.snapshot(t.people["alice"])["play"]["legal"]
        mine = [c for c in legal if not c.startswith(("force", "foul"))] or legal
        command = next((c for c in ("play", "draw") if c in mine), None) or next(
            (c for c in mine if c.startswith(("meld", "discard"))), mine[0])
        t.act("alice", {"type": "pan", "command": command, "seq": live.seq})
    t.read_views()
    t.read_records(hand_id)
    assert live.engine.next_pack is not None
    t.figure.check(t.reader, live.engine.next_pack)
    t.salts_kept(None)


GAMES: dict[str, tuple[Callable[[Table, int, random.Random], None], dict[str, Any] | None,
                       list[str]]] = {
    "baccarat": (baccarat_hand, None, ["alice"]),
    "super-pan-9": (super_pan_9_hand, None, ["alice"]),
    "pai-gow": (pai_gow_hand, None, ["alice"]),
    "pan": (pan_hand, {"reshuffle": "packet"}, []),
}


def test_no_record_lets_anyone_predict_an_unseen_card_over_1000_hands_of_every_game(
        tmp_path: Any) -> None:
    """Issue 9, Hidden information: zero cards predictable from anything a person can read,
    baccarat, Super Pan 9, Pai Gow and Pan, 1,000 hands each."""
    # the reader sees a leak in any form: the real order, once read, is all predictable
    order = Shoe.shuffled(ShoeSpec(8), 0, SeededRandom(1)).order
    for form in ([str(c) for c in order], [card_json(c) for c in order],
                 " ".join(str(c) for c in order)):
        planted = Reader()
        planted.read({"pack": form})
        assert planted.predictable(order) == len(order) - RUN + 1
    figures: dict[str, Figure] = {}
    for game, (play, rules, seated) in GAMES.items():
        storage = open_database(f"sqlite:///{tmp_path / game}.sqlite3")
        t = open_table(storage, game, rules)
        for who in seated:
            t.act(who, {"type": "sit", "buy_in": 5_000_000, "key": "sit"})
        rng = random.Random(game)
        for n in range(HANDS):
            play(t, n, rng)
            t.figure.hands += 1
        figures[game] = t.figure
    report = {g: (f.hands, f.checked, f.predictable, f.retired) for g, f in figures.items()}
    print("hidden information (hands, cards checked, predictable, shoes published):", report)
    assert all(f.hands == HANDS and f.checked > 0 for f in figures.values()), report
    assert all(f.predictable == 0 for f in figures.values()), report
    assert figures["baccarat"].retired > 0 and figures["super-pan-9"].retired > 0, report


def test_a_pan_players_history_json_does_not_tell_the_next_deal(tmp_path: Any) -> None:
    """The case of issue 9: with the packet reshuffle the stock left by a hand is the top of
    the next pack, in order. A player recalls her hand; its history.json (what
    `/hands/N/history.json` sends the staff) names the cards dealt and drawn, hides the rest, and
    no card of the next pack can be named from it, though the real pack would name most."""
    t = open_table(open_database(f"sqlite:///{tmp_path / 'pan'}.sqlite3"), "pan",
                   {"reshuffle": "packet"})
    pan_hand(t, 0, random.Random(0))
    live: PanLive = t.live
    hand, next_pack = live.engine.hand, live.engine.next_pack
    assert hand is not None and next_pack is not None
    replay = t.room.recall(t.people["alice"], live.last.hand if live.last else 0)
    assert replay.ok
    doc = history_of(replay.record).to_json()
    unseen = sum(o is not None for o in hand.stock_origin)
    assert doc["pack"].count(HIDDEN_CARD) == unseen > 100
    mine = Reader()
    mine.read(doc)
    assert mine.predictable(next_pack) == 0
    whole = Reader()
    whole.read([str(c) for c in hand.pack])
    assert whole.predictable(next_pack) > 100  # what the old history let her foretell
