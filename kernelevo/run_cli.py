"""``kernelevo run``, ``kernelevo runs`` and ``kernelevo import``: runs in the database, from a terminal.

    kernelevo run SPEC [--budget ...] [--model ...]     a new run (its id is printed first)
    kernelevo run --resume RUN_ID [--budget ...]        continue a run: after Ctrl-C, a crash, a killed driver
    kernelevo runs [--status S] [--limit N]             the runs in the database
    kernelevo import PATH [--spec SPEC ...]             a run directory or exported archives, into the database
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import socket
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from kernelevo.search.config import Budget, RunConfig
from kernelevo.settings import Settings
from kernelevo.storage.database import Database, open_database

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2


def database(args: argparse.Namespace) -> Database:
    """The database the command works on: ``--db`` (a SQLite file), ``KERNELEVO_DATABASE_URL``, or the default."""
    return open_database(Settings().resolved_database_url(getattr(args, "db", None)))


def fail(message: str) -> int:
    # soft_wrap: one line stays one line, however narrow the terminal (a log reader greps it)
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return EXIT_BAD_INPUT


def config_updates(args: argparse.Namespace) -> dict[str, Any]:
    """The run settings the command line names (only those: a resumed run keeps the rest)."""
    from kernelevo.variation.llm import LLMConfig

    updates: dict[str, Any] = {}
    if args.model:
        llm = {"model": args.model, "api_base": args.api_base, "api_key_env": args.api_key_env}
        updates["llm"] = LLMConfig(**{k: v for k, v in llm.items() if v is not None}).model_dump()
    if args.budget:
        updates["budget"] = Budget.parse(args.budget).model_dump()
    for flag in ("workers", "in_flight", "descriptors", "islands", "seed"):
        if getattr(args, flag) is not None:
            updates[flag] = getattr(args, flag)
    if args.targets:
        updates["targets"] = [t.strip() for t in args.targets.split(",") if t.strip()]
    if args.no_ray:
        updates["ray"] = False
    return updates


def _new_config(args: argparse.Namespace) -> RunConfig:
    config = RunConfig.load(args.config) if args.config else RunConfig()
    merged = {**config.model_dump(), **config_updates(args)}
    if args.device:
        merged["evaluation"] = {**merged["evaluation"], "device": args.device}
    return RunConfig.model_validate(merged)


def run(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.driver import RunSetupError, new_run, run_search, stored_config
    from kernelevo.search.display import LiveDisplay, LogDisplay, summary_rows
    from kernelevo.spec import SpecError, read_spec
    from kernelevo.storage.runs import RunBusy, RunNotFound

    if (args.spec is None) == (args.resume is None):
        return fail("give a spec to start a run, or --resume RUN_ID to continue one (kernelevo runs lists them)")
    try:
        db = database(args)
        if args.resume is None:
            spec = read_spec(args.spec)
            run_id = new_run(db, spec, _new_config(args), owner=f"{getpass.getuser()}@{socket.gethostname()}",
                             out=args.out)
        else:
            run_id = args.resume
            updates = config_updates(args)
            if args.device:
                updates["evaluation"] = {**stored_config(db, run_id).evaluation.model_dump(), "device": args.device}
            stored_config(db, run_id, updates)
    except (SpecError, ValueError, ValidationError, OSError, RunNotFound) as exc:
        return fail(str(exc).splitlines()[0] if isinstance(exc, ValidationError) else str(exc))
    console.print(f"run {run_id} in {db.describe()}", highlight=False)
    interactive = console.is_terminal and not args.plain
    if not interactive:
        logging.getLogger("kernelevo").setLevel(logging.INFO)
    display: LiveDisplay | LogDisplay = LiveDisplay(console) if interactive else LogDisplay()
    try:
        outcome = asyncio.run(run_search(db, run_id, on_start=display.attach, on_event=display.event,
                                         export_to=args.export_to))
    except (SpecError, RunSetupError, RunBusy) as exc:
        display.close()
        return fail(str(exc))
    display.close()
    console.print(f"[bold]stopped:[/] {outcome.reason}")
    table = Table(title=f"kernelevo run {run_id}: {outcome.loop.spec.name}", show_header=False)
    for key, value in summary_rows(outcome.progress, outcome.loop.config.budget):
        table.add_row(key, value)
    console.print(table)
    for path in outcome.exported:
        console.print(f"wrote {path}")
    console.print(f"continue it with: kernelevo run --resume {run_id}", highlight=False)
    return EXIT_OK if outcome.state.correct_count() else EXIT_REJECTED


def runs(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.storage.runs import list_runs, run_info

    db = database(args)
    with db.session() as session:
        infos = [run_info(session, row) for row in list_runs(session, status=args.status, limit=args.limit)]
    if args.json:
        print(json.dumps([info.model_dump(mode="json") for info in infos], indent=2))
        return EXIT_OK
    table = Table(title=f"runs in {db.describe()}")
    for column in ("id", "spec", "status", "hardware", "evaluations", "correct", "vs eager", "vs compile",
                   "roofline", "tokens", "$", "started"):
        left = column in ("spec", "status", "hardware", "started")
        table.add_column(column, justify="left" if left else "right", overflow="fold")
    for r in infos:
        def speed(x: float | None) -> str:
            return "-" if x is None else f"{x:.2f}x"

        table.add_row(str(r.id), r.spec_name, r.status.value, (r.hardware or "-") + (" (CPU)" if r.interpreted else ""),
                      str(r.evaluations), str(r.correct), speed(r.best_speedup_eager), speed(r.best_speedup_compile),
                      "-" if r.best_roofline is None else f"{r.best_roofline:.0%}", f"{r.tokens:,}",
                      f"{r.dollars:.2f}", r.started_at.strftime("%Y-%m-%d %H:%M") if r.started_at else "-")
    console.print(table)
    return EXIT_OK


def import_(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.importer import ImportError_, import_path

    try:
        db = database(args)
        imported = import_path(db, Path(args.path), spec_files=[Path(s) for s in args.spec or []])
    except (ImportError_, OSError) as exc:
        return fail(str(exc))
    for line in imported:
        console.print(line, highlight=False)
    return EXIT_OK if imported else EXIT_BAD_INPUT
