"""Every CUDA attack in ``kernels/cuda_*.py`` builds for sm_90: it is rejected for its exploit, not for a typo.

An attack whose CUDA does not compile would be rejected as ``compile_error`` on a GPU and
could hide a check that does not work. This compiles each file's CUDA as the evaluator does
without a GPU (no GPU needed) and skips cleanly without nvcc; ``load_inline`` files include
torch's headers (half a minute to a minute each, marked ``nvcc_torch``: ``make test`` leaves them
out, ``pytest -m nvcc_torch`` runs them; the GPU tests build and judge them in full, and
KernelBench's compile test keeps the load_inline path in CI); the cuBLAS / cuDNN attacks include
those libraries' headers themselves and skip, naming them, where the toolkit lacks them.
The helper is ``tests/examples/cuda_compile.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from kernelevo.evaluation.child.cuda_build import compile_unit
from kernelevo.utils.cuda_source import CudaUnit, find_cuda, kernel_names

from .cases import KERNELS


def _helper():
    """tests/examples/cuda_compile.py, shared with the examples' compile test (tests/ is not a package)."""
    name = "cuda_compile"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[2] / "examples" / "cuda_compile.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


cuda_compile = _helper()

FILES = sorted(p.name for p in KERNELS.glob("cuda_*.py"))
UNITS = [
    (name, i, unit)
    for name in FILES
    for i, unit in enumerate(find_cuda((KERNELS / name).read_text()).units)
]


def _param(name: str, index: int, unit: CudaUnit) -> pytest.ParameterSet:
    marks = [pytest.mark.slow, pytest.mark.nvcc_torch] if unit.form == "load_inline" else []
    return pytest.param(unit, id=f"{name.removesuffix('.py')}-{unit.form}{index}", marks=marks)


def test_every_cuda_kernel_file_has_cuda() -> None:
    """Each cuda_*.py carries CUDA the extractor finds (a CuPy RawModule or a load_inline call)."""
    assert FILES
    empty = [name for name in FILES if not find_cuda((KERNELS / name).read_text()).units]
    assert not empty, f"no CuPy RawModule or load_inline source found in {empty}"


@pytest.mark.skipif(cuda_compile.nvcc() is None, reason="nvcc is not on the PATH")
@pytest.mark.parametrize("unit", [_param(*u) for u in UNITS])
def test_cuda_attack_compiles_for_sm90(unit: CudaUnit) -> None:
    skip = cuda_compile.cannot_compile_here(unit)
    if skip:
        pytest.skip(skip)
    build, kernels = compile_unit(unit)  # the evaluator's own compile, as without a GPU
    assert build.error is None, build.error
    assert {k.name for k in kernels} == set(kernel_names(unit.code)), (kernels, build.log[-2000:])
