"""Kernel families (kernelevo.variation.seeding.families): a family matches a reference by its traced graph, and every
seed it writes is judged correct by the real evaluator (Triton's interpreter on the CPU) on every variant.

The specs under ``family_specs/`` have the structure of suite specs (benchmarks/suite/) at sizes the
interpreter runs in seconds; some rows are longer than one chunk of the looped and split kernels, so that
their statistics combine across chunks.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.static.check import check_source
from kernelevo.spec import read_spec
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.variation.moves import template
from kernelevo.variation.seeding.families import FAMILIES, family_seeds, matching
from kernelevo.variation.seeding.families.norm import NormFamily
from kernelevo.variation.seeding.families.tracer import trace
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.op_graph import MAX_TRACED_OPS, GraphError, OpGraph, trace_graph

HERE = Path(__file__).parent
SPECS = HERE / "family_specs"
SUITE = HERE.parent.parent / "benchmarks" / "suite"

# spec -> (family, its variants)
EXPECTED = {
    "layernorm": ("norm", ["resident", "looped", "split", "l2"]),
    "groupnorm": ("norm", ["resident", "looped", "split", "l2"]),
    "batchnorm2d": ("norm", ["looped", "split", "l2"]),
    "instancenorm2d": ("norm", ["resident", "looped", "split", "l2"]),
    "rmsnorm_dim1": ("norm", ["columns"]),
    "l1norm_rows": ("norm", ["resident", "looped", "split", "l2"]),
    "l2norm_rows": ("norm", ["resident", "looped", "split", "l2"]),
    "sum_dim1": ("reduce", ["columns"]),
    "max_dim1": ("reduce", ["columns"]),
    "mean_last": ("reduce", ["row", "persistent", "split"]),
    "amin_last2": ("reduce", ["row", "persistent", "split"]),
    "amax_nan_rows": ("reduce", ["row", "persistent", "split"]),  # NaN propagates, as in torch.amax
    "min_nan_dim1": ("reduce", ["columns"]),
    "mse_loss": ("losses", ["persistent", "tiles"]),
    "huber_loss": ("losses", ["persistent", "tiles"]),
    "hinge_loss": ("losses", ["persistent", "tiles"]),  # a label per row
    "kl_div_loss": ("losses", ["persistent", "tiles"]),  # batchmean: divided by the inputs' first dim
    "cosine_similarity_loss": ("losses", ["persistent", "tiles"]),  # per-row norms read again per element
    "triplet_margin_loss": ("losses", ["persistent", "tiles"]),
    "cross_entropy": ("losses", ["persistent", "tiles", "resident"]),  # a gather by labels, one of them ignored
    "weighted_mse_cols": ("losses", ["persistent", "tiles"]),  # a weight per column
    "maxpool1d": ("pool", ["tiles", "rows", "vectors"]),  # a 2-D pool between unsqueeze and squeeze, a NaN
    "maxpool2d": ("pool", ["tiles", "gather"]),  # a NaN in the input
    "maxpool3d": ("pool", ["tiles", "gather"]),
    "avgpool2d": ("pool", ["tiles", "blocked", "gather"]),  # windows side by side, their size from init
    "cumsum_rows": ("scan", ["rows", "chunked"]),
    "cumprod_rows": ("scan", ["rows", "chunked"]),
    "cumsum_reverse": ("scan", ["rows", "chunked"]),  # flips folded into the walk
    "masked_cumsum": ("scan", ["rows", "chunked"]),  # times a bool mask
    "softmax_rows": ("reduce", ["resident", "online"]),
    "log_softmax_rows": ("reduce", ["resident", "online"]),
}


def _graph(path: Path) -> OpGraph:
    return trace_graph(LoadedSpec(read_spec(str(path))))  # the project's own specs: traced in this process


def _seeds(name: str) -> list[tuple[str, str]]:
    return family_seeds(name, _graph(SPECS / f"{name}.py")).seeds


# Specs whose seeds are also judged after the template operator moved their blocks, warps and program counts
# together several steps away: the masks must keep the result.
MUTATED = {"layernorm", "batchnorm2d", "mean_last", "softmax_rows", "sum_dim1", "hinge_loss",
           "cosine_similarity_loss", "maxpool2d", "avgpool2d", "cumsum_reverse"}


def _mutants(seeds: list[tuple[str, str]]) -> list[tuple[str, str]]:
    rng = random.Random(7)
    mutants = []
    for seed, source in seeds:
        tunables = [t for t in template.find_tunables(source) if t.neighbours(3)]
        mutants.append((f"{seed} (mutant)", template.apply(source, {t: rng.choice(t.neighbours(3)) for t in tunables})))
    return mutants


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_family_seed_is_correct_on_every_variant(name: str) -> None:
    """Every seed on every variant, and for the specs in MUTATED each seed's template mutant too, by one judge."""
    family, variants = EXPECTED[name]
    seeds = _seeds(name)
    assert [n for n, _ in seeds] == [f"{name}-family-{family}-{v}" for v in variants]
    judged = seeds + (_mutants(seeds) if name in MUTATED else [])
    with Evaluator(read_spec(str(SPECS / f"{name}.py")), correctness_options(aot_metadata=False)) as ev:
        results = {seed: ev.evaluate(source) for seed, source in judged}
    assert all(r.correct for r in results.values()), {s: (r.error, r.message) for s, r in results.items()}


