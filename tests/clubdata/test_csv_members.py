"""``clubdata.csv_members``: a preview with per-row problems, then all rows or none; hostile
files refused; the export formula-safe and re-importable."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club.models import Member, Role
from clubdata import csv_members
from tests.conftest import client_for
from tests.factories import make_club, make_member

GOOD = (
    "namn;e-post;telefon;roller\n"
    "Anna Andersson;anna@example.se;070-111 22 33;admin; kassör\n"
    "Bertil Berg;;+46 70 222 33 44;\n"
)


def upload(client, club, data: bytes, name="medlemmar.csv"):
    url = reverse("clubdata:members-import", args=[club.slug])
    return client.post(url, {"file": SimpleUploadedFile(name, data, "text/csv")})


def import_all(client, club, preview):
    url = reverse("clubdata:members-import", args=[club.slug])
    form = preview.context["form"]
    data = {"rows": form.initial["rows"], "submission": form.initial["submission"]}
    return client.post(url, data)


def names(club):
    return set(Member.objects.for_club(club).values_list("name", flat=True))


def test_a_refused_row_in_the_preview_then_the_fixed_file_imports_all(
    club, admin_client_, admin_member, in_english
):
    bad = GOOD + "arne admin;;;\nCilla;cilla@;07x;ordförande\n=HYPERLINK(1);;;\n;a@b.se;;\n"
    preview = upload(admin_client_, club, bad.encode())
    assert preview.status_code == 200
    rows = {row.line: row.problems for row in preview.context["rows"]}
    assert rows[2] == rows[3] == []
    assert any("already a member" in p for p in rows[4])
    assert len(rows[5]) == 3  # bad e-mail, bad number, unknown role
    assert any("cannot start with" in p for p in rows[6])
    assert any("empty" in p for p in rows[7])
    assert 'data-testid="import-all"' not in preview.content.decode()  # not with a problem
    assert names(club) == {admin_member.name}

    preview = upload(admin_client_, club, GOOD.encode())
    assert preview.context["problems"] == 0
    response = import_all(admin_client_, club, preview)
    assert response.status_code == 302
    anna = Member.objects.get(club=club, name="Anna Andersson")
    assert anna.roles == {Role.MEMBER, Role.ADMIN, Role.TREASURER}
    assert (anna.email, anna.swish_number) == ("anna@example.se", "070-111 22 33")
    assert Member.objects.get(club=club, name="Bertil Berg").swish_number == "+46 70 222 33 44"
    # The double tap imports once.
    again = import_all(admin_client_, club, preview)
    assert again.status_code == 302
    assert Member.objects.for_club(club).count() == 3


def test_all_or_none_when_a_name_was_taken_since_the_preview(club, admin_client_):
    preview = upload(admin_client_, club, GOOD.encode())
    Member.objects.create(club=club, name="BERTIL BERG")  # added meanwhile
    response = import_all(admin_client_, club, preview)
    assert response.status_code == 422
    assert not Member.objects.filter(club=club, name="Anna Andersson").exists()


def test_english_headers_commas_and_cp1252(club, admin_member):
    text = 'Name,E-mail,Phone,Roles\nÅsa Öberg,asa@example.se,0701234567,"treasurer, scorer"\n'
    rows = csv_members.read(text.encode("cp1252"), club)
    assert [(r.name, r.email, r.swish, sorted(r.roles), r.problems) for r in rows] == [
        ("Åsa Öberg", "asa@example.se", "0701234567", ["scorer", "treasurer"], [])
    ]
    bom = ("\ufeff" + text).encode("utf-8")
    assert csv_members.read(bom, club)[0].name == "Åsa Öberg"


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"namn\n" + b"x" * 1_100_000, "too large"),
        (b"namn\n" + b"Anna\n" * 2_001, "too many rows"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "not a CSV"),
        (b"namn\n\x81\x8d\x8f", "not a CSV"),
        (b"id;club;email\n4;2;a@b.se\n", "namn"),
        (b"", "empty"),
    ],
)
def test_hostile_files_are_refused_clearly_and_change_nothing(
    club, admin_client_, admin_member, data, says, in_english
):
    response = upload(admin_client_, club, data)
    assert response.status_code == 422
    assert says in response.content.decode()
    assert names(club) == {admin_member.name}


def test_a_tampered_or_foreign_preview_is_refused(club, admin_client_, admin_member):
    preview = upload(admin_client_, club, GOOD.encode())
    url = reverse("clubdata:members-import", args=[club.slug])
    form = preview.context["form"]
    forged = form.initial["rows"][:-3] + "abc"
    response = admin_client_.post(url, {"rows": forged, "submission": "k" * 20})
    assert response.status_code == 422
    other = make_club()
    boss = make_member(other, "Boss", roles=[Role.ADMIN])
    theirs = reverse("clubdata:members-import", args=[other.slug])
    client_for(boss).post(theirs, {"rows": form.initial["rows"], "submission": "x" * 20})
    assert names(other) == {"Boss"}
    assert names(club) == {admin_member.name}


def test_the_export_is_formula_safe_and_reimports_as_the_same_members(
    club, admin_client_, admin_member
):
    preview = upload(admin_client_, club, GOOD.encode())
    import_all(admin_client_, club, preview)
    make_member(club, "Olle", login=False, swish_number="+46701234567")
    hostile = Member.objects.get(club=club, name="Bertil Berg")
    hostile.email = "=cmd@example.se"
    hostile.save(update_fields=["email"])

    response = admin_client_.get(reverse("clubdata:members-export", args=[club.slug]))
    assert response["Content-Type"].startswith("text/csv")
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeffnamn;e-post;telefon;roller")
    assert "'+46701234567" in body
    assert "'=cmd@example.se" in body
    for line in body.splitlines()[1:]:
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in line.split(";"))

    fresh = make_club()
    rows = csv_members.read(response.content, fresh)
    assert all(not r.problems for r in rows)
    csv_members.import_rows(fresh, rows, submission="roundtrip")

    def people(c):
        return {
            (m.name, m.email, m.swish_number, frozenset(m.roles))
            for m in Member.objects.for_club(c).active()
        }

    assert people(fresh) == people(club)
    assert len(people(fresh)) == 4
