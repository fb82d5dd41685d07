"""The books: clubs, members and roles, the ledger, pots, dues, seasons and league tables.

``club`` never imports ``scoring``; it offers small service functions that ``scoring`` calls.
"""
