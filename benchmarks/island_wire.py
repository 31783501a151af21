"""What the messages between the driver and its island actors cost to pickle and unpickle, per message: a batch of
tells (an island's own candidates told by reference with their simulated results and descriptors, as
``benchmarks/driver_ceiling.py`` makes them) and a batch of answers (``Asked``, each with a matmul candidate), through
Ray's cloudpickle (what Ray does with a call's arguments and return values) and through the standard pickler
(``kernelevo.distributed.island_channel.packed``, since 2026-12-03). On this machine's CPU; the medians of
``--repeats`` timings of ``--batch`` messages each.

    python benchmarks/island_wire.py --out benchmarks/results/island_wire-cpu2.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ray import cloudpickle  # noqa: E402

from kernelevo.archive.descriptors import descriptor_set  # noqa: E402
from kernelevo.distributed.island_channel import packed, unpacked  # noqa: E402
from kernelevo.distributed.simulated import made_up_measures, simulated_result  # noqa: E402
from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.search.island import Asked, ToldOwn  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402


def messages(batch: int) -> dict[str, list[Any]]:
    source = read_spec(str(ROOT / "examples" / "matmul_epilogue" / "spec.py")).seed_sources()[0][1]
    names = [d.name for d in descriptor_set("levels")]
    tells, answers = [], []
    for i in range(batch):
        kernel = f"{source}\n# variant {i}"
        measures = made_up_measures(kernel, names)
        result = simulated_result(kernel, 0.0)
        tells.append(ToldOwn(i, f"{i:064x}", [("simulated", result, [measures[n] for n in names])]))
        answers.append(Asked(island=0, incarnation="0123456789ab", source_hash=f"{i:064x}",
                             candidate=Candidate(id=0, source=kernel, operator="template", island=0, parent_ids=[1])))
    return {"tells": tells, "answers": answers}


def per_message_us(work: Callable[[], Any], batch: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) / batch * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=300)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for kind, batch in messages(args.batch).items():
        for way, dumps in (("ray cloudpickle", cloudpickle.dumps), ("standard pickle (packed)", packed)):
            data = dumps(batch)
            dumps_us = per_message_us(lambda d=dumps, b=batch: d(b), len(batch), args.repeats)
            loads_us = per_message_us(lambda d=data: unpacked(d), len(batch), args.repeats)
            rows.append({"messages": kind, "pickler": way, "bytes_per_message": len(data) / len(batch),
                         "dumps_us_per_message": dumps_us, "loads_us_per_message": loads_us})
            print(f"{kind:8} {way:25} dumps {rows[-1]['dumps_us_per_message']:6.1f} us  "
                  f"loads {rows[-1]['loads_us_per_message']:6.1f} us  {rows[-1]['bytes_per_message']:.0f} B a message")
    if args.out:
        args.out.write_text(json.dumps({
            "measured": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
            "cpu": platform.processor() or platform.machine(), "python": platform.python_version(),
            "batch": args.batch, "repeats": args.repeats, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
