"""URLs of clubdata.people."""

urlpatterns: list = []
