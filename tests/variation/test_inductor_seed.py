"""Seeds from torch.compile: captured inductor modules turned into standalone candidates.

The captures under inductor_captures/ come from an H200 (inductor writes Triton only for
CUDA tensors). On the CPU the candidates are converted, statically checked and, where
their kernels avoid libdevice (which Triton's interpreter does not run), judged for
correctness by the real evaluator on the spec's CPU variants.
"""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from kernelevo.driver import compile_seeds
from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.static_check import check_source
from kernelevo.search.config import RunConfig
from kernelevo.spec import read_spec
from kernelevo.utils.devices import cuda_present
from kernelevo.variation import template
from kernelevo.variation.compile_seeds import STRUCTURES, inductor_seeds
from kernelevo.variation.inductor_capture import Capture, CaptureError, capture
from kernelevo.variation.inductor_seed import ConversionError, to_candidate

CAPTURES = Path(__file__).parent / "inductor_captures"
SUITE = Path(__file__).resolve().parents[2] / "benchmarks" / "suite"
NAMES = sorted(p.stem for p in CAPTURES.glob("*.json") if not p.stem.endswith(".static"))


def load(name: str) -> Capture:
    return Capture.from_json((CAPTURES / f"{name}.json").read_text())


@pytest.mark.parametrize("name", NAMES)
def test_every_capture_becomes_a_candidate_that_passes_the_static_checks(name: str) -> None:
    source = to_candidate(load(name))
    assert check_source(source) == []
    assert "torch._inductor" not in source and "torch._C" not in source
    assert "class ModelNew(nn.Module)" in source
    compile(source, name, "exec")


def test_launches_keep_the_configuration_inductor_chose() -> None:
    cap = load("layernorm")
    source = to_candidate(cap)
    for name, launch in cap.kernels.items():
        line = next(line for line in source.splitlines() if line.strip().startswith(f"{name}["))
        assert f"num_warps={launch.num_warps}" in line and f"num_stages={launch.num_stages}" in line
        assert all(f"{k}={v}" in line for k, v in launch.config.items())
    # the reference's parameters, by name, sized from get_init_inputs()
    assert "self.ln.weight = nn.Parameter(torch.empty((init[0][0], init[0][1], init[0][2])))" in source
    assert "def welford_reduce(" in source  # inductor's helper, copied in


def test_a_gemm_template_is_launched_with_its_fixed_grid() -> None:
    source = to_candidate(load("gemm_bias_gelu"))  # the bias and the GELU fused into the template's epilogue
    line = next(line for line in source.splitlines() if "triton_tem_fused_addmm_gelu_t_0[" in line)
    assert line.strip().startswith("triton_tem_fused_addmm_gelu_t_0[((127 + s21) // 128 * ((127 + s33) // 128), 1, 1)]")
    assert "num_warps=8, num_stages=5" in line
    assert "self.linear.weight = nn.Parameter(torch.empty((init[1], init[0])))" in source


@pytest.mark.parametrize("name", ["rmsnorm_dim1", "sum_dim1", "cumsum_rows"])
def test_the_candidate_is_correct_on_every_cpu_variant(name: str) -> None:
    evaluator = Evaluator(read_spec(str(SUITE / f"{name}.py")), EvalOptions(baselines=["eager"]))
    try:
        result = evaluator.evaluate(to_candidate(load(name)))
    finally:
        evaluator.close()
    assert result.correct, (result.error, result.message)


def test_the_template_operator_moves_a_block_size_with_its_grid() -> None:
    source = to_candidate(load("gelu_tanh"))
    rng = random.Random(0)
    moved = [m for m in (template.mutate(source, rng) for _ in range(40)) if m is not None]
    blocks = set()
    for mutant, _ in moved:
        line = next(line for line in mutant.splitlines() if "triton_poi_fused_add_mul_pow_tanh_0[" in line)
        block = line.split("XBLOCK=")[1].split(",")[0]
        assert f"_xnumel, {block})" in line  # the grid's cdiv divides by the same block
        blocks.add(block)
    assert blocks - {"1024"}, "no mutant moved the block size"


def test_host_code_that_calls_a_library_is_refused_with_its_name() -> None:
    cap = load("gelu_tanh")
    cap.code = cap.code.replace("        return (buf0, )", "        extern_kernels.mm(buf0, buf0, out=buf0)\n"
                                "        return (buf0, )")
    with pytest.raises(ConversionError, match=r"extern_kernels\.mm"):
        to_candidate(cap)


def test_a_capture_round_trips_through_json() -> None:
    cap = load("cross_entropy")
    again = Capture.from_json(cap.to_json())
    assert again == cap and json.loads(cap.to_json())["spec_name"] == "cross_entropy"


