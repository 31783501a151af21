"""Where a kernel's time goes: each GPU kernel of one forward call, with Nsight Compute's DRAM traffic.

For each spec, the archived best kernel (``archives/GPU/SPEC/best.py``) and ``torch.compile``'s own
kernels run one forward call at the spec's size under ``ncu``; every kernel launched inside that
call is listed with its duration, the bytes it read from and wrote to DRAM, its DRAM throughput (%
of peak) and its L2 hit rate. Beside the totals stand the bytes the call must move at least (each
input read once, each output written once): where the DRAM bytes are well above them, the kernel
reads its data more than once, and the note says why that is or is not avoidable.

ncu runs with ``--replay-mode application --cache-control none``: the whole call is replayed once per
metric pass and caches are left as a real run leaves them, so L2 reuse between a reduction and the
kernel after it (the point of a resident form) is counted as in the timing, and no flush of ncu's
own hides it. ``--clock-control none`` keeps the clocks the timing sees (GPU.md).

    python benchmarks/where_time_goes.py --gpu h200 --specs layernorm,cross_entropy,frobenius_norm \
        --out benchmarks/results/where_time_goes-h200.json

Without CUDA or ``ncu`` it says so and exits 0 with nothing measured.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# What else may hold a kernel below the DRAM's peak: its L1 (shifted window loads that hit there), its SMs'
# issue (index arithmetic, selects) and how many warps it keeps in flight. Reports made before these were
# asked for lack them.
OPTIONAL = {"l1_throughput_pct": "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
            "sm_throughput_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active"}
METRICS = ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct", *OPTIONAL.values())
RANGE = "kernelevo_measure"


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_child(spec_path: Path, which: str, kernel: Path | None) -> None:
    """One forward call of ``which`` ("best" or "compile") inside an NVTX range, after warm-up calls."""
    import torch

    problem = _module(spec_path, "spec_under_profile")
    torch.manual_seed(0)
    init = problem.get_init_inputs()
    reference = problem.Model(*init).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in problem.get_inputs()]
    if which == "compile":
        model: Any = torch.compile(reference)
    else:
        assert kernel is not None
        model = _module(kernel, "kernel_under_profile").ModelNew(*init).cuda()
        model.load_state_dict(reference.state_dict(), strict=False)
    with torch.no_grad():
        for _ in range(3):
            model(*inputs)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_push(RANGE)
        model(*inputs)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    floor_bytes = sum(x.numel() * x.element_size() for x in inputs if isinstance(x, torch.Tensor))
    floor_bytes += sum(p.numel() * p.element_size() for p in reference.parameters())
    out = reference(*inputs)
    outs = out if isinstance(out, (tuple, list)) else [out]
    floor_bytes += sum(o.numel() * o.element_size() for o in outs if isinstance(o, torch.Tensor))
    print(f"FLOOR_BYTES {floor_bytes}", file=sys.stderr)


def family_kernels(spec: str, folder: Path) -> list[tuple[str, Path]]:
    """The kernel families' seeds for a suite spec, written to ``folder``: (seed name, file)."""
    from kernelevo.spec import read_spec
    from kernelevo.variation.seeding.families import family_seeds
    from kernelevo.variation.seeding.families.tracer import trace

    loaded = read_spec(str(ROOT / "benchmarks" / "suite" / f"{spec}.py"))
    found = []
    for name, source in family_seeds(loaded.name, trace(loaded)).seeds:
        path = folder / f"{name}.py"
        path.write_text(source)
        found.append((name.removeprefix(f"{spec}-"), path))
    return found


def _number(row: dict[str, str], metric: str) -> float:
    return float(row[metric].replace(",", ""))  # ncu may group thousands


def _pct(value: float | None) -> str:
    return "  -  " if value is None else f"{value:4.0f}%"


