"""A seeded generator of malformed and hostile table messages, for the fuzz figure.

Each message is a WebSocket frame a client could send: binary frames, texts that are not JSON
(NaN, truncated, garbage), texts over the size limit, nesting far beyond the protocol's, JSON
that is not an object, unknown or missing types, and every action of every game with wrong
types, negative, zero or huge amounts, unknown wagers, bad cards and spots, bad or missing
keys, and Pan decisions with a stale, future or malformed `seq`. None of them is a request a
player could have made in good faith, so each must be refused (or, where a table has nothing
to refuse, answered) and must change nothing.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from cardroom.server.frames import MAX_MESSAGE_BYTES

TYPES = ["sit", "leave", "bet", "deal", "void", "bank", "dragon", "set", "house_way",
         "draw", "stand", "irregularity", "pan", "bot"]
JUNK_TYPES = ["", "SIT", "Bet", "__proto__", "constructor", "state", "error", "bet ",
              "x" * 300, "déal", "null"]
NUMBERS: list[Any] = [-1, -100, -10**6, -2**31, -2**63 - 1, 2**31, 2**63, 10**30, 10**400,
                      1.5, 1e308, -0.0, "100", "", None, True, False, [], {}, [1000],
                      {"cents": 1000}]
TEXTS: list[Any] = ["", " ", "\x00", "\u202e", "'; DROP TABLE ledger_entries; --",
                    "<script>alert(1)</script>", "x" * 101, "x" * 401, 7, None, [], {"k": 1},
                    True, "../../etc/passwd", "%s%s%n"]
WAGERS = ["banker", "player", "tie", "wager", "progressive", "dragon", "BANKER", "bank",
          "__class__", "", "pair", "jackpot"]
CARDS: list[Any] = ["As", "Kd", "JK", "Zz", "10h", "", "AsKd", 51, None, "as", "A♠"]
PAN_COMMANDS = ["", " ", "meld", "meld 3c 4c 5c", "meld Zz Zz Zz", "discard", "discard Qx",
                "knock knock", "force back 99", "force back -1", "foul 0", "foul self self",
                "lay 3c on 99", "borrow", "split 1 2 3", "collect all", "out now",
                "take 2**63", "draw " * 100, "play; pass", "\n", "pass\x00"]


@dataclass
class Hostile:
    """A seeded stream of hostile frames; `seq` is the table's current Pan counter."""

    rng: random.Random

    def frame(self, seq: int | None = None) -> str | bytes:
        """A binary frame (bytes) or a text frame."""
        roll = self.rng.random()
        if roll < 0.06:
            return self.rng.randbytes(self.rng.choice([0, 1, 16, 5000]))
        if roll < 0.12:
            return self._not_json()
        if roll < 0.16:
            depth = self.rng.choice([7, 50, 2_000, 100_000])
            return ("[" * depth + "]" * depth)[: MAX_MESSAGE_BYTES * 3]
        if roll < 0.20:
            return json.dumps({"type": "bet", "key": "k",
                               "pad": "x" * self.rng.choice([MAX_MESSAGE_BYTES, 20_000])})
        if roll < 0.26:
            return json.dumps(self.rng.choice([[], [1, 2], 3, "bet", None, True,
                                               [{"type": "deal"}]]))
        return json.dumps(self.message(seq))

    def _not_json(self) -> str:
        return self.rng.choice([
            "{not json", '{"type":"sit","buy_in":NaN,"key":"k"}', '{"type":"bet"',
            '{"type":"bet","bets":{"banker":Infinity},"key":"k"}', "", " ", "undefined",
            '{"type":"deal"}}', "9" * 5000, '{"a":' * 10 + "1" + "}" * 9])

    def message(self, seq: int | None) -> dict[str, Any]:
        rng = self.rng
        kind = rng.choice(TYPES) if rng.random() < 0.85 else rng.choice(JUNK_TYPES)
        msg: dict[str, Any] = {"type": kind}
        if rng.random() < 0.05:
            msg = {"typ": kind} if rng.random() < 0.5 else {"type": rng.choice(NUMBERS)}
        fields = {
            "buy_in": lambda: rng.choice(NUMBERS),
            "bets": self._bets,
            "key": self._key,
            "reason": lambda: rng.choice(TEXTS),
            "amount": lambda: rng.choice(NUMBERS),
            "spot": lambda: rng.choice([-1, 0, 7, 99, 2**63, "1", None, 1.0, True]),
            "seat": lambda: rng.choice([-1, 0, 16, 99, 2**63, "1", None, True]),
            "front": lambda: [rng.choice(CARDS) for _ in range(rng.choice([0, 1, 2, 3, 7]))],
            "card": lambda: rng.choice(CARDS),
            "count": lambda: rng.choice(NUMBERS),
            "kind": lambda: rng.choice(["misdeal", "exposed-card", "", "fire", 3, None]),
            "command": lambda: rng.choice(PAN_COMMANDS + TEXTS),
            "seq": lambda: self._seq(seq),
        }
        for name, make in fields.items():
            if rng.random() < (0.9 if name == "key" else 0.35):
                msg[name] = make()
        if kind == "pan":  # a real decision word, but never with the current seq
            msg["command"] = rng.choice(["pass", "play", "draw", "knock", "take"])
            msg["seq"] = self._stale(seq)
        return msg

    def _bets(self) -> Any:
        rng = self.rng
        if rng.random() < 0.2:
            return rng.choice(NUMBERS + TEXTS)
        return {rng.choice(WAGERS): rng.choice(NUMBERS) for _ in range(rng.choice([0, 1, 2, 4]))}

    def _key(self) -> Any:
        return self.rng.choice(["", " ", "k" * 101, 7, None, [], {"k": "v"}, True, "\x00" * 200])

    def _seq(self, seq: int | None) -> Any:
        return self.rng.choice([self._stale(seq), "1", None, 1.5, [], True])

    def _stale(self, seq: int | None) -> int:
        now = seq or 0
        return self.rng.choice([now - 1, now + 1, now + 1000, -1, 2**63, -2**63 - 1])
