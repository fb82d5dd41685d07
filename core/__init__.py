"""Pieces beneath the apps: Django and the standard library only, never club, scoring or engine
(checked by tests/test_infrastructure.py)."""
