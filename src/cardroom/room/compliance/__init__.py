"""The law's watch over the money: currency transactions (Title 31), suspicious activity, self-
exclusion, surveillance before payment and W-2G."""
