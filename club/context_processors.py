from django.http import HttpRequest


def current_club(request: HttpRequest) -> dict:
    """The club a page belongs to (set by ``club_view``) for the navigation."""
    return {"club": getattr(request, "club", None), "me": getattr(request, "member", None)}
