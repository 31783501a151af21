"""``kernelevo pool status | stop``: the Ray cluster's shared evaluator pool, from a terminal.

    kernelevo pool status [--address HOST:PORT] [--json]   its actors, runs, shares, queues and judges
    kernelevo pool stop [--address HOST:PORT] [--force]    end it and its evaluator actors: their GPUs are free

The pool lives on a Ray cluster (``RAY_ADDRESS``, or ``--address``); a command that finds no
cluster there, or no pool on it, says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket

from rich.console import Console
from rich.table import Table

from kernelevo.cli.run import EXIT_OK, fail
from kernelevo.records.pool import PoolSnapshot

PROBE_S = 3.0  # how long the cluster's address may take to accept a connection (ray.init waits minutes)


def pool(args: argparse.Namespace, console: Console) -> int:
    problem = attach(args.address or os.environ.get("RAY_ADDRESS"))
    if problem is not None:
        return fail(problem)
    from kernelevo.distributed.shared_client import read_snapshot, stop_shared_pool

    snapshot = read_snapshot()
    if not snapshot.exists:
        return fail(snapshot.note)
    if args.action == "status":
        if args.json:
            print(snapshot.model_dump_json(indent=2))
        else:
            print_snapshot(console, snapshot)
        return EXIT_OK
    if snapshot.runs and not args.force:
        runs = ", ".join(r.run_id for r in snapshot.runs)
        return fail(f"the shared evaluator pool serves {len(snapshot.runs)} run(s) ({runs}): stop them first "
                    "(kernelevo's API, or Ctrl-C in their drivers), or pass --force")
    stop_shared_pool()
    console.print(f"stopped the shared evaluator pool: {len(snapshot.actors)} evaluator actor(s) ended, "
                  f"{snapshot.gpus} GPU(s) in the cluster", highlight=False)
    return EXIT_OK


def attach(address: str | None) -> str | None:
    """Connect to the Ray cluster at ``address``; why not, in one line, or None."""
    import ray

    if not address:
        return ("no Ray cluster named: set RAY_ADDRESS or pass --address HOST:PORT (a run that started a local Ray "
                "of its own shares no pool with other processes)")
    unreachable = _unreachable(address)
    if unreachable is not None:
        return unreachable
    try:
        ray.init(address=address, log_to_driver=False, configure_logging=False, logging_level=logging.ERROR)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        return f"no Ray cluster at {address}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    return None


def _unreachable(address: str) -> str | None:
    """Why HOST:PORT accepts no connection (ray.init would wait minutes for it), or None; other forms
    (auto, ray://...) are left to Ray."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return None
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_S):
            return None
    except OSError as exc:
        return f"no Ray cluster answers at {address} ({exc.strerror or type(exc).__name__})"


def print_snapshot(console: Console, snapshot: PoolSnapshot) -> None:
    """The snapshot as three tables: actors, runs, warm judges."""
    window = f"last {snapshot.window_s / 60:.0f} min"
    console.print(f"{snapshot.name}: {snapshot.note}; utilisation {snapshot.utilisation:.0%} ({window}), "
                  f"{snapshot.queued} queued, {snapshot.requeued} re-evaluated after a death, {snapshot.crashed} "
                  "crashed twice", highlight=False)
    actors = Table(title="Evaluator actors")
    for column in ("actor", "host (GPU)", "state", "judges warm", "serving", "slots", f"utilisation ({window})",
                   "evaluations"):
        numeric = column in ("actor", "slots", "evaluations") or column.startswith("utilisation")
        actors.add_column(column, justify="right" if numeric else "left")
    for a in snapshot.actors:
        actors.add_row(f"#{a.index}", f"{a.host or '-'}{f' (GPU {a.gpus})' if a.gpus else ''}",
                       "up" if a.alive else "restarting", ", ".join(a.judges) or "none",
                       ", ".join(a.serving) or "idle", str(a.slots), f"{a.utilisation:.0%}", str(a.evaluations))
    console.print(actors)
    if not snapshot.runs:
        console.print("no run uses the pool now", highlight=False)
    else:
        runs = Table(title="Runs")
        for column in ("run", "spec", "weight", f"share ({window})", "evaluations", "queued", "in flight"):
            runs.add_column(column, justify="left" if column in ("run", "spec") else "right")
        for r in snapshot.runs:
            runs.add_row(r.run_id, r.spec, f"{r.weight:g}", f"{r.share:.0%}", str(r.evaluations), str(r.queued),
                         str(r.in_flight))
        console.print(runs)
    judges = Table(title="Warm judges")
    for column in ("spec", "options", "runs", "prepared"):
        judges.add_column(column)
    for j in snapshot.judges:
        judges.add_row(j.spec, j.options, ", ".join(j.runs) or "none (kept warm)", "yes" if j.prepared else "not yet")
    console.print(judges)
