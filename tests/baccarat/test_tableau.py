"""The third-card rules, one test per cell of the document's table
(../shared/rules/mini-baccarat.txt, "Third Card Rules")."""

from __future__ import annotations

import csv

import pytest
from fixture_files import FIXTURES

from cardroom.errors import RulesError
from cardroom.games.baccarat.tableau import PLAYER_STOOD, standard_tableau, tableau_from_dict

CELLS = list(csv.DictReader((FIXTURES / "baccarat" / "tableau_cells.csv").open()))


@pytest.mark.parametrize(
    "cell", CELLS, ids=lambda c: f"bank{c['banker_total']}-p3{c['player_third']}")
def test_mini_baccarat_third_card_rules_banker_cell(cell: dict[str, str]) -> None:
    """Mini-Baccarat "Third Card Rules": the banker's draw for each two-card total and each
    player third card (or the player standing), as the document's table states it."""
    tab = standard_tableau()
    third = None if cell["player_third"] == "stood" else int(cell["player_third"])
    assert tab.banker_draws(int(cell["banker_total"]), third) is (cell["banker_draws"] == "yes"), \
        cell["clause"]


@pytest.mark.parametrize("total", range(10))
def test_mini_baccarat_third_card_rules_player(total: int) -> None:
    """"0 - 5 Player hand must draw; 6 - 7 Player hand must stand; 8 - 9 'Natural'"."""
    tab = standard_tableau()
    assert tab.player_draws(total) is (total <= 5)
    assert tab.is_natural(total) is (total >= 8)


def test_kernel_arrays_agree_with_the_rule_functions() -> None:
    tab = standard_tableau()
    bm, pm = tab.banker_matrix(), tab.player_matrix()
    for b in range(10):
        assert pm[b] == tab.player_draws(b)
        assert bm[b, PLAYER_STOOD] == tab.banker_draws(b, None)
        for p3 in range(10):
            assert bm[b, p3] == tab.banker_draws(b, p3)


def test_a_malformed_tableau_is_refused() -> None:
    with pytest.raises(RulesError):
        tableau_from_dict({"naturals": [8, 10], "player_draws_on": [],
                           "banker_draws_when_player_stands": [],
                           "banker_draws_when_player_drew": {}})
    with pytest.raises(RulesError):
        tableau_from_dict({"naturals": [8]})
