"""A club's data over the years: the work that spans every app, so it stands on top of them all.

``club`` knows people, ``ledger`` the money, ``league`` the results, ``evenings`` who came,
``scoring`` the games; none of them may import another above it (tests/test_infrastructure.py).
What a real club does to its own data over the years touches all of them at once, so it lives
here, and nothing imports ``clubdata``:

- ``clubdata.founding``: found a club (``CLUB_SIGNUP``: ``open`` or ``invite``), the form and
  ``manage.py create_club``; the founder becomes its admin.
- ``clubdata.firstrun``: the new club's checklist on its start page (a ``club.panels`` panel)
  until each step is done: members in, opening balances, first season, invites, first evening.
- ``clubdata.settings``: the admins' one settings page (name, Swish, games played and their
  default options, league scheme, public league link, evening options, money ceiling); each
  change that touches money is an audit record (who, when, old -> new).
- ``clubdata.people``: edit a member, mark one as left and bring him back, import and export the
  member list (CSV), and merge two people into one (seats, results, attendances and money moved
  with one audited ledger transaction, the league recomputed).
- ``clubdata.archive``: the club's whole data as one versioned zip (``manage.py export_club`` /
  ``import_club``, docs/club-archive.md); the import re-seals the audit chain under this
  instance's key and records the source's head.
- ``clubdata.mydata``: a member's own data (JSON and PDF) and erasure on request (GDPR art. 15,
  20, 17): a pseudonym replaces the name, the login goes, the books keep their amounts.

Each part has its own module of URLs (``clubdata/urls_<part>.py``); ``clubdata/urls.py`` joins
them.
"""
