"""What each role's screen reads: the pit (floor), the lobby and the cage's window."""
