"""The books kept from the money: the cage's cashier and checks, each table's drop, fills, credits
and count, the operations and regulator's reports, the reconciliation, and the books' copy at
the head office."""
