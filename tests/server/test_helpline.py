"""WAC 230-06-068 (compliance.md): a problem-gambling message with the helpline, 1-800-GAMBLER,
"where patrons gamble and where cash is available": the lobby, every table page, the cashier
and the cage, and the posted rules. The number and the section are the digest's, not read
from the code; the message travels in the room's regulatory profile."""

from __future__ import annotations

import re

from room.rooms import playing_table

from cardroom.profile import helpline, load_profile
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room

from .forms import PW, logged_in, setup_table

GAMES = ("baccarat", "super-pan-9", "pai-gow", "pan")


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_wac_230_06_068_the_state_profile_carries_the_helpline() -> None:
    cap = load_profile("washington").problem_gambling
    assert cap.section == "WAC 230-06-068"
    assert helpline().number == "1-800-GAMBLER"


def test_wac_230_06_068_every_page_where_patrons_gamble_or_get_cash_shows_the_helpline(
        room: Room) -> None:
    """A player's lobby, each game's table page and its posted rules, the cashier; a
    cashier's cage: each page shows the message and the number as a link to call."""
    made = setup_table(room)
    owner = made["people"]["olivia"]
    tables = [made["table"]] + [playing_table(room, owner, f"{g} 1", g).table_id
                                for g in GAMES[1:]]
    with room.storage.unit() as conn:
        create_account(conn, "carl", PW, Role.CASHIER)
    alice, carl = logged_in(room, "alice"), logged_in(room, "carl")
    pages = [(alice, "/lobby"), (alice, "/cashier"), (carl, "/cage")]
    pages += [(alice, f"/tables/{t}") for t in tables]
    pages += [(alice, f"/tables/{t}/rules") for t in tables]
    for client, path in pages:
        r = client.get(path)
        assert r.status_code == 200, path
        assert "Gambling problem? Call the Problem Gambling Helpline: 1-800-GAMBLER" in \
            text_of(r.text), path
        assert 'href="tel:1-800-GAMBLER"' in r.text, path
