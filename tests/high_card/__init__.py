"""High Card, a toy game registered by a test (issue 24): its engine (`engine`), replay
adapter (`replay`), live table, snapshot model, messages and posted rules (`live`) and its
conformance adapter (`conformance`), all in this one folder; `GAME` is its registry entry,
which `cardroom.registry.registered` adds while a test runs."""

from cardroom.registry import Game

GAME = Game("high-card", "High Card", "high_card.engine:HighCardRules", "high_card.replay:Replay",
            "high_card.live:HighCardLive", "high_card.live:sections")