def test_the_mutated_specs_have_families_and_tunables() -> None:
    assert MUTATED.issubset(EXPECTED)
    for name in sorted(MUTATED):
        for (seed, source), (_, mutant) in zip(_seeds(name), _mutants(_seeds(name)), strict=True):
            assert mutant != source, f"{seed}: the template operator moved nothing"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_family_seeds_pass_the_static_checks_and_have_tunables(name: str) -> None:
    for seed, source in _seeds(name):
        assert check_source(source) == [], seed
        tunables = template.find_tunables(source)
        assert tunables, seed
        # the kernels' modes are lower-case constexprs: never tuned (they choose what is computed)
        assert not {t.name for t in tunables} & {"stat", "affine", "has_bias", "op", "kind", "masked", "reverse"}, seed


@pytest.mark.parametrize("name", ["layernorm", "batchnorm2d"])
def test_the_l2_variant_is_correct_a_row_per_chunk(name: str) -> None:
    """L2_CHUNK_KIB at 1: every row (BatchNorm: channel, its segments apart) gets launches of its own."""
    source = dict(_seeds(name))[f"{name}-family-norm-l2"]
    assert "L2_CHUNK_KIB = 24576" in source
    with Evaluator(read_spec(str(SPECS / f"{name}.py")), correctness_options(aot_metadata=False)) as ev:
        result = ev.evaluate(source.replace("L2_CHUNK_KIB = 24576", "L2_CHUNK_KIB = 1"))
    assert result.correct, (result.error, result.message)


@pytest.mark.parametrize("block", [16, 64])
def test_the_rows_pool_is_correct_where_programs_lie_inside_a_row_and_at_its_ends(block: int) -> None:
    """Blocks small enough that most programs take the unmasked path (windows inside the row), a NaN among them."""
    source = dict(_seeds("maxpool1d"))["maxpool1d-family-pool-rows"]
    assert "block = 256\n" in source
    with Evaluator(read_spec(str(SPECS / "maxpool1d.py")), correctness_options(aot_metadata=False)) as ev:
        result = ev.evaluate(source.replace("block = 256\n", f"block = {block}\n"))
    assert result.correct, (result.error, result.message)


def test_the_l2_variant_is_offered_only_where_a_row_fits_half_the_l2() -> None:
    plan = NormFamily().match(_graph(SPECS / "layernorm.py"))
    assert plan is not None
    huge = dataclasses.replace(plan, shape=(2, 4096, 4096))  # rows of 64 MiB
    assert [s.variant for s in NormFamily().seeds(huge, _graph(SPECS / "layernorm.py"))] == ["looped", "split"]


@pytest.mark.parametrize(("spec", "family"), [
    ("layernorm", "norm"), ("groupnorm", "norm"), ("batchnorm2d", "norm"), ("instancenorm2d", "norm"),
    ("rmsnorm_dim1", "norm"), ("l1norm_rows", "norm"), ("l2norm_rows", "norm"), ("frobenius_norm", "norm"),
    ("softmax_rows", "reduce"), ("log_softmax_rows", "reduce"), ("sum_dim1", "reduce"), ("mean_last", "reduce"),
    ("max_dim1", "reduce"), ("min_dim1_short", "reduce"),
    ("mse_loss", "losses"), ("huber_loss", "losses"), ("hinge_loss", "losses"), ("kl_div_loss", "losses"),
    ("cosine_similarity_loss", "losses"), ("triplet_margin_loss", "losses"), ("cross_entropy", "losses"),
    ("maxpool1d", "pool"), ("maxpool2d", "pool"), ("maxpool3d", "pool"), ("avgpool2d", "pool"),
    ("cumsum_rows", "scan"), ("cumprod_rows", "scan"), ("cumsum_reverse", "scan"), ("masked_cumsum", "scan"),
])
def test_suite_specs_match_their_family_by_graph(spec: str, family: str) -> None:
    assert matching(_graph(SUITE / f"{spec}.py")) == [family]


