"""Pai Gow Poker: evaluation with the joker, settings and fouls, house ways as data, the table."""
