"""Peak GPU memory of an evaluation against the spec's live data D, up to KernelBench's sizes.

For the RMSNorm example at three sizes (0.5, 2 and 7 GiB of input, as many of output) and
the online softmax at KernelBench's size (4096 x 393216 fp32: 6 GiB in, 6 GiB out), an
honest kernel (the example's seed) is judged, and the result's memory record is reported:
D, the judge's and the child's allocator peaks, the child's limit and what the GPU had.
Target: the honest kernel is accepted, and judge + child stay within 5 x D + 4 GiB (the
largest is also judged with the evaluation capped at exactly 5 x D + 4 GiB).

    python benchmarks/memory_scale.py --out benchmarks/results/memory_scale-h100.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation import EvalOptions, Evaluator  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402

GIB = 1 << 30
# (example, seed, sizes of the module globals, whether to judge it again capped at 5 x D + 4 GiB)
CASES = [
    ("rmsnorm", "seed.py", {"batch_size": 16, "features": 128, "dim1": 256, "dim2": 256}, False),
    ("rmsnorm", "seed.py", {"batch_size": 64, "features": 64, "dim1": 512, "dim2": 256}, False),
    ("rmsnorm", "seed.py", {"batch_size": 112, "features": 64, "dim1": 512, "dim2": 512}, True),
    ("softmax", "seed_online.py", {"batch_size": 4096, "dim": 393216}, False),
]


def sized_spec(example: str, sizes: dict[str, int], folder: Path) -> Path:
    """The example's spec with its default sizes replaced."""
    source = (ROOT / "examples" / example / "spec.py").read_text()
    for name, value in sizes.items():
        source, count = re.subn(rf"^{name} = \d+$", f"{name} = {value}", source, flags=re.M)
        assert count == 1, f"{example}: no line '{name} = N'"
    path = folder / f"{example}-{'x'.join(str(v) for v in sizes.values())}.py"
    path.write_text(source)
    return path


def judge(spec_path: Path, seed: str, cap_gb: float | None) -> dict[str, Any]:
    options = EvalOptions(device="cuda", baselines=["eager"], gpu_memory_gb=cap_gb)
    started = time.perf_counter()
    with Evaluator(read_spec(str(spec_path)), options) as evaluator:
        result = evaluator.evaluate(seed)
    m = result.memory
    row: dict[str, Any] = {"ok": result.ok, "error": result.error, "message": result.message[:300],
                           "wall_s": time.perf_counter() - started, "cap_gb": cap_gb,
                           "kernel_ms": result.kernel.median_ms if result.kernel else None,
                           "speedup_eager": result.speedup_eager}
    if m is not None:
        row.update(m.model_dump())
        live = m.live_data_bytes
        row["target_bytes"] = 5 * live + 4 * GIB
        row["peaks_sum_bytes"] = (m.judge_peak_bytes or 0) + (m.child_peak_bytes or 0)
        row["within_target"] = row["peaks_sum_bytes"] <= row["target_bytes"]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    console = Console()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for example, seed_name, sizes, capped in CASES:
            spec_path = sized_spec(example, sizes, Path(folder))
            seed = (ROOT / "examples" / example / seed_name).read_text()
            runs = [None]
            for cap in runs:
                row = {"example": example, "seed": seed_name, "sizes": sizes, **judge(spec_path, seed, cap)}
                rows.append(row)
                console.print(f"{spec_path.name} cap {cap}: ok={row['ok']} {row.get('error') or ''} "
                              f"D={row.get('live_data_bytes', 0) / GIB:.2f} GiB judge "
                              f"{(row.get('judge_peak_bytes') or 0) / GIB:.2f} child "
                              f"{(row.get('child_peak_bytes') or 0) / GIB:.2f}")
                if capped and cap is None and row.get("live_data_bytes"):
                    runs.append(row["target_bytes"] / GIB)
    table = Table(title=f"evaluation memory on {torch.cuda.get_device_name()} (GiB)")
    for column in ("spec", "input", "D", "judge peak", "child peak", "sum", "5D+4", "child limit", "GPU", "cap",
                   "accepted"):
        table.add_column(column, justify="right")
    for r in rows:
        live = r.get("live_data_bytes") or 0

        def g(key: str, row: dict[str, Any] = r) -> str:
            return f"{(row.get(key) or 0) / GIB:.2f}"

        inputs = 4 * math.prod(r["sizes"].values())  # one fp32 input of every size global's product
        table.add_row(f"{r['example']} {'x'.join(map(str, r['sizes'].values()))}", f"{inputs / GIB:.2f}",
                      f"{live / GIB:.2f}", g("judge_peak_bytes"), g("child_peak_bytes"), g("peaks_sum_bytes"),
                      g("target_bytes"), g("child_limit_bytes"), g("device_bytes"),
                      "-" if r["cap_gb"] is None else f"{r['cap_gb']:.1f}", "yes" if r["ok"] else str(r["error"]))
    console.print(table)
    if args.out:
        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                  "device": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "target": "accepted, and judge + child peaks within 5 x D + 4 GiB", "rows": rows}
        Path(args.out).write_text(json.dumps(report, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
