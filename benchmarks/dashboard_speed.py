"""The dashboard's speed on a long run, measured in the browser test (headless Chromium, real server).

Runs ``tests/dashboard/test_dashboard.py::test_a_run_of_ten_thousand_candidates...``: a run of
10,000 evaluated candidates written through the search's own writer, served by ``kernelevo
serve``; the run page is opened three times and timed until it is interactive (the archive
drawn and a click on a heatmap cell answered) and until its scatter shows every evaluation
(loaded after the page is up); then three new evaluations are written to the database as a
driver writes them, each timed until the open page shows it.
Targets: under 1 s to interactive; the scatter within 2 s; a new evaluation on the page within 2 s.

    python benchmarks/dashboard_speed.py --out benchmarks/results/dashboard_speed-cpu.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = ("tests/dashboard/test_dashboard.py::"
        "test_a_run_of_ten_thousand_candidates_loads_fast_and_shows_a_new_evaluation_at_once")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2, help="times to run the test (a fresh run and server each)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    measured: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        timings = Path(folder) / "timings.jsonl"
        for _ in range(args.repeats):
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST], cwd=ROOT,
                           env={**os.environ, "KERNELEVO_TIMINGS_OUT": str(timings)}, check=True)
        for line in timings.read_text().splitlines():
            row = json.loads(line)
            measured.setdefault(row["measure"], []).extend(row["seconds"])
    chromium = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True).stdout.strip()
    rows = [{"measure": name, "seconds": values, "max_s": max(values), "median_s": sorted(values)[len(values) // 2]}
            for name, values in measured.items()]
    for row in rows:
        print(f"{row['measure']}: median {row['median_s']:.3f} s, max {row['max_s']:.3f} s over {len(row['seconds'])}")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
            "cpus": os.cpu_count(), "browser": chromium, "candidates": 10_000,
            "targets": {"run page to interactive": "under 1 s", "every evaluation on the scatter": "within 2 s",
                        "a new evaluation shown": "within 2 s"},
            "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