def kernels_of(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Each kernel row of ncu's raw CSV page (a row of units, if any, is skipped: it does not parse)."""
    kernels = []
    for row in rows:
        try:
            kernel = {
                "kernel": row["Kernel Name"][:120],
                "duration_us": _number(row, "gpu__time_duration.sum") / 1e3,
                "dram_read_mb": _number(row, "dram__bytes_read.sum") / 1e6,
                "dram_write_mb": _number(row, "dram__bytes_write.sum") / 1e6,
                "dram_throughput_pct": _number(row, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                "l2_hit_pct": _number(row, "lts__t_sector_hit_rate.pct"),
            }
        except (KeyError, ValueError):
            continue
        for key, metric in OPTIONAL.items():
            try:
                kernel[key] = _number(row, metric)
            except (KeyError, ValueError):
                kernel[key] = None
        kernels.append(kernel)
    return kernels


def profile(spec: str, which: str, kernel: Path | None, replay: str = "application") -> dict[str, Any]:
    """Run the child under ncu; its kernels and totals."""
    command = ["ncu", "--clock-control", "none", "--cache-control", "none", "--replay-mode", replay,
               "--nvtx", "--nvtx-include", f"{RANGE}/", "--metrics", ",".join(METRICS), "--csv",
               "--page", "raw", "--print-units", "base", sys.executable, __file__, "--child", spec, "--which", which]
    if kernel is not None:
        command += ["--kernel", str(kernel)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    floor = next((int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("FLOOR_BYTES")),
                 None)
    text = done.stdout[done.stdout.find('"ID"'):] if '"ID"' in done.stdout else ""
    rows = list(csv.DictReader(io.StringIO(text)))
    if done.returncode != 0 or not rows:
        return {"which": which, "error": (done.stderr or done.stdout)[-2000:]}
    kernels = kernels_of(rows)
    if not kernels:
        return {"which": which, "error": "no kernel row parsed: " + text[:1500]}
    total_us = sum(k["duration_us"] for k in kernels)
    dram_mb = sum(k["dram_read_mb"] + k["dram_write_mb"] for k in kernels)
    return {"which": which, "kernels": kernels, "total_us": total_us, "dram_mb": dram_mb,
            "must_move_mb": floor / 1e6 if floor else None,
            "dram_over_must_move": dram_mb / (floor / 1e6) if floor else None,
            "dram_gbs": dram_mb / 1e3 / (total_us / 1e6) if total_us else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--specs", default="layernorm,cross_entropy,frobenius_norm")
    parser.add_argument("--gpu", default="h200", help="the archives/GPU folder whose best kernels to profile")
    parser.add_argument("--out", default=None)
    parser.add_argument("--replay", choices=("application", "kernel"), default="application",
                        help="ncu's replay: application (caches as in a run; the whole process once per metric pass)"
                             " or kernel (the process once: a fifth of the time; a kernel's later passes find L2 as"
                             " its first left it, which only inputs that fit in L2 notice)")
    parser.add_argument("--families", action="store_true",
                        help="also profile the kernel families' seeds for each spec (traced here, as a search does)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--which", default="best", help=argparse.SUPPRESS)
    parser.add_argument("--kernel", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(ROOT / "benchmarks" / "suite" / f"{args.child}.py", args.which,
                  Path(args.kernel) if args.kernel else None)
        return
    import torch

    if not torch.cuda.is_available() or shutil.which("ncu") is None:
        print("where_time_goes: needs a CUDA GPU and Nsight Compute (ncu) on PATH; nothing measured")
        return
    report: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                              "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                              "ncu": f"--replay-mode {args.replay} --cache-control none --clock-control none",
                              "specs": {}}
    for spec in args.specs.split(","):
        best = ROOT / "archives" / args.gpu / spec / "best.py"
        entry = [profile(spec, "compile", None, args.replay)]
        if best.exists():
            entry.append(profile(spec, "best", best, args.replay))
        if args.families:
            for name, path in family_kernels(spec, Path(tempfile.mkdtemp(prefix="kernelevo-families-"))):
                entry.append(profile(spec, name, path, args.replay))
        report["specs"][spec] = entry
        for part in entry:
            if "error" in part:
                print(f"{spec:18s} {part['which']:8s} failed: {part['error'][-300:]}")
                continue
            print(f"{spec:18s} {part['which']:8s} {part['total_us']:9.1f} us  DRAM {part['dram_mb']:8.1f} MB"
                  f" (must move {part['must_move_mb']:.1f} MB, x{part['dram_over_must_move']:.2f})"
                  f"  {part['dram_gbs']:.0f} GB/s")
            for k in part["kernels"]:
                print(f"    {k['duration_us']:8.1f} us  R {k['dram_read_mb']:7.1f} MB  W {k['dram_write_mb']:7.1f} MB"
                      f"  {k['dram_throughput_pct']:5.1f}% DRAM  L2 hit {k['l2_hit_pct']:5.1f}%"
                      f"  L1 {_pct(k['l1_throughput_pct'])}  SM {_pct(k['sm_throughput_pct'])}"
                      f"  warps {_pct(k['occupancy_pct'])}  {k['kernel'][:60]}")
        if args.out:  # after each spec: a call cut short keeps the specs it finished
            Path(args.out).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
