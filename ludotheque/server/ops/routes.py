"""Operating the server: liveness, readiness, metrics, and logs a machine can read.

- ``GET /healthz``: the process answers (nothing else is checked: a load balancer or an
  orchestrator restarts a process that does not).
- ``GET /readyz``: the process can serve games: the database answers, its schema is the one
  this code migrates to, and the bus listens. 503 with the failed checks otherwise, so that a
  proxy sends players elsewhere while PostgreSQL restarts.
- ``GET /metrics``: Prometheus's text format (see ``metrics``).
- ``LUDOTHEQUE_LOG_FORMAT=json``: one JSON object per line (time, level, logger, message,
  and the exception when there is one), for log collectors.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import func, select, text

from ..metrics import CONTENT_TYPE, JOB_STATUSES, render
from ..play.service import GameService
from ..store.db import MIGRATIONS, JobRow

router = APIRouter()


def schema_heads() -> frozenset[str]:
    """The revisions this code's migrations end at."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, bool]:
    return {"alive": True}


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    service: GameService = request.app.state.service
    heads: frozenset[str] = request.app.state.schema_heads
    checks: dict[str, Any] = {}

    def versions() -> set[str]:
        with service.sessions() as db:
            return {str(v) for v in db.scalars(text("SELECT version_num FROM alembic_version"))}

    try:
        found = await service.run_db(versions)
        checks["database"] = True
        checks["schema"] = found == set(heads)
    except Exception:
        checks["database"] = checks["schema"] = False
    checks["bus"] = bool(service.bus.listening)
    ready = all(checks.values())
    return JSONResponse({"ready": ready, **checks}, status_code=200 if ready else 503)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    service: GameService = request.app.state.service

    def jobs() -> dict[str, int]:
        with service.sessions() as db:
            rows = db.execute(
                select(JobRow.status, func.count())
                .where(JobRow.status.in_(JOB_STATUSES))
                .group_by(JobRow.status)
            ).all()
            return {str(status): int(n) for status, n in rows}

    try:
        counts = await service.run_db(jobs)
    except Exception:  # the database is away: the process's own figures still count
        counts = {}
    return Response(render(counts, len(service.games)), media_type=CONTENT_TYPE)


class JsonLines(logging.Formatter):
    """One JSON object per record."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(form: str, level: int = logging.INFO) -> None:
    """Logs on standard error: ``text`` (a line each) or ``json`` (an object a line), for
    this package's loggers and uvicorn's."""
    handler = logging.StreamHandler()
    if form == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
