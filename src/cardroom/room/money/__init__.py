"""Money on the books: the double-entry ledger, hands' amounts, the progressive pools' funds,
jackpots, Pan's fees and the tenders the cage accepts."""
