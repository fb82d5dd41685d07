"""URLs of clubdata.settings."""

urlpatterns: list = []
