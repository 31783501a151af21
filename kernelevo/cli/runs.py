"""``kernelevo runs`` and ``kernelevo import``: what the database holds, listed or brought in.

    kernelevo runs [--status S] [--stop-kind K] [--limit N] [--json]   the runs in the database
    kernelevo import PATH [--spec SPEC ...]             a run directory or exported archives, into the database
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from kernelevo.cli.run import EXIT_BAD_INPUT, EXIT_OK, database, fail


def runs(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.cli.report import roofline_text
    from kernelevo.records.run import StopReason
    from kernelevo.storage.runs import list_runs, run_info

    if args.stop_kind is not None and args.stop_kind not in {k.value for k in StopReason}:
        Console(stderr=True).print(f"[bold red]error:[/] --stop-kind {args.stop_kind!r}: not one of "
                                   f"{', '.join(StopReason)}", highlight=False, soft_wrap=True)
        return EXIT_BAD_INPUT
    db = database(args, write=False)
    with db.session() as session:
        rows = list_runs(session, status=args.status, stop_kind=args.stop_kind, limit=args.limit)[0]
        infos = [run_info(session, row) for row in rows]
    if args.json:
        print(json.dumps([info.model_dump(mode="json") for info in infos], indent=2))
        return EXIT_OK
    table = Table(title=f"runs in {db.describe()}")
    for column in ("id", "spec", "status", "stopped", "hardware", "evaluations", "correct", "vs eager", "vs compile",
                   "roofline", "tokens", "$", "started"):
        left = column in ("spec", "status", "stopped", "hardware", "started")
        table.add_column(column, justify="left" if left else "right", overflow="fold")
    for r in infos:
        def speed(x: float | None) -> str:
            return "-" if x is None else f"{x:.2f}x"

        hardware = (r.hardware or "-") + (" (CPU)" if r.interpreted else "")
        table.add_row(str(r.id), r.spec_name, r.status.value, r.stop_kind or "-", hardware,
                      str(r.evaluations), str(r.correct), speed(r.best_speedup_eager), speed(r.best_speedup_compile),
                      roofline_text(r.best_roofline, r.best_roofline_floor), f"{r.tokens:,}",
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
