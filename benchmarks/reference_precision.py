"""Each spec's reference on a GPU against torch.compile's output, against itself in float64 and with cuDNN's TF32
off: how far each is from the exact answer, in units of the float32 default tolerance (atol = rtol = 1e-4).

Shows why every seed of a held-out problem can come back `wrong_output` (benchmarks/heldout/README.md). Needs CUDA.

    python benchmarks/reference_precision.py benchmarks/heldout/*.py
"""

from __future__ import annotations

import importlib.util
import sys

import torch


def load(path: str):
    spec = importlib.util.spec_from_file_location("problem", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def versus(got: torch.Tensor, want: torch.Tensor, tol: float = 1e-4) -> str:
    err = (got.double() - want.double()).abs()
    bound = tol + tol * want.double().abs()
    return (f"max err {err.max().item():.3g}, max err/tol {(err / bound).max().item():.3g}, "
            f"beyond {(err > bound).double().mean().item():.3g}")


def main() -> None:
    print(torch.cuda.get_device_name(), "torch", torch.__version__)
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
            exact = model.double()(*[t.double() for t in inputs])
            model.float()
        print(path.split("/")[-1], "| compile vs eager:", versus(compiled, eager), "| eager vs fp64:",
              versus(eager, exact), "| compile vs fp64:", versus(compiled, exact), "| eager no-tf32 vs fp64:",
              versus(no_tf32, exact), flush=True)


if __name__ == "__main__":
    main()
