"""URLs of clubdata.founding."""

urlpatterns: list = []
