"""Pure rules of the chemistry card games: no I/O, no clock, no global random."""
