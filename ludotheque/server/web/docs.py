"""The API's documentation page, ``/docs``: Swagger UI over ``/openapi.json``, served from here.

FastAPI's own ``/docs`` loads Swagger UI from a CDN with an inline start-up script: the site's
Content-Security-Policy (``script-src 'self'``, ``style-src 'self'``) refuses both, and a
machine without the internet cannot fetch them, so that page stayed blank. This one is a page
of the site (its header, the visitor's language for its own words) that loads Swagger UI from
the server's static files (``static/vendor/swagger-ui``, see the README there) and starts it
with a script of ours (``static/docs.js``), under the same policy as every other page.
Swagger UI styles its elements through the DOM (``element.style``), which the policy allows,
so the page needs no header of its own.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from .pages import looking, page

SWAGGER_UI = "/static/vendor/swagger-ui"
ASSETS = {
    "css": f"{SWAGGER_UI}/swagger-ui.css",
    "js": f"{SWAGGER_UI}/swagger-ui-bundle.js",
}
"""The vendored files the page loads (the tests check that they are served)."""

router = APIRouter(dependencies=[Depends(looking)])


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
async def api_docs(request: Request) -> HTMLResponse:
    """Swagger UI on the app's OpenAPI schema, for people who write bots and other clients."""
    return page(request, "docs.html", assets=ASSETS, openapi_url=request.app.openapi_url)
