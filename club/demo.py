"""The demo club: a dozen members at Kortklubben Hjärter Dam, loaded idempotently.

Its evenings of recorded games are added by ``scoring.demo`` (club never drives the table).
"""

from __future__ import annotations

from django.db import transaction

from club.members import add_member
from club.models import Club, Member, Role, User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-kille-121"  # noqa: S105 - printed on purpose: it is a demo
DEMO_CLUB_SLUG = "hjarter-dam"

# (name, roles, swish number); the first is the demo login.
DEMO_MEMBERS = [
    ("Astrid Lindqvist", [Role.ADMIN, Role.TREASURER, Role.SCORER], "0701234501"),
    ("Bertil Holm", [Role.SCORER], "0701234502"),
    ("Cecilia Berg", [], "0701234503"),
    ("Doris Ek", [Role.TREASURER], "0701234504"),
    ("Einar Sjöberg", [], "0701234505"),
    ("Frida Nyström", [Role.SCORER], "0701234506"),
    ("Gustav Åkesson", [], "0701234507"),
    ("Hanna Öberg", [], ""),
    ("Ivar Lund", [], "0701234509"),
    ("Judit Strand", [], "0701234510"),
    ("Karl-Erik Dahl", [], ""),
    ("Lena Wallin", [], "0701234512"),
]


@transaction.atomic
def load_demo() -> Club:
    club, _ = Club.objects.get_or_create(
        slug=DEMO_CLUB_SLUG, defaults={"name": "Kortklubben Hjärter Dam"}
    )
    user = User.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = User.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
    for index, (name, roles, swish) in enumerate(DEMO_MEMBERS):
        if Member.objects.for_club(club).filter(name=name).exists():
            continue
        add_member(club, name, roles=roles, user=user if index == 0 else None, swish_number=swish)
    return club
