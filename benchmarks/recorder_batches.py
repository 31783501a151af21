"""What the driver's batched commits cost a result: the driver's CPU ms per candidate and its evaluation,
written through the search's recorder in batches of 50 (as the scheduler's group commits write them), with
the rows inserted into the tables (the recorder's transactions in the driver's process), through the ORM's
classes (as it did before 2026-11-29), or by the store's writer process (the driver builds the rows and
sends them; the writer's own CPU is reported beside).

Each measurement writes 3,000 candidates and evaluations into a new SQLite database; the ways alternate.

    python benchmarks/recorder_batches.py --out benchmarks/results/recorder_batches-writer-cpu2.json
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

from driver_ceiling import cpu_s  # noqa: E402  (this folder: a script's own is on the path)
from storage.test_recorder import evaluated, new_run  # noqa: E402

from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.storage import recorder, writes  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.storage.tables import CandidateRow, EvaluationRow  # noqa: E402

BATCHES, PER_BATCH = 60, 50
SOURCE = (ROOT / "examples" / "matmul_epilogue" / "seed.py").read_text()


def one(tables: tuple[Any, Any], writer_process: bool) -> tuple[float, float]:
    """The driver's and the writer process's CPU ms a candidate and its evaluation, with ``tables`` as the
    candidates and evaluations the rows go into."""
    db = open_database(f"sqlite:///{tempfile.mkdtemp()}/run.db")
    run_id = new_run(db, ROOT / "examples")
    writes._CANDIDATES, writes._EVALUATIONS = tables
    writer = recorder.RunRecorder(db, run_id, writer_process=writer_process)
    results = BATCHES * PER_BATCH
    with writer.batched():  # (the process starts here, outside the measurement)
        start, process_cpu = time.process_time(), 0.0
        started_cpu = cpu_s(writer.process.pid) if writer.process is not None else 0.0  # (its start-up)
        for b in range(BATCHES):
            for i in range(PER_BATCH):
                n = b * PER_BATCH + i
                writer.add_candidate(Candidate(id=n, source=f"{SOURCE}\n# {n}\n", operator="template"))
                writer.add_evaluations([evaluated(n, cell=n % 200)])
            writer.commit()
        driver = time.process_time() - start
        writer.sync()
        if writer.process is not None:
            process_cpu = cpu_s(writer.process.pid) - started_cpu
    stored = len(recorder.load_run(db, run_id).evaluations)
    assert stored == results, f"{stored} of {results} evaluations stored"
    return driver * 1000 / results, process_cpu * 1000 / results



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    tables = (writes._CANDIDATES, writes._EVALUATIONS)
    ways = {"tables": (tables, False), "orm classes": ((CandidateRow, EvaluationRow), False),
            "writer process": (tables, True)}
    measured: dict[str, list[float]] = {name: [] for name in ways}
    beside: list[float] = []  # the writer process's own CPU ms a result
    for _ in range(args.rounds):
        for name, (into, process) in ways.items():
            driver, writer = one(into, process)
            measured[name].append(driver)
            if process:
                beside.append(writer)
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
              "cpu": platform.processor() or platform.machine(), "database": "sqlite",
              "batches": BATCHES, "per_batch": PER_BATCH,
              "ms_per_result": {name: {"runs": [round(v, 4) for v in values],
                                       "median": round(statistics.median(values), 4)}
                                for name, values in measured.items()},
              "writer_process_own_ms_per_result": {"runs": [round(v, 4) for v in beside],
                                                   "median": round(statistics.median(beside), 4)}}
    for name, row in report["ms_per_result"].items():
        print(f"{name}: {row['median']:.3f} ms of the driver's CPU a candidate and its evaluation (runs {row['runs']})")
    print(f"the writer process's own: {report['writer_process_own_ms_per_result']['median']:.3f} ms a result")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
