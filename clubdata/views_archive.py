"""The admin's download of the club's archive (``clubdata.archive``), from the settings page."""

from __future__ import annotations

import tempfile

from django.http import FileResponse, HttpRequest
from django.views.decorators.http import require_safe

from club.access import club_view
from club.models import Role
from clubdata import archive


@require_safe
@club_view(role=Role.ADMIN)
def club_archive(request: HttpRequest) -> FileResponse:
    """The archive ``manage.py export_club`` writes, built in a temporary file (gone when the
    response is closed) and streamed from there: a club's years of events never sit in memory."""
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it
    try:
        archive.write_archive(request.club, spool)
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    response = FileResponse(
        spool,
        as_attachment=True,
        filename=archive.archive_name(request.club),
        content_type="application/zip",
    )
    response["Cache-Control"] = "private, no-store"
    return response
