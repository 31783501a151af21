"""The seed with the project's own Triton attention beside torch.compile's library call (attention_seed.py).

On torch.compile's module for scaled dot-product attention (captured on an H200: cuDNN's attention, no
Triton), judged by the real evaluator in Triton's interpreter on the spec's CPU variants, one of them
with a head dimension that is no power of two.
"""

from __future__ import annotations

from pathlib import Path

from eval_options import correctness_options

from kernelevo.evaluation import Evaluator
from kernelevo.evaluation.static.check import check_source
from kernelevo.spec import read_spec
from kernelevo.variation.seeding.attention_seed import attention_seeds, own_attention
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.inductor_seed import to_candidate

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = Path(__file__).parent / "inductor_captures"


def library_seed() -> str:
    return to_candidate(Capture.from_json((CAPTURES / "sdpa_fp16.library.json").read_text()))


def test_the_library_attention_becomes_the_projects_kernel_and_only_where_there_is_one() -> None:
    seed = library_seed()
    assert "F.scaled_dot_product_attention(" in seed and "@triton.jit" not in seed  # inductor wrote no Triton
    own = own_attention(seed)
    assert own is not None and "F.scaled_dot_product_attention(arg" not in own
    assert "_kev_attention(" in own and "def _kev_attention_fwd(" in own
    assert check_source(own) == []
    assert attention_seeds([("sdpa", seed)])[0][0] == "sdpa-triton-attention"
    assert own_attention(seed.replace("attn_mask=None", "attn_mask=buf0")) is None  # a mask stays the library's
    assert attention_seeds([("gelu", (CAPTURES.parent / "test_attention_seed.py").read_text())]) == []


def test_the_projects_attention_is_correct_on_every_cpu_variant() -> None:
    with Evaluator(read_spec(str(ROOT / "benchmarks" / "suite" / "sdpa_fp16.py")),
                   correctness_options(aot_metadata=False)) as evaluator:
        own = own_attention(library_seed())
        assert own is not None
        result = evaluator.evaluate(own)
        library = evaluator.evaluate(library_seed())
    assert result.correct, (result.error, result.message)
    assert result.library is None  # no call left to the library
    assert library.correct and library.library is not None, (library.error, library.message)
    assert [c.family for c in library.library.calls] == ["attention"]
