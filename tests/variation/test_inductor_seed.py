"""Seeds from torch.compile: captured inductor modules turned into standalone candidates.

The captures under inductor_captures/ come from an H200 (inductor writes Triton only for
CUDA tensors). On the CPU the candidates are converted, statically checked and, where
their kernels avoid libdevice (which Triton's interpreter does not run), judged for
correctness by the real evaluator on the spec's CPU variants.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import random
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.driver import compile_seeds
from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.static.check import check_source
from kernelevo.records.result import ErrorKind
from kernelevo.records.run_config import RunConfig
from kernelevo.spec import read_spec
from kernelevo.utils.devices import cuda_present
from kernelevo.variation.moves import template
from kernelevo.variation.seeding.capturer import capture
from kernelevo.variation.seeding.compile_seeds import STRUCTURES, TEMPLATES, inductor_seeds
from kernelevo.variation.seeding.inductor_capture import Capture, CaptureError
from kernelevo.variation.seeding.inductor_seed import ConversionError, to_candidate

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
    evaluator = Evaluator(read_spec(str(SUITE / f"{name}.py")), correctness_options())
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


def test_host_code_that_computes_in_aten_is_refused_with_its_name() -> None:
    cap = load("gelu_tanh")
    cap.code = cap.code.replace("        return (buf0, )", "        buf9 = torch.ops.aten.sort.default(buf0)\n"
                                "        return (buf0, )")
    with pytest.raises(ConversionError, match=r"torch\.ops\.aten\.sort\.default"):
        to_candidate(cap)


def _with_host(name: str, lines: str) -> Capture:
    """A capture whose host code does ``lines`` (indented as call()'s body) before it returns."""
    cap = load(name)
    cap.code = cap.code.replace("        return (buf0, )", lines + "        return (buf0, )")
    return cap


def test_library_calls_of_the_host_code_become_the_torch_calls_the_policy_allows() -> None:
    cap = _with_host("gelu_tanh", "        extern_kernels.mm(buf0, reinterpret_tensor(buf0, (4, 4), (1, 4), 0), "
                                  "out=buf0)\n"
                                  "        buf5 = extern_kernels.convolution(buf0, buf0, stride=(1, 1), "
                                  "padding=(0, 0), dilation=(1, 1), transposed=False, output_padding=(0, 0), "
                                  "groups=1, bias=None)\n"
                                  "        buf6 = torch.ops.aten._scaled_dot_product_efficient_attention.default("
                                  "buf0, buf0, buf0, None, False, scale=0.125)\n        buf7 = buf6[0]\n")
    source = to_candidate(cap)
    assert "torch.mm(buf0, torch.as_strided(buf0, (4, 4), (1, 4), 0), out=buf0)" in source
    assert ("torch.convolution(buf0, buf0, None, (1, 1), (0, 0), (1, 1), False, (0, 0), 1)" in source)
    assert ("buf6 = (F.scaled_dot_product_attention(buf0, buf0, buf0, attn_mask=None, is_causal=False, "
            "scale=0.125),)") in source
    assert check_source(source) == []
    assert ErrorKind.LIBRARY_CALL in {f.kind for f in check_source(source, library=())}


def test_a_return_through_a_view_of_a_buffer_is_carried() -> None:
    cap = load("gelu_tanh")
    cap.code = cap.code.replace("        return (buf0, )",
                                "        return (reinterpret_tensor(buf0, (s0, s1), (s1, 1), 0), )")
    assert "return torch.as_strided(buf0, (s0, s1), (s1, 1), 0)" in to_candidate(cap)


def test_a_grid_with_helper_assignments_has_them_inlined() -> None:
    cap = load("gelu_tanh")
    name, launch = next(iter(cap.kernels.items()))
    launch.grid_prefix = ["y_grid_raw_ = -((xnumel) // -(64))", "y_grid_div_ = -((y_grid_raw_) // -(65535))"]
    launch.grid = ["1", "(0 if y_grid_div_ == 0 else -((y_grid_raw_) // -(y_grid_div_)))", "y_grid_div_"]
    source = to_candidate(cap)
    line = next(line for line in source.splitlines() if line.strip().startswith(f"{name}["))
    assert "triton.cdiv(triton.cdiv(" in line and "y_grid_" not in line
    assert check_source(source) == []


def test_parameters_nested_in_containers_keep_their_names(tmp_path: Path) -> None:
    cap = load("gelu_tanh")
    cap.state = {"network.0.weight": [4, 3], "network.0.bias": [4], "layer1.0.bn1.running_mean": [4],
                 "scale": [1]}
    cap.buffers = ["layer1.0.bn1.running_mean"]
    source = to_candidate(cap)
    assert "self.network['0'].weight = nn.Parameter(torch.empty((4, 3)))" in source
    assert check_source(source) == []
    path = tmp_path / "nested_seed.py"  # Triton reads a kernel's source from its file
    path.write_text(source)
    module_spec = importlib.util.spec_from_file_location("nested_seed", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    model = module.ModelNew()
    assert set(model.state_dict()) == set(cap.state)


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
        seeds, why_none = compile_seeds(spec, RunConfig(), has_seeds=False)
    assert seeds == [] and "need a GPU" in why_none  # the reason a run with no seed at all stops with
    assert "No seed from torch.compile for gelu_tanh" in caplog.text and "need a GPU" in caplog.text
    # a spec with seeds of its own is not compiled unless asked
    assert compile_seeds(spec, RunConfig(), has_seeds=True) == ([], "")


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
    assert structures and set(structures) | set(found.skipped) == {*STRUCTURES, TEMPLATES}, found.skipped
    for structure, (_, source) in zip(structures, seeds[len(default):], strict=True):
        options = STRUCTURES[structure].options if structure != TEMPLATES else {}
        assert all(f"{k}={v!r}" in source for k, v in options.items())
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
    evaluator = Evaluator(read_spec(str(SUITE / "rmsnorm_dim1.py")), correctness_options())
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
    from kernelevo.variation.moves.restructure import moves

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
