"""What the driver's batched commits cost a result: CPU ms per candidate and its evaluation, written through
the search's recorder in batches of 50 (as the scheduler's group commits write them), with the rows inserted
into the tables (as the recorder does) or through the ORM's classes (as it did before 2026-11-29).

Each measurement writes 3,000 candidates and evaluations into a new SQLite database; the two ways alternate.

    python benchmarks/recorder_batches.py --out benchmarks/results/recorder_batches-cpu2.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from storage.test_recorder import evaluated, new_run  # noqa: E402

from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.storage import recorder  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.storage.tables import CandidateRow, EvaluationRow  # noqa: E402

BATCHES, PER_BATCH = 60, 50
SOURCE = (ROOT / "examples" / "matmul_epilogue" / "seed.py").read_text()


def one(tables: tuple[Any, Any]) -> float:
    """CPU ms a candidate and its evaluation, with ``tables`` as the recorder's candidates and evaluations."""
    db = open_database(f"sqlite:///{tempfile.mkdtemp()}/run.db")
    run_id = new_run(db, ROOT / "examples")
    recorder._CANDIDATES, recorder._EVALUATIONS = tables
    writer = recorder.RunRecorder(db, run_id)
    start = time.process_time()
    for b in range(BATCHES):
        with writer.batched():
            for i in range(PER_BATCH):
                n = b * PER_BATCH + i
                writer.add_candidate(Candidate(id=n, source=f"{SOURCE}\n# {n}\n", operator="template"))
                writer.add_evaluations([evaluated(n, cell=n % 200)])
    return (time.process_time() - start) * 1000 / (BATCHES * PER_BATCH)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    ways = {"tables": (recorder._CANDIDATES, recorder._EVALUATIONS), "orm classes": (CandidateRow, EvaluationRow)}
    measured: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, tables in ways.items():
            measured[name].append(one(tables))
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
              "cpu": platform.processor() or platform.machine(), "database": "sqlite",
              "batches": BATCHES, "per_batch": PER_BATCH,
              "ms_per_result": {name: {"runs": [round(v, 4) for v in values],
                                       "median": round(statistics.median(values), 4)}
                                for name, values in measured.items()}}
    for name, row in report["ms_per_result"].items():
        print(f"{name}: {row['median']:.3f} ms CPU a candidate and its evaluation (runs {row['runs']})")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
