"""URLs of clubdata.mydata."""

urlpatterns: list = []