@pytest.mark.parametrize("spec", [
    "matmul_square",  # a GEMM
    "relu",  # elementwise
    "gelu_tanh",
    "conv2d_instancenorm_divide",  # a norm after a convolution, then a division
    "gemm_groupnorm_swish_multiply_swish",
    "argmax_dim1",  # indices, not values
    "prod_dim1",
    "conv2d_gelu_globalavgpool",  # a mean over some dims after a convolution
])
def test_graphs_the_families_do_not_compute_match_nothing(spec: str) -> None:
    assert matching(_graph(SUITE / f"{spec}.py")) == []


def test_a_norm_with_an_affine_layout_the_family_does_not_take_matches_nothing() -> None:
    """RMSNorm times a weight, and a LayerNorm whose weight is an input: the family writes neither."""
    assert matching(_graph(SPECS / "unmatched" / "rmsnorm_weighted.py")) == []
    assert matching(_graph(SPECS / "unmatched" / "layernorm_weight_input.py")) == []
    assert matching(_graph(HERE / "row_epilogue_specs" / "linear_softmax.py")) == []  # softmax of a GEMM's output


@pytest.mark.parametrize("spec", ["maxpool2d_ceil", "cumsum_dim0", "loss_weighted_sin", "mse_no_reduction"])
def test_pools_scans_and_losses_the_families_do_not_write_match_nothing(spec: str) -> None:
    assert matching(_graph(SPECS / "unmatched" / f"{spec}.py")) == []


def test_a_loss_divided_by_an_input_dim_reads_it_at_run_time() -> None:
    """KL's batchmean divides by a size that follows the inputs, not a literal of the traced variant."""
    graph = _graph(SPECS / "kl_div_loss.py")
    assert graph.follows == {"div:1": "input[0].shape[0]"}
    assert all("/ inputs[0].shape[0]" in source for _, source in family_seeds("kl", graph).seeds)


def test_a_capture_without_a_graph_matches_nothing() -> None:
    capture = Capture.from_json((HERE / "inductor_captures" / "layernorm.json").read_text())
    assert capture.graph is None
    assert family_seeds("layernorm", capture.graph).seeds == []


def test_the_graph_travels_in_the_capture_and_names_what_follows_get_init_inputs() -> None:
    capture = Capture.from_json((HERE / "inductor_captures" / "layernorm.json").read_text())
    capture.graph = _graph(SPECS / "groupnorm.py")
    again = Capture.from_json(capture.to_json())
    assert again.graph == capture.graph
    assert again.graph is not None and again.graph.follows["native_group_norm:6"] == "init[0]"  # its groups
    assert matching(again.graph) == ["norm"]


def test_the_sandboxed_tracer_traces_what_the_child_runs() -> None:
    assert trace(read_spec(str(SPECS / "groupnorm.py"))) == _graph(SPECS / "groupnorm.py")


LOOP_OVER_STEPS = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.cell = nn.Linear(2 * size, size)

    def forward(self, x):
        h = torch.zeros_like(x[0])
        for t in range(x.shape[0]):
            h = torch.tanh(self.cell(torch.cat([x[t], h], dim=1)))
        return h


def get_inputs():
    return [torch.randn(1024, 8, 64)]


def get_init_inputs():
    return [64]
