"""Trust in the records: the integrity check of the books against the audit chain, the rows held
to the chain, keying and external anchors."""
