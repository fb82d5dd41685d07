"""The rules of the club's card games: pure Python, standard library only, never Django.

Every game module offers the same small surface (see ``engine.base``):
``Rules`` (frozen dataclass of club options), ``new_game(players, rules) -> State`` and
``apply(state, event) -> State`` (pure; raises ``engine.errors.IllegalEvent``), and money as
``Transfer`` records so that the recording layer can post them to the ledger unchanged.
"""
