"""A real club from day one (issue 24), on a phone, from an empty database.

A new user founds a club, imports twelve members from a CSV (one row refused in the preview,
then fixed), enters the opening balances from the paper books (the Kille tin, a Polskt pass bet,
two members' debts), starts and records a Kille deal from the opened pot with a guest at the
table, merges that guest into the member he became, erases another member, and downloads the
club's archive. ``manage.py import_club`` then loads the archive into a second, empty database
(the same engine as the test's: SQLite or PostgreSQL), where every balance, standing and event
matches and ``check_ledger`` is green.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import expect

import ledger
from club.models import Club, Member, User
from clubdata import archive
from ledger.models import Account
from scoring.models import Seat
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]

HEADER = "namn;e-post;telefon;roller"
ROWS = [
    "Anna Andersson;anna@example.se;070-111 11 11;kassör",
    "Bo Berg;bo@example.se;070-222 22 22;scorer",
    "Cilla Carlsson;cilla@example.se;070-333 33 33;",
    "Dan Dahl;;070-444 44 44;",
    "Eva Ek;eva@example.se;;",
    "Filip Falk;filip@example.se;070-666 66 66;",
    "Gösta Gustavsson;gosta@example.se;070-777 77 77;",
    "Hanna Holm;hanna@example.se;;",
    "Ivar Isaksson;;070-999 99 99;",
    "Jenny Jonsson;jenny@example.se;;",
    "Karl Kvist;karl@example.se;;",
]
BAD_ROW = "Lena Lind;lena@example.se;ring efter sex;"
FIXED_ROW = "Lena Lind;lena@example.se;070-123 45 67;"


def csv_file(*rows: str) -> dict:
    text = "\n".join([HEADER, *rows]) + "\n"
    return {"name": "medlemmar.csv", "mimeType": "text/csv", "buffer": text.encode("utf-8-sig")}


@pytest.fixture
def open_signup(settings):
    settings.CLUB_SIGNUP = "open"


def test_a_club_from_nothing_to_its_archive_on_another_database(
    page, live_server, output_dir, open_signup, tmp_path
):
    assert not Club.objects.exists()
    User.objects.create_user("maja", password=PASSWORD)

    # 1. Found the club.
    log_in(page, live_server, "maja", PASSWORD)
    page.get_by_test_id("found-club-link").click()
    page.fill("#id_name", "Kortklubben Kungsholmen")
    page.fill("#id_swish_number", "123 456 78 90")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "1-found.png", full_page=True)
    page.get_by_role("button", name=re.compile("Starta klubben|Found the club")).click()
    page.wait_for_url(re.compile(r"/c/[\w-]+/$"))
    club = Club.objects.get()
    founder = Member.objects.get(club=club)
    assert founder.is_admin
    assert founder.user.username == "maja"
    checklist = page.get_by_test_id("firstrun")
    expect(checklist).to_be_visible()
    page.screenshot(path=output_dir / "2-first-run.png", full_page=True)
    base = f"{live_server.url}/c/{club.slug}"

    # 2. Twelve members from a CSV: one row refused in the preview, nothing imported; fixed.
    page.goto(f"{base}/members/import/")
    page.locator("input[type=file]").set_input_files(csv_file(*ROWS, BAD_ROW))
    page.get_by_test_id("import-preview-button").click()
    expect(page.get_by_test_id("row-problem")).to_have_count(1)
    expect(page.get_by_test_id("row-problem")).to_contain_text(re.compile("nummer|number"))
    expect(page.get_by_test_id("import-all")).to_have_count(0)
    page.screenshot(path=output_dir / "3-import-refused.png", full_page=True)
    assert Member.objects.filter(club=club).count() == 1
    page.locator("input[type=file]").set_input_files(csv_file(*ROWS, FIXED_ROW))
    page.get_by_test_id("import-preview-button").click()
    expect(page.get_by_test_id("row-problem")).to_have_count(0)
    page.get_by_test_id("import-all").click()
    expect(page.get_by_text("Lena Lind").first).to_be_visible()
    assert Member.objects.filter(club=club).count() == 13
    people = {m.name: m for m in Member.objects.filter(club=club)}
    assert people["Anna Andersson"].is_treasurer

    # 3. The opening balances: 340 kr in the Kille tin, Anna's 60 kr bet in Polskt pass, Bo
    # owes 120 kr and Cilla 45 kr; the cash box holds what the tin and the bet hold.
    page.goto(f"{base}/ledger/opening/")
    page.fill("#id_pot_kille", "340")
    page.fill("#id_bet1_amount", "60")
    page.select_option("#id_bet1_owner", label="Anna Andersson")
    page.fill(f"#id_member_{people['Bo Berg'].pk}", "-120")
    page.fill(f"#id_member_{people['Cilla Carlsson'].pk}", "-45")
    page.fill("#id_cash", "400")
    page.get_by_test_id("opening-check").click()
    # Net worth: the box (400) and the debts (165) less what the tin and the bet hold (400).
    expect(page.get_by_test_id("opening-equity")).to_contain_text("165,00")
    page.screenshot(path=output_dir / "4-opening.png", full_page=True)
    page.get_by_test_id("opening-post").click()
    expect(page.get_by_test_id("opening-standing")).to_be_visible()
    pot = Account.objects.get(club=club, key="pot:kille")
    assert pot.balance_ore == 34_000
    assert ledger.balance(ledger.member_account(people["Bo Berg"])) == -12_000

    # 4. A Kille game from the opened pot, with a guest at the table.
    page.goto(f"{base}/play/kille/")
    for name in (founder.name, "Bo Berg", "Cilla Carlsson"):
        page.locator(".seat-choice", has_text=name).click()
    page.fill("#id_guests", "Gösta Gäst")
    page.get_by_role("button", name=re.compile("Starta|Start")).click()
    page.screenshot(path=output_dir / "5-kille-start.png", full_page=True)
    kille_pot = page.get_by_test_id("kille-pot")
    expect(kille_pot).to_contain_text("340,00")
    # A pot that holds money needs no ante: Bo (förhand) speaks first.
    # Bo knocks; Cilla stays, the guest folds, Maja stays; Bo knocks again.
    page.get_by_test_id("knock-s1").click()
    page.get_by_test_id("stay-s2").click()
    page.get_by_test_id("fold-s3").click()
    page.get_by_test_id("stay-s0").click()
    page.get_by_test_id("knock-s1").click()
    page.get_by_test_id("fourth_trick-s2").click()
    page.get_by_test_id("show-s2").click()
    page.get_by_test_id("card-s0-7").click()
    page.get_by_test_id("card-s1-kille").click()
    page.get_by_test_id("card-s2-blaren").click()
    page.get_by_test_id("reveal").click()
    expect(page.get_by_test_id("kille-last")).to_contain_text("Cilla Carlsson")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "5-kille.png", full_page=True)
    # The evening's Kille ends: ranked by money; the pot stays for next time.
    page.locator("details.kille-end summary").click()
    page.get_by_test_id("end-evening").click()
    expect(page.get_by_test_id("end-evening")).to_have_count(0)
    guest_seat = Seat.objects.get(game__club=club, guest_name="Gösta Gäst")
    assert guest_seat.game.status == "finished"

    # 5. The guest joined as Gösta Gustavsson: merge him.
    page.goto(f"{base}/members/merge/")
    page.select_option("#merge-guest", value="Gösta Gäst")
    page.select_option("#merge-guest-into", label="Gösta Gustavsson")
    page.get_by_test_id("merge-guest").click()
    expect(page.get_by_test_id("merge-plan")).to_be_visible()
    page.screenshot(path=output_dir / "6-merge.png", full_page=True)
    page.get_by_test_id("merge-confirm").click()
    page.wait_for_load_state()
    guest_seat.refresh_from_db()
    assert guest_seat.member == people["Gösta Gustavsson"]
    assert guest_seat.guest_name == ""

    # 6. Karl asks to be forgotten.
    karl = people["Karl Kvist"]
    page.goto(f"{base}/members/{karl.pk}/erase/")
    page.screenshot(path=output_dir / "7-erase.png", full_page=True)
    page.get_by_test_id("erase-member").click()
    page.wait_for_load_state()
    karl.refresh_from_db()
    assert karl.erased_at is not None
    assert "Karl" not in karl.name

    # 7. The club's archive, downloaded from the settings page.
    page.goto(f"{base}/settings/")
    with page.expect_download() as download:
        page.get_by_test_id("club-archive-download").click()
    zip_path = tmp_path / "klubben.zip"
    download.value.save_as(zip_path)
    assert ledger.verify_books(club) == []
    expected = archive.summary(club)

    # 8. Another instance: an empty database of the same engine, migrated, then the import.
    with second_database(tmp_path) as url:
        env = {**os.environ, "DATABASE_URL": url}
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
        imported = subprocess.run(
            [*manage, "import_club", str(zip_path), "--summary"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert imported.returncode == 0, imported.stderr
        assert "Source audit head" in imported.stderr
        assert json.loads(imported.stdout) == json.loads(json.dumps(expected))
        checked = subprocess.run(
            [*manage, "check_ledger"], env=env, cwd=ROOT, capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr


class second_database:
    """An empty database beside the test's: a SQLite file, or a new PostgreSQL database on the
    test's server (dropped afterwards)."""

    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        self.name = f"protokoll_import_{uuid.uuid4().hex[:12]}"

    def __enter__(self) -> str:
        if connection.vendor == "sqlite":
            return f"sqlite:///{self.tmp_path / 'second.sqlite3'}"
        settings = connection.settings_dict
        with self._admin() as admin:
            admin.execute(f'CREATE DATABASE "{self.name}"')
        user = settings["USER"] or "postgres"
        host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
        return f"postgresql://{user}@{host}:{port}/{self.name}"

    def __exit__(self, *exc) -> None:
        if connection.vendor != "sqlite":
            with self._admin() as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _admin(self):
        import psycopg  # noqa: PLC0415 - PostgreSQL only

        settings = connection.settings_dict
        return psycopg.connect(
            dbname="postgres",
            user=settings["USER"] or "postgres",
            host=settings["HOST"] or "127.0.0.1",
            port=settings["PORT"] or 5432,
            password=settings["PASSWORD"] or None,
            autocommit=True,
        )
