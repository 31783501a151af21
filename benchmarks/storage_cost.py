"""What storing a run costs: time and bytes per evaluated candidate, and resuming a run of 10,000 candidates.

A synthetic run is written through the search's own writer (``tests/synthetic_run.py``): each
candidate a real kernel source (the GELU seed with a changed block size), made, then
evaluated with a full GPU-shaped result (timings, baselines, roofline, compile metadata,
environment, memory), then a progress snapshot, as the loop does. Then the run is resumed
as ``kernelevo run --resume`` does: every record read back (:func:`load_run`) and replayed
into the archive (:func:`replay`, with the stored descriptors). Target: resume under 5 s.

    python benchmarks/storage_cost.py --candidates 10000 [--postgres URL|auto] --out results/storage_cost-cpu.json
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from synthetic_run import write_run  # noqa: E402

from kernelevo.archive.descriptors import descriptor_set  # noqa: E402
from kernelevo.search.state import replay  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.storage.recorder import load_run  # noqa: E402


@contextlib.contextmanager
def databases(postgres: str | None) -> Iterator[list[tuple[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        found = [("sqlite", f"sqlite:///{folder}/kernelevo.db")]
        if postgres == "auto":
            from postgres_server import postgres_url

            with postgres_url() as url:
                yield [*found, ("postgresql", url)]
            return
        if postgres:
            found.append(("postgresql", postgres))
        yield found


def measure(name: str, url: str, candidates: int) -> dict[str, Any]:
    db = open_database(url)
    written = write_run(db, candidates, descriptors="levels")
    ms = written["write_ms"]
    size = os.path.getsize(url.removeprefix("sqlite:///")) if url.startswith("sqlite") else None
    started = time.perf_counter()
    stored = load_run(db, written["run_id"])
    loaded = time.perf_counter() - started
    state = replay(stored, descriptors=descriptor_set("levels"), tie_tolerance=0.08, operators=["template"])
    resumed = time.perf_counter() - started
    assert state.evaluated_count() == candidates
    db.dispose()
    return {"database": name, "candidates": candidates, "write_ms_per_candidate_median": statistics.median(ms),
            "write_ms_per_candidate_p99": sorted(ms)[int(0.99 * len(ms))], "write_ms_max": max(ms),
            "bytes_per_candidate": size / candidates if size else None, "load_s": loaded, "resume_s": resumed,
            "cells": sum(len(a) for a in state.archives.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=10_000)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL, or 'auto' to start a throwaway server")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    with databases(args.postgres) as found:
        for name, url in found:
            row = measure(name, url, args.candidates)
            rows.append(row)
            print(f"{name}: {row['candidates']} candidates; write {row['write_ms_per_candidate_median']:.2f} ms "
                  f"(p99 {row['write_ms_per_candidate_p99']:.2f}); "
                  + (f"{row['bytes_per_candidate'] / 1024:.1f} KiB each; " if row["bytes_per_candidate"] else "")
                  + f"resume {row['resume_s']:.2f} s (reading {row['load_s']:.2f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
            "cpus": os.cpu_count(), "target": "resume of 10,000 candidates under 5 s", "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
