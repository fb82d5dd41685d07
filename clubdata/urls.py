"""clubdata's pages, one list per part (see the package docstring)."""

from clubdata import urls_archive, urls_founding, urls_mydata, urls_people, urls_settings

app_name = "clubdata"

urlpatterns = [
    *urls_founding.urlpatterns,
    *urls_settings.urlpatterns,
    *urls_people.urlpatterns,
    *urls_archive.urlpatterns,
    *urls_mydata.urlpatterns,
]
