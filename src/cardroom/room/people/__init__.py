"""The people the room knows: player and staff accounts, their names and passwords, log-in back-
off, two-person approvals and patrons' identities."""
