"""Special-hand honours (issue 29): the hands a club names for a prize or a bounty (cribbage
29, 28 and 24 in hand or crib; a won la vola in Polskt pass), detected by the engine from what
is recorded, paid once from the named pot, listed in the season's honours."""
