"""Mini-Baccarat with the Super-9 bonus wagers and progressive jackpot."""
