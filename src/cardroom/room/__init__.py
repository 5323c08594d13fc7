"""The card room without the web: storage, ledger, audit log, accounts, live tables, recovery."""
