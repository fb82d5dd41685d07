"""The first-run guide (filled in by its issue part)."""


def connect() -> None:
    """Register the checklist panel on the club's start page."""
