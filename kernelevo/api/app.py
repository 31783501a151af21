"""The REST API (FastAPI): specs, runs and their archives, candidates, prompts; ``kernelevo serve`` runs it,
with the dashboard at ``/``.

It reads and writes the database and starts runs (:mod:`kernelevo.api.launcher`); it never
imports a spec or a kernel: a submitted spec is checked in an isolated child, and runs are
driven by processes of their own. Every mutating route needs a bearer token; reads are open
unless ``KERNELEVO_API_READS_OPEN=false``; CORS is off unless origins are configured; the
server binds 127.0.0.1 unless told otherwise, and answers only requests whose Host header it
knows (:mod:`kernelevo.api.security`). OpenAPI is at ``/docs`` (Swagger UI) and ``/redoc``,
served from the installed package: nothing is loaded from another host.

The database is only touched in FastAPI's thread pool (``KERNELEVO_API_THREADS`` threads, within
the connection pool's size), never on the event loop (:mod:`kernelevo.api.deps`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

import kernelevo
from kernelevo.api.cache import ResponseCache
from kernelevo.api.launcher import RunLauncher
from kernelevo.api.routes import candidates, compare, evaluations, exports, meta, pool, prompts, runs, specs
from kernelevo.api.schemas import ErrorDetail
from kernelevo.api.security import DOCS_CSP, SecurityHeaders, allowed_hosts
from kernelevo.dashboard import mount_dashboard
from kernelevo.settings import Settings
from kernelevo.storage.database import Database
from kernelevo.storage.runs import RunNotFound
from kernelevo.utils.devices import visible_gpus

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
DOCS_ASSETS = Path(fastapi_offline.__file__).parent / "static"  # swagger-ui-bundle.js, swagger-ui.css, redoc
MUTATING = ("post", "put", "patch", "delete")
OPEN = ("/api/health",)  # answers without a token even where reads need one (a load balancer's check)


def create_app(db: Database, settings: Settings | None = None, *, launch_runs: bool = True) -> FastAPI:
    """The API over ``db``; with ``launch_runs`` it also starts queued runs as slots free up."""
    settings = settings or Settings()
    launcher = RunLauncher(db, settings) if launch_runs else None
    pool_capacity = settings.db_pool_size + settings.db_max_overflow
    if settings.api_threads > pool_capacity:
        log.warning("KERNELEVO_API_THREADS=%d is above the database pool's %d connections (KERNELEVO_DB_POOL_SIZE "
                    "+ KERNELEVO_DB_MAX_OVERFLOW): under load, requests will wait for a connection",
                    settings.api_threads, pool_capacity)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.api_threads
        task = asyncio.create_task(launcher.run()) if launcher else None
        yield
        if task is not None:
            task.cancel()
            launcher.close()  # type: ignore[union-attr]

    app = FastAPI(title="kernelevo", version=kernelevo.__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Faster GPU kernels by quality-diversity search: submit specs, drive runs, read "
                              "archives. Mutating routes need `Authorization: Bearer <token>` "
                              "(`kernelevo token create NAME`).")
    app.state.db, app.state.settings, app.state.launcher = db, settings, launcher
    app.state.archives = ResponseCache()  # encoded archives by run and version (kernelevo.api.cache)
    app.state.gpus = visible_gpus()  # what runs started here can use (a Ray cluster's nodes decide for themselves)
    for router in (specs.router, runs.router, candidates.router, candidates.by_number, prompts.router, meta.router,
                   pool.router):
        app.include_router(router)
    for router in (evaluations.router, exports.router, compare.router):  # the dashboard's read-only views
        app.include_router(router)

    @app.exception_handler(RunNotFound)
    async def not_found(_: Request, exc: RunNotFound) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # one line a person reads, as every other error here: "body.spec_id: Input should be ..."
        problems = ["{}: {}".format(".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()]
        return JSONResponse({"detail": "; ".join(problems[:5])}, status_code=422)

    app.openapi = lambda: _openapi(app, settings)  # type: ignore[method-assign]
    _mount_docs(app)
    mount_dashboard(app)

    # Outermost last: the Host check first, then the headers every response carries and the body limit.
    if settings.api_cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.api_cors_origins, allow_methods=["*"],
                           allow_headers=["*"])
    app.add_middleware(SecurityHeaders, max_body_bytes=2 * settings.api_max_spec_bytes)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(settings))
    return app


def _mount_docs(app: FastAPI) -> None:
    """Swagger UI at /docs and ReDoc at /redoc, from files in the installed packages (no CDN)."""
    app.mount("/docs-assets", StaticFiles(directory=DOCS_ASSETS), name="docs-assets")
    app.mount("/api-static", StaticFiles(directory=STATIC), name="api-static")

    @app.get("/docs", include_in_schema=False)
    def swagger() -> FileResponse:
        return FileResponse(STATIC / "docs.html", headers={"Content-Security-Policy": DOCS_CSP})

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> FileResponse:
        return FileResponse(STATIC / "redoc.html", headers={"Content-Security-Policy": DOCS_CSP})


def _openapi(app: FastAPI, settings: Settings) -> dict[str, Any]:
    """The OpenAPI document: every 422 described as what the handler above sends (a one-line detail), the
    400 a body that is not JSON gets, and bearer auth only where the server asks for it (mutating routes;
    reads too when ``api_reads_open`` is off)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    components = schema.setdefault("components", {})
    components.setdefault("schemas", {})["ErrorDetail"] = ErrorDetail.model_json_schema()
    problem = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDetail"}}}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            if "422" in responses:
                responses["422"] = {"description": "the request is malformed, or names something unknown: the "
                                                   "detail says where and why", "content": problem}
            if "requestBody" in operation:
                responses["400"] = {"description": "the body is not JSON", "content": problem}
            if method not in MUTATING and not settings.api_reads_open and path not in OPEN:
                operation["security"] = [{"HTTPBearer": []}]
                responses.setdefault("401", {"description": "no valid bearer token", "content": problem})
    for unused in ("HTTPValidationError", "ValidationError"):
        components["schemas"].pop(unused, None)
    if not settings.api_reads_open:
        components.setdefault("securitySchemes", {})["HTTPBearer"] = {"type": "http", "scheme": "bearer"}
    app.openapi_schema = schema
    return schema
