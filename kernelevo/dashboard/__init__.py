"""The dashboard: static files (HTML, CSS, a little JavaScript of our own) that read only the REST API.

Served by ``kernelevo serve`` at ``/``; nothing is loaded from another host. The pages:
runs (``#/``), a run with its live progress, a scatter of every evaluation and its archive
heatmap (``#/runs/ID``), every evaluation of a run as a list to filter, compare and export
(``#/runs/ID/evaluations``), its rejected candidates by stage and reason (``#/runs/ID/rejected``),
a kernel with its evaluation, library calls, lineage and diffs (``#/candidates/ID``), two kernels
or two runs side by side (``#/compare/candidates/A/B``, ``#/compare/runs/A/B``), a run's
meta-prompts (``#/runs/ID/prompts``) and a form to submit a spec (``#/submit``).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"


def mount_dashboard(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
