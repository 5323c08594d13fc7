"""Panguingue (Pan): the game of the reference digest with the card room's house rules.

Seats are numbered in the order of play: seat i+1 sits on seat i's right, because dealing and
play rotate to the right (counter-clockwise). See docs/pan.md for every rules decision.
"""
