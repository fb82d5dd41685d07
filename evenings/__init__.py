"""Club evenings (*klubbkväll*): who is here, the tables, each table's pot, the evening board,
and tonight's settle-up. See ``evenings.services`` for the design.

Layering: ``evenings`` stands on ``club``, ``ledger`` and ``league``; ``scoring`` imports it (a
game started at a table belongs to the table: ``Game.table``) and tells the board what a
table's game looks like through ``evenings.board.register_table_status``. ``evenings`` never
imports ``scoring`` (tests/test_infrastructure.py).
"""
