"""Clubs and the people in them: the club, its members and their roles, logins, seasons, the
demo club, and the club's pages (home, members, account). The books are ``ledger``, the league
tables ``league``, the evenings ``evenings``, a club's founding, settings and archive
``clubdata``.

``club`` stands on ``core`` only; every other app may import it, and it imports none of them
(tests/test_infrastructure.py).
"""
