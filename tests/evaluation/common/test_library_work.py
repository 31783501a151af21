"""The library work a candidate may do (kernelevo.evaluation.common.library.misuse): the reference's, and a GEMM of
the reference's with unaligned sizes padded, as inductor's pad_mm pass runs it; nothing more."""

from __future__ import annotations

from collections import Counter

from kernelevo.evaluation.common.library import gemm_work, misuse


def units(*gemms: tuple[int, int, int, str]) -> Counter[str]:
    return Counter(gemm_work(*g) for g in gemms)


# transformer_block's odd variant (batch 3, 7 tokens, 15 features, 3 heads): its four linears and two attention GEMMs
BLOCK = units((21, 45, 15, "float32"), (63, 7, 5, "float32"), (63, 5, 7, "float32"), (21, 15, 15, "float32"),
              (21, 60, 15, "float32"), (21, 15, 60, "float32"))


def test_a_gemm_padded_to_aligned_sizes_is_the_references() -> None:
    """torch.compile's own seed ran the 21 x 15 x 15 projection as 24 x 16 x 16 (on an H200): the reference's work."""
    padded = BLOCK - units((21, 15, 15, "float32")) + units((24, 16, 16, "float32"))
    assert misuse(padded, BLOCK) == []
    assert misuse(BLOCK, BLOCK) == []


def test_padding_does_not_hide_other_work() -> None:
    """A padded GEMM beyond the reference's count, an aligned size grown by one (a ones column that sums rows), a
    size padded past the next multiple of 8, another dtype: all beyond the reference's work."""
    padded = units((24, 16, 16, "float32"))
    assert misuse(BLOCK + padded, BLOCK) == ["gemm 16x24x16 float32"]
    assert misuse(units((256, 257, 256, "float32")), units((256, 256, 256, "float32"))) == ["gemm 256x257x256 float32"]
    assert misuse(units((21, 17, 15, "float32")), units((21, 15, 15, "float32"))) == ["gemm 17x21x15 float32"]
    assert misuse(units((24, 16, 16, "float16")), BLOCK) == ["gemm 16x24x16 float16"]
    twice = units((21, 15, 16, "float32"), (21, 15, 16, "float32"))
    assert misuse(twice, units((21, 15, 15, "float32"))) == ["gemm 15x21x16 float32"]