@pytest.mark.skipif(cuda_present(), reason="the CPU path")
def test_without_a_gpu_the_run_says_why_it_has_no_compile_seed(caplog: pytest.LogCaptureFixture) -> None:
    spec = read_spec(str(SUITE / "gelu_tanh.py"))
    with pytest.raises(CaptureError, match="need a GPU"):
        capture(spec)
    with caplog.at_level(logging.WARNING, logger="kernelevo.driver"):
        assert compile_seeds(spec, RunConfig(), has_seeds=False) == []
    assert "No seed from torch.compile for gelu_tanh" in caplog.text and "need a GPU" in caplog.text
    # a spec with seeds of its own is not compiled unless asked
    assert compile_seeds(spec, RunConfig(), has_seeds=True) == []


@pytest.mark.gpu
def test_on_a_gpu_an_option_this_torch_lacks_is_named() -> None:
    with pytest.raises(CaptureError, match=r"no option triton\.no_such_option"):
        capture(read_spec(str(SUITE / "gelu_tanh.py")), generic=False, options={"triton.no_such_option": True})


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["gelu_tanh", "layernorm", "gemm_bias_gelu"])
def test_on_a_gpu_only_sizes_a_module_fixes_are_called_specialized(name: str) -> None:
    generic = capture(read_spec(str(SUITE / f"{name}.py")))
    assert generic.specialized == ([[0, 1], [0, 2], [0, 3]] if name == "layernorm" else [])


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["gelu_tanh", "layernorm", "gemm_bias_gelu"])
def test_on_a_gpu_the_seeds_from_torch_compile_are_correct(name: str) -> None:
    """The dispatching seed, the generic-only one where inductor kept every size dynamic, and one per
    structural option of inductor's that changes its kernels; each says which option made it."""
    spec = read_spec(str(SUITE / f"{name}.py"))
    found = inductor_seeds(spec)
    seeds = found.seeds
    default = [f"{name}-torch-compile"] + ([] if name == "layernorm" else [f"{name}-torch-compile-generic"])
    assert [n for n, _ in seeds][:len(default)] == default
    structures = [n.removeprefix(f"{name}-torch-compile-") for n, _ in seeds[len(default):]]
    assert structures and set(structures) | set(found.skipped) == set(STRUCTURES), found.skipped
    for structure, (_, source) in zip(structures, seeds[len(default):], strict=True):
        assert all(f"{k}={v!r}" in source for k, v in STRUCTURES[structure].options.items())
    evaluator = Evaluator(spec, EvalOptions(baselines=["eager"]))
    try:
        results = {n: evaluator.evaluate(source) for n, source in seeds}
    finally:
        evaluator.close()
    assert all(r.correct for r in results.values()), {n: (r.error, r.message) for n, r in results.items()}


def test_the_timed_sizes_get_their_static_kernels_and_other_sizes_the_generic_ones() -> None:
    source = to_candidate(load("rmsnorm_dim1"), [load("rmsnorm_dim1.static")])
    assert check_source(source) == []
    assert "if sizes == ((16, 64, 256, 256),):\n            return self._sizes_0(*inputs)" in source
    assert "return self._generic(*inputs)" in source
    # the two modules' kernels, renamed apart: one persistent reduction at the fixed sizes, two kernels else
    assert "def triton_per_fused_add_div_mean_pow_sqrt_0_s0(" in source
    assert "def triton_red_fused_mean_pow_0_s1(" in source
    assert "def triton_poi_fused_add_div_mean_pow_sqrt_1_s1(" in source
    evaluator = Evaluator(read_spec(str(SUITE / "rmsnorm_dim1.py")), EvalOptions(baselines=["eager"]))
    try:
        result = evaluator.evaluate(source)  # the CPU's variants take the generic kernels
    finally:
        evaluator.close()
    assert result.correct, (result.error, result.message)


def test_a_capture_that_fixed_a_variable_size_needs_each_variants_sizes() -> None:
    cap = load("gelu_tanh")
    cap.specialized = [[0, 1]]
    with pytest.raises(ConversionError, match="input 0 dim 1"):
        to_candidate(cap)
    # with only the default's sizes, other sizes get a clear error, not a wrong answer
    source = to_candidate(cap, [load("gelu_tanh.static")])
    assert "_generic" not in source and "no kernels were compiled for input sizes" in source


def test_the_operators_and_descriptors_leave_the_untimed_sizes_kernels_alone() -> None:
    from kernelevo.archive.descriptors import descriptor_set
    from kernelevo.variation.restructure import moves

    dispatching = to_candidate(load("rmsnorm_dim1"), [load("rmsnorm_dim1.static")])
    timed_only = to_candidate(None, [load("rmsnorm_dim1.static")])
    lines = dispatching.splitlines()
    timed = range(lines.index("    def _sizes_0(self, *inputs):") + 1, lines.index(
        "    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)") + 1)
    assert template.find_tunables(dispatching) and all(t.line in timed for t in template.find_tunables(dispatching))
    assert [t.key for t in template.find_tunables(dispatching)] == [t.key for t in template.find_tunables(timed_only)]
    assert moves(dispatching) and all(m.label.split(":")[0].endswith("_s0") for m in moves(dispatching))
    grid = descriptor_set("levels")
    assert [d(dispatching) for d in grid] == [d(timed_only) for d in grid] == [2, 1, 0]
