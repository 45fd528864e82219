"""The API's documentation page, ``/docs``: ours (Swagger UI vendored and started by a file of
ours), not FastAPI's, whose page loads Swagger UI from a CDN that the site's
Content-Security-Policy refuses. What it looks like, offline, is tests/browser/test_docs_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.app import create_app
from ludotheque.server.settings import Settings
from ludotheque.server.web.docs import ASSETS


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """An app on SQLite only: the page does not read the database."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'docs.sqlite3'}"))
    with TestClient(app) as client:
        yield client


def test_docs_page_loads_the_vendored_swagger_ui(client: TestClient) -> None:
    response = client.get("/docs", headers={"accept-language": "en"})
    assert response.status_code == 200
    html = response.text
    assert f'href="{ASSETS["css"]}"' in html and f'src="{ASSETS["js"]}"' in html
    assert 'src="/static/docs.js"' in html and 'data-url="/openapi.json"' in html
    assert "API documentation" in html
    # no script of the page's own inside it, and nothing from another origin
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert all(body.strip() == "" or 'type="application/json"' in attrs
               for attrs, body in scripts)  # fmt: skip
    assert not re.search(r"""(?:src|href)="(?:https?:)?//""", html)
    # the site's policy, unchanged
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "unsafe" not in policy


def test_docs_page_in_french(client: TestClient) -> None:
    html = client.get("/docs", headers={"accept-language": "fr-FR,fr;q=0.9"}).text
    assert "Documentation de l’API" in html and 'lang="fr"' in html


def test_the_vendored_assets_are_served(client: TestClient) -> None:
    css = client.get(ASSETS["css"])
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert ".swagger-ui" in css.text
    script = client.get(ASSETS["js"])
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "SwaggerUIBundle" in script.text
    start = client.get("/static/docs.js")
    assert start.status_code == 200 and "SwaggerUIBundle" in start.text
    assert client.get("/static/docs.css").status_code == 200


def test_fastapi_docs_are_off_and_the_schema_is_kept(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404
    assert "cdn" not in client.get("/docs").text.lower()  # ours, not FastAPI's
    schema = client.get("/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "post" in paths["/api/games"] and "get" in paths["/api/play/{token}"]
    assert "/docs" not in paths  # the page is not part of the API
