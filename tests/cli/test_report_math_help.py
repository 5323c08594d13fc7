"""`cardroom report math`'s options that only some dossiers take say, in their help, what they
set in each game's dossier: the help is the games' registry entries' (`dossier_options`),
joined game by game, so that the command module names no game (issue 24)."""

from __future__ import annotations

from cardroom.cli.report import dossier_help


def test_an_option_several_dossiers_take_says_what_it_sets_in_each() -> None:
    assert dossier_help("hands") == ("Pai Gow: hands per simulated figure (default 1,000,000); "
                                     "Pan: hands per seat count (default 400).")
    assert dossier_help("coups") == ("Baccarat: coups the card counter sees (default "
                                     "10,000,000).")
    assert dossier_help("paytable") == "Baccarat: Super-9 pay table 1-3."
    assert dossier_help("hands_per_hour") == ("Pan: hands an hour assumed for the fee income "
                                              "(default 20).")
