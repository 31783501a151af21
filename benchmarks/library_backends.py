"""Which vendor kernel behind the same torch call is fastest, on the suite's library-bound specs, on a GPU.

Ten of the suite's specs stand at 0.99x to 1.00x torch.compile on an H200: their time is one cuBLAS
GEMM or one flash-attention call, the same call torch.compile makes. The library policy lets a
candidate hand these ops to the vendor libraries through torch, and torch has more than one vendor
kernel behind each call: cuBLAS or cuBLASLt behind a GEMM (``torch.backends.cuda.preferred_blas_library``),
flash, memory-efficient or cuDNN attention behind ``scaled_dot_product_attention``
(``torch.nn.attention.sdpa_kernel``). This script times each choice against torch.compile's default
on the same inputs, interleaved in rounds, and reports each output's largest difference from the
reference's, so that the search's library-choice move is offered only where a choice can win:

    python benchmarks/library_backends.py --out benchmarks/results/library_backends-h100.json
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import statistics
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.spec.loaded import LoadedSpec  # noqa: E402

SUITE = ROOT / "benchmarks" / "suite"
GEMM_SPECS = ["matmul_square", "matmul_batched", "matmul_large_k", "tensor4d_matmul", "matmul_transposed_b_fp16",
              "mlp_sequential", "gemm_groupnorm_swish_multiply_swish", "transformer_block"]
ATTENTION_SPECS = ["sdpa_fp16", "sdpa_causal_bf16", "transformer_block"]


@contextlib.contextmanager
def blas(name: str) -> Iterator[None]:
    before = torch.backends.cuda.preferred_blas_library()
    torch.backends.cuda.preferred_blas_library(name)
    try:
        yield
    finally:
        torch.backends.cuda.preferred_blas_library(before)


def attention(backend: str) -> contextlib.AbstractContextManager[None]:
    from torch.nn.attention import SDPBackend, sdpa_kernel
    return sdpa_kernel([getattr(SDPBackend, backend)])


def choices(name: str) -> dict[str, Callable[[], contextlib.AbstractContextManager[None]]]:
    out: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {"default": contextlib.nullcontext}
    if name in GEMM_SPECS:
        out["cublaslt"] = lambda: blas("cublaslt")
    if name in ATTENTION_SPECS:
        for backend in ("FLASH_ATTENTION", "EFFICIENT_ATTENTION", "CUDNN_ATTENTION"):
            out[backend.lower()] = lambda backend=backend: attention(backend)
    return out


def time_ms(fn: Callable[[], object]) -> float:
    import triton.testing
    return float(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))


def measure(name: str, rounds: int) -> dict:
    spec = read_spec(SUITE / f"{name}.py")
    problem = LoadedSpec(spec)
    device = torch.device("cuda")
    model = problem.model("default", 0, device).eval()
    inputs = problem.inputs("default", 1, device)
    compiled = torch.compile(model)
    with torch.no_grad():
        expected = model(*inputs).float()
    runs: dict[str, Callable[[], object]] = {}
    errors: dict[str, float | str] = {}
    for label, ctx in choices(name).items():
        for kind, fn in (("eager", model), ("compile", compiled)):
            key = f"{kind}:{label}"

            def run(fn=fn, ctx=ctx) -> object:
                with ctx(), torch.no_grad():
                    return fn(*inputs)
            try:
                errors[key] = float((run().float() - expected).abs().max())  # type: ignore[union-attr]
                runs[key] = run
            except Exception as exc:  # a backend that refuses these shapes or dtypes
                errors[key] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    times: dict[str, list[float]] = {key: [] for key in runs}
    for _ in range(rounds):
        for key, run in runs.items():
            times[key].append(time_ms(run))
    medians = {key: statistics.median(ms) for key, ms in times.items()}
    base = medians["compile:default"]
    best = min(medians, key=medians.__getitem__)
    row = {"spec": name, "ms": medians, "rounds_ms": times, "max_abs_diff": errors,
           "x_compile": {key: base / ms for key, ms in medians.items()}, "best": best,
           "best_x_compile": base / medians[best]}
    print(f"{name:38s} best {best:32s} {base / medians[best]:.3f}x compile  "
          + "  ".join(f"{k}={v:.3f}" for k, v in medians.items()), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--specs", default=",".join(dict.fromkeys(GEMM_SPECS + ATTENTION_SPECS)))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [measure(name, args.rounds) for name in args.specs.split(",")]
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
              "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
              "cudnn": torch.backends.cudnn.version(), "rows": rows}
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
