"""The archive's page (``/archive``): finished games, filtered by a plain GET form (it works
without scripts, and its values stay in the address), a backgammon match's games together."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from ... import available_games
from ..errors import GameError
from ..play.deps import ServiceDep
from ..web.pages import error_page, looking, page
from .listing import RESULTS, Filters, archive_list, filters_from

router = APIRouter(dependencies=[Depends(looking)], include_in_schema=False)


@router.get("/archive", response_class=HTMLResponse)
async def archive_page(request: Request, service: ServiceDep) -> HTMLResponse:
    try:
        filters = filters_from(request.query_params)
    except GameError as exc:
        return error_page(request, exc)
    entries = await archive_list(service, filters)
    return page(request, "archive.html", entries=entries, filters=filters,
                game_names=available_games(), results=RESULTS)  # fmt: skip


__all__ = ["Filters", "router"]
