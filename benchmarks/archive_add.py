"""What an archive add costs: ``ElitesArchive.add`` over 5,000 offers into the "levels" grid (4 x 4 x 4 cells, most
offers worse than their cell's elite, as in a search), pyribs' ``add_single``, and reading every elite back from
pyribs as ``Elite`` records (what ``elites()`` did after each change until 2026-12-03), each per call, on this
machine's CPU. Run from an older tree's root, it measures that version's add.

    python benchmarks/archive_add.py --out benchmarks/results/archive_add-cpu2.json
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from kernelevo.archive.descriptors import descriptor_set  # noqa: E402
from kernelevo.archive.elites import ElitesArchive  # noqa: E402
from kernelevo.records.elite import Elite  # noqa: E402


def measure(offers: int, seed: int) -> dict[str, object]:
    descriptors = descriptor_set("levels")
    archive = ElitesArchive(descriptors, seed=seed)
    rng = random.Random(seed)
    points = [(tuple(rng.uniform(d.low, d.high) for d in descriptors), rng.random()) for _ in range(offers)]
    started = time.perf_counter()
    statuses = collections.Counter(str(archive.add(i, objective, measures, 0.01).status)
                                   for i, (measures, objective) in enumerate(points))
    add_us = (time.perf_counter() - started) / offers * 1e6
    archive.qd_score  # noqa: B018 (pyribs takes what waits, outside the timings below)
    started = time.perf_counter()
    for i in range(200):  # each above every elite: pyribs inserts all of them
        archive.grid.add_single(i, 5.0 + i, np.asarray(points[i][0]), candidate_id=i, rel_iqr=0.0)
    add_single_us = (time.perf_counter() - started) / 200 * 1e6
    started = time.perf_counter()
    for _ in range(200):
        data = archive.grid.data()
        [Elite(int(cid), float(obj), tuple(float(m) for m in meas), int(idx), float(iqr))
         for cid, obj, meas, idx, iqr in zip(data["candidate_id"], data["objective"], data["measures"],
                                              data["index"], data["rel_iqr"], strict=True)]
    read_back_us = (time.perf_counter() - started) / 200 * 1e6
    return {"offers": offers, "statuses": dict(statuses), "elites": len(archive.grid),
            "add_us": round(add_us, 1), "pyribs_add_single_us": round(add_single_us, 1),
            "pyribs_read_back_us": round(read_back_us, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offers", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    runs = [measure(args.offers, seed) for seed in range(args.repeats)]
    for run in runs:
        print(run)
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.node()}: {platform.processor() or platform.machine()}, CPU only (shared with "
                       "other work: indicative numbers)",
            "runs": runs}, indent=2))


if __name__ == "__main__":
    main()
