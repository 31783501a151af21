"""Reduction forms on a GPU: each form move on torch.compile's seeds, checked, then timed against its parent.

For each spec (by default the suite's row reductions that inductor may loop over), the seeds a run makes
from torch.compile are captured as a run captures them
(:func:`kernelevo.variation.seeding.compile_seeds.inductor_seeds`: the default module at every variant's
sizes, its generic kernels, and the ``looped-reductions`` structure where it changes them). Every move of
:mod:`kernelevo.variation.moves.reduction_forms` offered on a seed (looped rows made resident, single-program
rows split) is applied; the moved module is checked against the reference on every variant of the spec,
then parent and moved are timed on the timed variant with the project's timing
(:func:`kernelevo.evaluation.common.timing.time_callable`: L2 flushed before each call, CUDA events, the median).
One row a (spec, seed, move): GPU, parent ms, moved ms, speedup (parent / moved), correct.

    python benchmarks/reduction_forms.py --out benchmarks/results/reduction_forms-GPU.json
    python benchmarks/reduction_forms.py softmax_rows layernorm --out /tmp/forms.json

Without CUDA it says so and exits 0, measuring nothing (inductor writes Triton only for CUDA tensors).
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import importlib.util
import json
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

import torch
import triton
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation.common.compare import compare_outputs  # noqa: E402
from kernelevo.evaluation.common.timing import L2Flusher, time_callable  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.spec.loaded import LoadedSpec  # noqa: E402
from kernelevo.spec.spec import Spec  # noqa: E402
from kernelevo.variation.moves.reduction_forms import form_moves  # noqa: E402
from kernelevo.variation.source.source_text import Move, SourceText  # noqa: E402

SPECS = ("softmax_rows", "log_softmax_rows", "rmsnorm_dim1", "l2norm_rows", "cross_entropy", "sum_dim1", "layernorm")
STRUCTURES = ["looped-reductions"]  # inductor's looped kernels at the timed sizes, where it would not loop
SEED = 0  # inputs and weights, as the judge draws them for one trial
console = Console(stderr=True)


def _module(source: str, folder: Path, name: str) -> type:
    """``ModelNew`` of ``source``, imported from a file (Triton reads a kernel's source from its file)."""
    path = folder / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.ModelNew


class Bench:
    """A spec's reference outputs on every variant, and its timed variant's inputs, on the GPU."""

    def __init__(self, spec: Spec, device: torch.device) -> None:
        self.spec, self.device = spec, device
        self.loaded = LoadedSpec(spec)
        self.timed = spec.timing_variant(gpu=True)
        self.variants = spec.correctness_variants(gpu=True)
        self.flusher = L2Flusher(device)

    def _model(self, variant: str, cls: type | None = None) -> torch.nn.Module:
        """The reference's model, or ``cls`` built as it is with its same-named weights (as the judge does)."""
        model = self.loaded.model(variant, SEED, self.device, cls=cls)
        if cls is not None:
            reference = self.loaded.model(variant, SEED, self.device).state_dict()
            own = model.state_dict()
            model.load_state_dict({k: v for k, v in reference.items() if k in own and own[k].shape == v.shape},
                                  strict=False)
        return model

    def mismatch(self, cls: type) -> str | None:
        """Why ``cls`` computes something else than the reference on some variant; None where it does not."""
        for variant in self.variants:
            inputs = self.loaded.inputs(variant, SEED, self.device)
            expected = self.loaded.forward(self._model(variant), variant, inputs)
            got = self.loaded.forward(self._model(variant, cls), variant, inputs)
            dtype = str(expected[0].dtype).removeprefix("torch.")
            atol, rtol = self.spec.settings.tolerance(dtype)
            verdict = compare_outputs(got, expected, atol=atol, rtol=rtol, variant=variant, trial="benchmark")
            del inputs, expected, got
            if verdict is not None:
                return verdict.message
        return None

    def milliseconds(self, cls: type) -> float:
        """The median time (ms) of one call of ``cls``'s forward on the timed variant, L2 flushed before each."""
        model = self._model(self.timed, cls)
        inputs = self.loaded.inputs(self.timed, SEED, self.device)
        with torch.no_grad():
            run = time_callable(model, [inputs], device=self.device, flusher=self.flusher, warmup=3, warmup_ms=50,
                                min_reps=20, min_measure_ms=100, max_reps=1000, budget_ms=2000, target_rel_iqr=0.02)
        del model, inputs
        torch.cuda.empty_cache()
        return run.timing.median_ms


def _form_moves(source: str) -> list[Move]:
    return form_moves(source, ast.parse(source), SourceText(source))


def measure(path: Path, folder: Path, gpu: str) -> list[dict[str, Any]]:
    """The rows of one spec: one a move offered on one of its seeds, or one saying why there is none."""
    from kernelevo.variation.seeding.compile_seeds import inductor_seeds

    spec = read_spec(str(path))
    found = inductor_seeds(spec, structures=STRUCTURES)
    bench = Bench(spec, torch.device("cuda"))
    rows: list[dict[str, Any]] = []
    for index, (seed_name, source) in enumerate(found.seeds):
        moves = _form_moves(source)
        base = {"spec": spec.name, "seed": seed_name, "gpu": gpu}
        if not moves:
            rows.append(base | {"move": None, "reason": "no form move is offered"})
            continue
        parent = _module(source, folder, f"parent_{spec.name}_{index}")
        parent_wrong = bench.mismatch(parent)
        parent_ms = bench.milliseconds(parent)
        for number, move in enumerate(moves):
            row = base | {"move": move.label, "parent_ms": parent_ms, "parent_correct": parent_wrong is None}
            try:
                moved = _module(move.apply(), folder, f"moved_{spec.name}_{index}_{number}")
                wrong = bench.mismatch(moved)
                row |= {"correct": wrong is None, "mismatch": wrong}
                if wrong is None:
                    row["moved_ms"] = bench.milliseconds(moved)
                    row["speedup"] = parent_ms / row["moved_ms"]
            except Exception as exc:  # a move that does not compile or run is a row, not the end of the benchmark
                row |= {"correct": False, "error": f"{type(exc).__name__}: {exc}"[:2000]}
            console.print(_line(row))
            rows.append(row)
    return rows


def _line(row: dict[str, Any]) -> str:
    if "moved_ms" in row:
        return (f"{row['seed']}: {row['move']}: {row['parent_ms']:.4f} -> {row['moved_ms']:.4f} ms "
                f"({row['speedup']:.3f}x)")
    return f"{row['seed']}: {row['move']}: {'wrong: ' + str(row.get('mismatch')) if 'mismatch' in row else row}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", help=f"suite specs by name or path (default: {', '.join(SPECS)})")
    parser.add_argument("--out", type=Path, help="the JSON to write")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        console.print("No CUDA GPU here: inductor writes Triton only for CUDA tensors, and the timing needs one. "
                      "Nothing measured.")
        return 0
    paths = [Path(s) if s.endswith(".py") else ROOT / "benchmarks" / "suite" / f"{s}.py" for s in args.specs] \
        or [ROOT / "benchmarks" / "suite" / f"{s}.py" for s in SPECS]
    gpu = torch.cuda.get_device_name()
    report: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).isoformat(), "gpu": gpu, "torch": torch.__version__,
                              "triton": triton.__version__, "rows": []}
    with tempfile.TemporaryDirectory(prefix="kernelevo-forms-") as folder:
        for path in paths:
            try:
                report["rows"] += measure(path, Path(folder), gpu)
            except Exception as exc:  # one spec's failure is a row
                report["rows"].append({"spec": path.stem, "gpu": gpu, "error": f"{type(exc).__name__}: {exc}",
                                       "traceback": traceback.format_exc()[-2000:]})
            if args.out:  # after each spec: a run cut short keeps what it measured
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(report, indent=1))
    measured = [r for r in report["rows"] if "speedup" in r]
    console.print(f"{len(measured)} moves measured on {gpu}; "
                  f"{sum(not r.get('correct', True) for r in report['rows'])} wrong or failing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
