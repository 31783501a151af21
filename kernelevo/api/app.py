"""The REST API (FastAPI): specs, runs and their archives, candidates, prompts; ``kernelevo serve`` runs it,
with the dashboard at ``/``.

It reads and writes the database and starts runs (:mod:`kernelevo.api.launcher`); it never
imports a spec or a kernel: a submitted spec is checked in an isolated child, and runs are
driven by processes of their own. Every mutating route needs a bearer token; reads are open
unless ``KERNELEVO_API_READS_OPEN=false``; CORS is off unless origins are configured; the
server binds 127.0.0.1 unless told otherwise. OpenAPI is at ``/docs``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse

import kernelevo
from kernelevo.api.launcher import RunLauncher
from kernelevo.api.routes import candidates, compare, evaluations, exports, meta, prompts, runs, specs
from kernelevo.api.schemas import Problem
from kernelevo.dashboard import mount_dashboard
from kernelevo.settings import Settings
from kernelevo.storage.database import Database
from kernelevo.storage.runs import RunNotFound


def create_app(db: Database, settings: Settings | None = None, *, launch_runs: bool = True) -> FastAPI:
    """The API over ``db``; with ``launch_runs`` it also starts queued runs as slots free up."""
    settings = settings or Settings()
    launcher = RunLauncher(db, settings) if launch_runs else None

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(launcher.run()) if launcher else None
        yield
        if task is not None:
            task.cancel()
            launcher.close()  # type: ignore[union-attr]

    app = FastAPI(title="kernelevo", version=kernelevo.__version__, lifespan=lifespan,
                  description="Faster GPU kernels by quality-diversity search: submit specs, drive runs, read "
                              "archives. Mutating routes need `Authorization: Bearer <token>` "
                              "(`kernelevo token create NAME`).")
    app.state.db, app.state.settings, app.state.launcher = db, settings, launcher
    for router in (specs.router, runs.router, candidates.router, candidates.by_number, prompts.router, meta.router):
        app.include_router(router)
    app.include_router(evaluations.router)
    app.include_router(exports.router)
    app.include_router(compare.router)
    if settings.api_cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.api_cors_origins, allow_methods=["*"],
                           allow_headers=["*"])

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Any:
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > 2 * settings.api_max_spec_bytes:
            return JSONResponse({"detail": f"the request is {length} bytes; this server takes at most "
                                           f"{2 * settings.api_max_spec_bytes}"}, status_code=413)
        return await call_next(request)

    @app.exception_handler(RunNotFound)
    async def not_found(_: Request, exc: RunNotFound) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # one line a person reads, as every other error here: "body.spec_id: Input should be ..."
        problems = ["{}: {}".format(".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()]
        return JSONResponse({"detail": "; ".join(problems[:5])}, status_code=422)

    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]

    mount_dashboard(app)

    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with every 422 described as what the handler above sends: a one-line detail."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = Problem.model_json_schema()
    for operations in schema["paths"].values():
        for operation in operations.values():
            if "422" in operation.get("responses", {}):
                operation["responses"]["422"] = {
                    "description": "the request is malformed: the detail says where and why",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    for unused in ("HTTPValidationError", "ValidationError"):
        schema["components"]["schemas"].pop(unused, None)
    app.openapi_schema = schema
    return schema