'''


def test_a_graph_no_family_could_match_is_not_traced_to_its_end() -> None:
    """A recurrent layer traces to ops for each time step (the suite's LSTM to 10,000 in 17 s, a KernelBench
    LSTM's past the tracer's 120 s): refused at once; a loop over time steps written out, at the op budget."""
    with pytest.raises(GraphError, match=r"recurrent layer \(nn\.LSTM"):
        _graph(SUITE / "lstm.py")
    with pytest.raises(GraphError, match="more than 2,000 aten ops"):
        trace_graph(LoadedSpec(read_spec(LOOP_OVER_STEPS)))
    assert len(_graph(SUITE / "transformer_block.py").nodes) < MAX_TRACED_OPS  # whole blocks stay within it


def test_a_family_that_fails_is_skipped_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    norm = next(f for f in FAMILIES if f.name == "norm")

    def broken(plan: object, graph: OpGraph) -> list[object]:
        raise ValueError("no kernel")

    monkeypatch.setattr(norm, "seeds", broken)
    found = family_seeds("layernorm", _graph(SPECS / "layernorm.py"))
    assert found.seeds == [] and "no kernel" in found.skipped["norm"]


GPU_SPECS = ["layernorm", "groupnorm", "batchnorm2d", "instancenorm2d", "rmsnorm_dim1", "l1norm_rows",
             "l2norm_rows", "frobenius_norm", "softmax_rows", "log_softmax_rows", "sum_dim1", "mean_last", "max_dim1",
             "min_dim1_short", "mse_loss", "huber_loss", "hinge_loss", "kl_div_loss", "cosine_similarity_loss",
             "triplet_margin_loss", "cross_entropy", "maxpool1d", "maxpool2d", "maxpool3d", "avgpool2d", "cumsum_rows",
             "cumprod_rows", "cumsum_reverse", "masked_cumsum"]


@pytest.mark.gpu
@pytest.mark.parametrize("spec", GPU_SPECS)
def test_on_a_gpu_every_family_seed_of_a_suite_spec_is_correct(spec: str) -> None:
    """The suite's spec at KernelBench's sizes: each family seed compiled by Triton and judged on the GPU."""
    suite_spec = read_spec(str(SUITE / f"{spec}.py"))
    seeds = family_seeds(spec, trace(suite_spec)).seeds
    assert seeds
    # KERNELEVO_FAMILY_REPORT=DIR: time them against torch.compile too, in the same judge, and write what
    # each reached (its time, its speedup, its fraction of the floor) to DIR/SPEC.json
    report = os.environ.get("KERNELEVO_FAMILY_REPORT")
    with Evaluator(suite_spec, EvalOptions(baselines=["eager", "compile"] if report else ["eager"])) as ev:
        results = {seed: ev.evaluate(source) for seed, source in seeds}
    if report:
        Path(report).mkdir(parents=True, exist_ok=True)
        (Path(report) / f"{spec}.json").write_text(json.dumps({seed: {
            "correct": r.correct, "error": r.error, "message": r.message[:300],
            "kernel_ms": r.kernel.median_ms if r.kernel else None,
            "compile_ms": r.compiled.median_ms if r.compiled else None, "speedup_compile": r.speedup_compile,
            "roofline": r.roofline.model_dump() if r.roofline else None,
            "device": r.environment.device_name if r.environment else None} for seed, r in results.items()},
            indent=2))
    assert all(r.correct and r.kernel and not r.kernel.interpreted for r in results.values()), \
        {s: (r.error, r.message) for s, r in results.items()}


@pytest.mark.gpu
@pytest.mark.parametrize("launch", ["block, warps, align = 512, 4, 4", "block, warps, align = 128, 1, 32",
                                    "block, warps, align = 1024, 4, 128"])
def test_on_a_gpu_the_vectors_pool_matches_torch_for_other_windows_paddings_and_rows(launch: str,
                                                                                      tmp_path: Path) -> None:
    """The vectors seed's model with other windows, paddings (a first vector before the window's start),
    dilations and row lengths (some not a multiple of 16, and a window over 8 vectors: the rows kernel), NaN
    inputs among them, against torch's max_pool1d; small blocks put most programs at a row's ends, and rows of odd
    lengths start their outputs at every alignment (each of the 4 tap pickings runs). Which kernel
    each case launched is checked too: a host that always fell back to rows would pass the comparisons."""
    import importlib.util

    import torch
    import torch.nn.functional as F

    source = dict(_seeds("maxpool1d"))["maxpool1d-family-pool-vectors"]
    assert "block, warps, align = 512, 4, 4\n" in source
    path = tmp_path / "vectors.py"
    path.write_text(source.replace("block, warps, align = 512, 4, 4\n", launch + "\n"))
    spec = importlib.util.spec_from_file_location("vectors_seed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    model = module.ModelNew()
    vectors, launched = module._kev_pool_vectors, []

    class Counted:  # the host's `_kev_pool_vectors[grid](...)`, each launch noted
        def __getitem__(self, grid: tuple[int]) -> object:
            launched.append(grid)
            return vectors[grid]

    module._kev_pool_vectors = Counted()
    for kernel, padding, dilation in [(8, 4, 3), (8, 3, 3), (4, 2, 1), (3, 1, 2), (10, 5, 3)]:
        for length in (4096, 4100, 1040):
            x = torch.randn(3, 5, length, device="cuda")
            x[..., ::97] = float("nan")
            model.window, model.padding, model.dilation = (1, 1, kernel), (0, 0, padding), (1, 1, dilation)
            launched.clear()
            got = model(x)
            want = F.max_pool1d(x, kernel, 1, padding, dilation)
            case = (kernel, padding, dilation, length)
            # a window of 10 dilated by 3 spans 9 vectors, and a row of 4,100 is no multiple of 16: rows
            assert bool(launched) == (kernel != 10 and length % 16 == 0), case
            assert got.shape == want.shape, case
            assert torch.allclose(got, want, rtol=0, atol=0, equal_nan=True), case  # NaN where torch has NaN
