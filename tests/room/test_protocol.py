"""The table protocol as types (issue 11, docs/protocol.md): every client message is read
through its game's model before the table sees it, a malformed one is refused in one plain
sentence and changes nothing, and every snapshot a table sends matches its game's documented
model, at every stage of a hand. The JSON Schema files in docs/protocol/ are the generated
ones."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.play import protocol
from cardroom.room.play.messages import MalformedMessage, message_text
from cardroom.room.play.protocol_state import check_state
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .people import player
from .rooms import playing_table
from .storage_fixture import migrated_engine

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol"
FIELD_NAMES = re.compile(r"\b(buy_in|seq|house_way|raise_condition|cents)\b|[{}\"_]")


@pytest.fixture
def room(tmp_path: Path) -> Room:
    """SQLite only: the protocol does not depend on the database."""
    engine = migrated_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    r = Room(Storage(engine), SeededRandom(5))
    r.start()
    return r


def people(room: Room) -> dict[str, Account]:
    with room.storage.unit() as conn:
        cast = {"olivia": create_account(conn, "olivia", "correct horse", Role.OWNER),
                "alice": player(conn, "alice", "correct horse"),
                "bob": player(conn, "bob", "correct horse")}
        for name in ("alice", "bob"):
            buy_chips(conn, SELF_SERVICE, cast[name], 100_000, f"chips-{name}")
    return cast


def refused(game: str, msg: dict[str, Any]) -> str:
    with pytest.raises(MalformedMessage) as caught:
        protocol.read(game, msg)
    return str(caught.value).removeprefix("the table could not read that request: ")


# inbound ----------------------------------------------------------------------------------
GOOD: list[tuple[str, dict[str, Any]]] = [
    ("baccarat", {"type": "sit", "buy_in": 20_000, "key": "s"}),
    ("baccarat", {"type": "bet", "bets": {"banker": 1_000, "Dealer-9": 100}, "key": "b"}),
    ("baccarat", {"type": "leave", "key": "l"}),
    ("baccarat", {"type": "void", "by": "floor", "reason": "cards dropped"}),
    ("super-pan-9", {"type": "bet", "bets": {"wager": 1_000, "tie": 100}, "key": "b"}),
    ("super-pan-9", {"type": "draw", "seat": 2}),
    ("super-pan-9", {"type": "irregularity", "kind": "misdeal", "reason": "two cards"}),
    ("pai-gow", {"type": "bet", "bets": {"wager": 500}, "key": "b"}),
    ("pai-gow", {"type": "set", "spot": 1, "front": ["As", "Kd"]}),
    ("pai-gow", {"type": "house_way"}),
    ("pai-gow", {"type": "dragon", "amount": 500, "key": "d"}),
    ("pai-gow", {"type": "irregularity", "kind": "exposed-card", "spot": 2, "card": "Ah",
                 "reason": "dealer flashed it"}),
    ("pan", {"type": "sit", "buy_in": 4_000, "doubles": True, "key": "a"}),
    ("pan", {"type": "pan", "command": "play", "seq": 3}),
    ("pan", {"type": "bot", "key": "b"}),
    ("pan", {"type": "raise_condition"}),
]


@pytest.mark.parametrize(("game", "msg"), GOOD)
def test_every_message_the_pages_and_tests_send_reads_as_its_model(
        game: str, msg: dict[str, Any]) -> None:
    read = protocol.read(game, msg)
    assert read is not None and read.model_dump()["type"] == msg["type"]


@pytest.mark.parametrize(("game", "msg", "said"), [
    ("baccarat", {"type": "sit", "buy_in": "lots", "key": "k"},
     "the buy-in is not an amount of money"),
    ("baccarat", {"type": "sit", "buy_in": True, "key": "k"},
     "the buy-in is not an amount of money"),
    ("baccarat", {"type": "sit", "buy_in": 1.5, "key": "k"},
     "the buy-in is not an amount of money"),
    ("baccarat", {"type": "sit", "buy_in": 100, "key": " "},
     "the request's reference must be a text of 1 to 100 characters"),
    ("baccarat", {"type": "leave", "key": "k" * 101},
     "the request's reference must be a text of 1 to 100 characters"),
    ("baccarat", {"type": "bet", "bets": [1_000], "key": "k"},
     "the bets must name each wager with its amount"),
    ("baccarat", {"type": "bet", "bets": {}, "key": "k"},
     "the bets must name each wager with its amount"),
    ("baccarat", {"type": "bet", "bets": {"banker": "1000"}, "key": "k"},
     "a bet is not an amount of money"),
    ("baccarat", {"type": "void", "reason": ""},
     "the reason must be a text of 1 to 400 characters"),
    ("super-pan-9", {"type": "bet", "bets": {"tie": "x"}, "key": "k"},
     "the bets must be a wager, with or without a Tie Bet"),
    ("super-pan-9", {"type": "bet", "bets": {"wager": 500, "dragon": 5}, "key": "k"},
     "the bets must be a wager, with or without a Tie Bet"),
    ("super-pan-9", {"type": "bet", "bets": {"wager": 500, "tie": None}, "key": "k"},
     "the Tie Bet is not an amount of money"),
    ("super-pan-9", {"type": "irregularity", "kind": "fire", "reason": "x"},
     "the irregularity must be one of: misdeal, exposed-card, wrong-card-count"),
    ("super-pan-9", {"type": "irregularity", "kind": "misdeal", "seat": "1", "reason": "x"},
     "choose a seat by its number"),
    ("pai-gow", {"type": "bet", "bets": {"wager": 500, "tie": 5}, "key": "k"},
     "the bet must be one amount, on the wager"),
    ("pai-gow", {"type": "set", "front": "As Kd"}, "the front hand must be two cards"),
    ("pai-gow", {"type": "house_way", "spot": True}, "choose a spot by its number"),
    ("pai-gow", {"type": "dragon", "amount": -0.0, "key": "k"},
     "the dragon hand's wager is not an amount of money"),
    ("pai-gow", {"type": "irregularity", "kind": "misdeal", "reason": "x" * 201},
     "the reason must be a short text"),
    ("pan", {"type": "sit", "buy_in": 2_000, "doubles": "yes", "key": "k"},
     "the choice of double condition must be yes or no"),
    ("pan", {"type": "pan", "command": "play", "seq": "3"},
     "it does not say which moment of the game it answers"),
    ("pan", {"type": "pan", "command": "", "seq": 3},
     "the Pan command must be a text of 1 to 200 characters"),
])
def test_a_malformed_message_is_refused_in_a_plain_sentence(
        game: str, msg: dict[str, Any], said: str) -> None:
    """The sentence names what was wrong in words ("the buy-in"), never the field."""
    sentence = refused(game, msg)
    assert sentence == said
    assert FIELD_NAMES.search(sentence) is None


def test_a_type_the_game_does_not_know_goes_to_the_table() -> None:
    """The table answers it ("unknown action", or Pan's "Pan has no wagers")."""
    assert protocol.read("baccarat", {"type": "draw"}) is None
    assert protocol.read("pan", {"type": "bet", "bets": 5}) is None


def test_a_malformed_message_to_a_table_changes_nothing(room: Room) -> None:
    cast = people(room)
    t = playing_table(room, cast["olivia"], "Mini", "baccarat").table_id
    room.act(cast["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    before = room.table(t).snapshot(cast["alice"])
    with pytest.raises(MalformedMessage, match="a bet is not an amount of money"):
        room.act(cast["alice"], t, {"type": "bet", "bets": {"banker": 10.5}, "key": "b"})
    assert room.table(t).snapshot(cast["alice"]) == before


# outbound ---------------------------------------------------------------------------------
def play_a_hand(room: Room, game: str, cast: dict[str, Account]) -> list[dict[str, Any]]:
    """Snapshots (for a seated player, another one, the owner, nobody) at every stage of a
    hand of `game`: empty table, seated, wagers down, in play, settled."""
    alice, bob, owner = cast["alice"], cast["bob"], cast["olivia"]
    t = playing_table(room, owner, game.title(), game).table_id
    live = room.table(t)
    seen: list[dict[str, Any]] = []

    def look() -> None:
        seen.extend(live.snapshot(v) for v in (alice, bob, owner, None))

    look()
    buy_in = 2_000 if game == "pan" else 20_000
    for p in (alice, bob):
        room.act(p, t, {"type": "sit", "buy_in": buy_in, "key": "s"})
    look()
    if game != "pan":
        bets = {"banker": 1_000} if game == "baccarat" else {"wager": 1_000}
        for p in (alice, bob):
            room.act(p, t, {"type": "bet", "bets": bets, "key": "b"})
        look()
    room.act(alice, t, {"type": "deal"})
    look()
    for _ in range(20):  # play the hand out where the game has decisions
        if live.hand_id is None:
            break
        if game == "super-pan-9":
            room.act(owner, t, {"type": "stand"})
        elif game == "pai-gow":
            for p in (alice, bob):
                room.act(p, t, {"type": "house_way"})
        else:
            break
        look()
    return seen


@pytest.mark.parametrize("game", ["baccarat", "super-pan-9", "pai-gow", "pan"])
def test_every_snapshot_matches_its_games_model(room: Room, game: str) -> None:
    snapshots = play_a_hand(room, game, people(room))
    assert any(s["last"] for s in snapshots) or game == "pan"
    for snapshot in snapshots:
        state = check_state(snapshot)
        assert state.game == game
        assert state.model_dump(exclude_unset=True) == snapshot


def test_a_snapshot_with_a_key_the_protocol_does_not_name_fails() -> None:
    """The models forbid keys they do not name: a key a table adds must be documented."""
    snapshot = {"type": "state", "game": "baccarat", "table": {"id": 1, "name": "Mini"},
                "hand": {"id": None, "open": False},
                "you": {"seated": False, "may_deal": False, "may_void": False},
                "last": None, "limits": {"table_min": 500, "table_max": 500_000,
                                         "tie_min": 100, "tie_max": 50_000,
                                         "bonus_min": 100, "bonus_max": 10_000,
                                         "jackpot_wager": None, "tie_pays": 8,
                                         "commission": "1/20", "smallest_chip": 25},
                "jackpot": None, "seats": [], "shoe": {"remaining": None, "commitment": None},
                "road": []}
    check_state(snapshot)
    with pytest.raises(ValidationError):
        check_state({**snapshot, "deck_order": []})


# the published schema ---------------------------------------------------------------------
def test_the_committed_schema_files_are_the_generated_ones() -> None:
    """Run `scripts/protocol_schema.py` after changing a protocol model."""
    files = protocol.schema_files()
    assert sorted(p.name for p in DOCS.glob("*.json")) == sorted(files)
    for name, text in files.items():
        assert (DOCS / name).read_text() == text, f"docs/protocol/{name} is out of date"


def test_a_message_s_text_reads_back_as_the_standard_library_writes_it() -> None:
    """`message_text` (orjson, issue 25) writes compact JSON that a client reads as it read
    `json.dumps`'s: a key that is not text written as text, a name in any script kept, a
    nested update whole."""
    data = {"type": "state", "stacks": {7: 19_500, 12: 0}, "name": "Zoë Ōtani 王",
            "seats": [{"seat": 1, "you": True, "cards": ["9h", "Kd"]}, None], "pot": -5}
    text = message_text(data)
    assert json.loads(text) == json.loads(json.dumps(data))
    assert " " not in text.replace("Zoë Ōtani 王", "")
