"""The CUDA examples: each spec is its Triton twin's problem in ``"language": "cuda"``; every seed's CUDA compiles.

No GPU is needed (none of this runs a kernel). The compile tests compile for sm_90
as the evaluator does without a GPU, and skip cleanly without nvcc: CuPy seeds take a
second each; the ``load_inline`` seed includes torch's headers (tens of seconds, marked
``nvcc_torch``: ``make test`` leaves it out, as the KernelBench compile test in
``tests/evaluation/test_cuda.py`` keeps the same path in CI; the GPU tests build and judge it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from cuda_compile import cannot_compile_here, get_function_names, nvcc

from kernelevo.evaluation.child.cuda_build import compile_unit
from kernelevo.spec import read_spec
from kernelevo.spec.settings import parse_settings
from kernelevo.utils.cuda_source import CudaUnit, find_cuda, kernel_names

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
# each CUDA example and the Triton example whose problem it copies
TWINS = {"gelu_cuda": "gelu", "softmax_cuda": "softmax", "matmul_epilogue_cuda": "matmul_epilogue"}
# what a CUDA candidate may import (the evaluator's runtime rules for the CUDA language)
ALLOWED_IMPORTS = {"torch", "torch.nn", "cupy", "math", "typing", "torch.utils.cpp_extension", "__future__"}


def _seed_paths(example: str) -> list[Path]:
    spec = EXAMPLES_DIR / example / "spec.py"
    return [spec.parent / name for name in parse_settings(spec.read_text()).seeds]


SEEDS = [(example, path.name) for example in TWINS for path in _seed_paths(example)]
UNITS: list[tuple[str, str, int, CudaUnit]] = [
    (example, seed, i, unit)
    for example, seed in SEEDS
    for i, unit in enumerate(find_cuda((EXAMPLES_DIR / example / seed).read_text()).units)
]


def _problem(source: str) -> list[str]:
    """The spec's problem: every module-level statement but the docstring and the KERNELEVO settings."""
    tree = ast.parse(source)
    kept = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "KERNELEVO" for t in node.targets):
            continue
        kept.append(ast.dump(node))
    return kept


@pytest.mark.parametrize("example", list(TWINS))
def test_spec_is_its_triton_twin_in_cuda(example: str) -> None:
    cuda_source = (EXAMPLES_DIR / example / "spec.py").read_text()
    triton_source = (EXAMPLES_DIR / TWINS[example] / "spec.py").read_text()
    cuda, triton = parse_settings(cuda_source), parse_settings(triton_source)

    assert cuda.language == "cuda"
    assert triton.language == "triton"
    assert cuda.dtype == triton.dtype
    assert cuda.variants == triton.variants
    assert _problem(cuda_source) == _problem(triton_source), "the reference, sizes or inputs differ from the twin's"
    spec = read_spec(EXAMPLES_DIR / example / "spec.py")
    names = [name for name, _ in spec.seed_sources()]
    assert names and names[0] == "seed", names


@pytest.mark.parametrize(("example", "seed"), SEEDS, ids=[f"{e}-{s}" for e, s in SEEDS])
def test_seed_is_a_cuda_candidate(example: str, seed: str) -> None:
    """A documented ModelNew, CUDA kernels it compiles itself, and only the imports the CUDA rules allow."""
    source = (EXAMPLES_DIR / example / seed).read_text()
    tree = ast.parse(source)
    assert ast.get_docstring(tree), f"{seed} has no module docstring explaining its design"
    assert any(isinstance(n, ast.ClassDef) and n.name == "ModelNew" for n in tree.body)
    assert not any(isinstance(n, ast.Try) for n in ast.walk(tree)), "no try/except in a kernel"
    imported = {alias.name for n in ast.walk(tree) if isinstance(n, ast.Import) for alias in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= ALLOWED_IMPORTS, sorted(imported - ALLOWED_IMPORTS)

    found = find_cuda(source)
    assert found.units, "no CuPy RawModule or load_inline call with a literal CUDA source"
    kernels = [k for unit in found.units for k in kernel_names(unit.code)]
    assert kernels, "no __global__ kernel"
    # every kernel CuPy is asked for by name is defined (a typo there fails only on the GPU, at run time)
    asked = get_function_names(source)
    assert set(asked) <= set(kernels), (asked, kernels)


def _unit_param(example: str, seed: str, index: int, unit: CudaUnit) -> pytest.ParameterSet:
    marks = [pytest.mark.slow, pytest.mark.nvcc_torch] if unit.form == "load_inline" else []
    return pytest.param(unit, id=f"{example}-{seed}-{unit.form}{index}", marks=marks)


@pytest.mark.skipif(nvcc() is None, reason="nvcc is not on the PATH")
@pytest.mark.parametrize("unit", [_unit_param(*u) for u in UNITS])
def test_seed_cuda_compiles_for_sm90(unit: CudaUnit) -> None:
    skip = cannot_compile_here(unit)
    if skip:
        pytest.skip(skip)
    build, kernels = compile_unit(unit)  # the evaluator's own compile, as without a GPU
    assert build.error is None, build.error
    # every kernel is in the cubin (extern "C" names verbatim, C++ ones mangled around the name)
    assert {k.name for k in kernels} == set(kernel_names(unit.code)), (kernels, build.log[-2000:])
