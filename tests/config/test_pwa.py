"""The installable app: the manifest names real icons, the worker is served from the root with
its Workbox runtime from our own static files (never a CDN), and the offline page is there."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_manifest_describes_an_installable_app(client):
    response = client.get(reverse("manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == "/"
    assert data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        path = icon["src"].removeprefix("/static/")
        assert finders.find(path), f"{icon['src']} is not a static file"


def test_the_manifest_speaks_the_readers_language(client):
    swedish = json.loads(client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE="sv").content)
    english = json.loads(client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE="en").content)
    assert swedish["lang"] == "sv"
    assert "kortspel" in swedish["description"]
    assert english["lang"] == "en"
    assert "card games" in english["description"]


def test_the_service_worker_is_served_from_the_root_with_our_own_workbox(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    config = json.loads(script.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["workboxSw"] == "/static/vendor/workbox/workbox-sw.js"
    assert config["offline"] == reverse("offline")
    assert "http" not in script.replace("http-equiv", "")  # nothing from another origin
    assert all(finders.find(url.removeprefix("/static/")) for url in config["shell"])


def test_every_page_links_the_manifest_and_the_worker(client):
    page = client.get(reverse("login")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}">' in page
    assert f'data-service-worker="{reverse("service-worker")}"' in page


def test_the_offline_page_and_head_requests(client):
    assert client.get(reverse("offline")).status_code == 200
    assert client.head("/sw.js").status_code == 200
    assert client.post("/sw.js").status_code == 405
