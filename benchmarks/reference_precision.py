"""Each spec's reference on a GPU against torch.compile's output, against itself in float64 and with cuDNN's TF32
off: how far each is from the exact answer, in units of the float32 default tolerance (atol = rtol = 1e-4).
Then the judge's own measure (kernelevo.spec.precision, as a judge on this GPU runs it): the tolerance it
widens float32's default to, or its refusal, and whether that admits torch.compile's output and an exact fp32
one (cuDNN's TF32 off: what a kernel of its own that computes the convolutions or recurrent layers exactly gives).

Shows why every seed of a held-out problem can come back `wrong_output` (benchmarks/heldout/README.md). Needs CUDA.

    python benchmarks/reference_precision.py benchmarks/heldout/*.py
    python benchmarks/reference_precision.py --judge-only benchmarks/suite/*.py   # the judge's measure alone
"""

from __future__ import annotations

import importlib.util
import sys

import torch

from kernelevo.spec.precision import in_float64  # what the judge converts: module-held tensors too

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"  # --judge-only runs on a CPU too (no TF32 measured)


def load(path: str):
    spec = importlib.util.spec_from_file_location("problem", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ratio(got: torch.Tensor, want: torch.Tensor, tol: float = 1e-4) -> float:
    err = (got.double() - want.double()).abs()
    return (err / (tol + tol * want.double().abs())).max().item()


def versus(got: torch.Tensor, want: torch.Tensor, tol: float = 1e-4) -> str:
    err = (got.double() - want.double()).abs()
    bound = tol + tol * want.double().abs()
    return (f"max err {err.max().item():.3g}, max err/tol {(err / bound).max().item():.3g}, "
            f"beyond {(err > bound).double().mean().item():.3g}")


def judged(path: str, others: dict[str, float] | None = None) -> str:
    """What a judge on this GPU takes as the tolerance where the spec sets none, and whether it admits each of
    ``others`` (an output's name: its worst error from the reference, in units of the default tolerance)."""
    from kernelevo.spec import read_spec
    from kernelevo.spec.loaded import LoadedSpec
    from kernelevo.spec.precision import reference_precision

    found = reference_precision(LoadedSpec(read_spec(path)), "default", torch.device(DEVICE))
    if found.worst_ratio is None:
        return f"judge: the default tolerance ({found.note or 'nothing rounds'})"
    tf32 = "-" if found.tf32_ratio is None else f"{found.tf32_ratio:.3g}"
    if found.tolerance_set:
        return f"judge: the spec's own tolerance ({found.atol:g})"
    if found.refusal() is not None:
        return f"judge: refuses (reference {found.worst_ratio:.3g}x, TF32 {tf32}x; needs {found.widened_tolerance():g})"
    widened = found.widened_tolerance() or found.atol
    measured = (f"judge: reference {found.worst_ratio:.3g}x, TF32 {found.in_tf32()} {tf32}x -> "
                f"atol = rtol = {widened:g}")
    admits = [f"admits {name} ({value:.3g}x from eager): {'yes' if value * 1e-4 <= widened else 'no'}"
              for name, value in (others or {}).items()]
    return "; ".join([measured, *admits])


def main() -> None:
    print(torch.cuda.get_device_name() if DEVICE == "cuda" else "CPU", "torch", torch.__version__)
    if sys.argv[1] == "--judge-only":
        for path in sys.argv[2:]:
            print(path.split("/")[-1], "|", judged(path), flush=True)
            torch.cuda.empty_cache()
        return
    for path in sys.argv[1:]:
        problem = load(path)
        torch.manual_seed(0)
        model = problem.Model(*problem.get_init_inputs()).cuda().eval()
        inputs = [t.cuda() for t in problem.get_inputs()]
        with torch.no_grad():
            eager = model(*inputs)
            compiled = torch.compile(model)(*inputs)
            torch.backends.cudnn.allow_tf32 = False
            no_tf32 = model(*inputs)
            torch.backends.cudnn.allow_tf32 = True
            exact = in_float64(model)(*[t.double() for t in inputs])
            model.float()
        others = {"torch.compile's output": ratio(compiled, eager),
                  "exact fp32 (cuDNN's TF32 off)": ratio(no_tf32, eager)}
        print(path.split("/")[-1], "| compile vs eager:", versus(compiled, eager), "| eager vs fp64:",
              versus(eager, exact), "| compile vs fp64:", versus(compiled, exact), "| eager no-tf32 vs fp64:",
              versus(no_tf32, exact), "|", judged(path, others), flush=True)


if __name__ == "__main__":
    main()
