"""URLs of clubdata.archive."""

urlpatterns: list = []
