"""A seed with the project's own Triton attention where a seed hands attention to the library.

Inductor writes no Triton for scaled dot-product attention: torch.compile calls the library's
flash or memory-efficient kernel, and so does the seed made from its module
(:mod:`kernelevo.variation.seeding.inductor_host`). That seed is as fast as torch.compile, and the
template operator has nothing in it to tune. This module writes a second seed beside it:
each ``F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=..., scale=...)``
becomes a launch of a flash-attention forward kernel of the project's own (online softmax
in registers, one program per block of queries and head), whose block sizes, warps and
stages the template operator tunes like any kernel's.

It applies where the shapes allow the kernel: no mask and no dropout (the conversion refuses
dropout), three- or four-dimensional q, k, v with one head dimension up to 256 shared by q, k
and v (padded to a power of two inside the kernel), and as many heads in k and v as in q or a
divisor of them (grouped-query attention). A call it cannot take is left to the library; a seed with no call
it can take is not made.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

# The kernel and its wrapper, appended to the seed's module. fp32 products are computed exactly
# (input_precision "ieee"): TF32 would miss fp32's 1e-4 tolerance, and a spec opts in to it.
KERNEL = '''

@triton.jit
def _kev_attention_fwd(Q, K, V, Out, sm_scale, stride_qb, stride_qh, stride_qm, stride_qd, stride_kb, stride_kh,
                       stride_kn, stride_kd, stride_vb, stride_vh, stride_vn, stride_vd, stride_ob, stride_oh,
                       stride_om, stride_od, H, GROUP, N_Q, N_K, D, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr, PRECISION: tl.constexpr):
    """softmax(q k^T * sm_scale) v for one block of queries of one (batch, head), keys streamed in blocks; the head
    dimension D padded to the power of two HEAD_DIM with zeros, which change no product."""
    start_m = tl.program_id(0)
    off_b = tl.program_id(1) // H
    off_h = tl.program_id(1) % H
    off_kh = off_h // GROUP  # grouped-query attention: GROUP query heads share one key/value head
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + off_b * stride_qb + off_h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=(offs_m[:, None] < N_Q) & (offs_d[None, :] < D), other=0.0)
    k_base = K + off_b * stride_kb + off_kh * stride_kh
    v_base = V + off_b * stride_vb + off_kh * stride_vh
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.4426950408889634  # exp(x) = exp2(x log2 e)
    hi = N_K
    if CAUSAL:  # torch's is_causal: query i sees keys 0..i
        hi = tl.minimum(N_K, (start_m + 1) * BLOCK_M)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_base + cols[None, :] * stride_kn + offs_d[:, None] * stride_kd,
                    mask=(cols[None, :] < N_K) & (offs_d[:, None] < D), other=0.0)
        qk = tl.dot(q, k, input_precision=PRECISION) * qk_scale
        keep = cols[None, :] < N_K
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + cols[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                    mask=(cols[:, None] < N_K) & (offs_d[None, :] < D), other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision=PRECISION)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(Out + off_b * stride_ob + off_h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od,
             acc.to(Out.dtype.element_ty), mask=(offs_m[:, None] < N_Q) & (offs_d[None, :] < D))


def _kev_attention(q, k, v, is_causal, scale):
    """What the library's scaled dot-product attention of q, k, v computes without a mask, in the kernel above;
    q, k, v of (batch, heads, length, head_dim) or (batch, length, head_dim)."""
    head_dim = q.shape[-1]
    assert head_dim <= 256 and k.shape[-1] == v.shape[-1] == head_dim, "one head dimension, up to 256"
    assert q.dim() in (3, 4) and q.dim() == k.dim() == v.dim(), "(batch, heads, length, head_dim) or no heads"
    three = q.dim() == 3
    if three:
        q, k, v = q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1)
    batch, heads, n_q, _ = q.shape
    assert heads % k.shape[1] == 0, "as many key/value heads as query heads, or a divisor of them"
    out = torch.empty((batch, heads, n_q, head_dim), dtype=q.dtype, device=q.device)
    sm_scale = scale if scale is not None else 1.0 / math.sqrt(head_dim)
    exact = "ieee" if q.dtype == torch.float32 else "tf32"
    grid = (triton.cdiv(n_q, 64), batch * heads)
    _kev_attention_fwd[grid](q, k, v, out, sm_scale, *q.stride(), *k.stride(), *v.stride(), *out.stride(), heads,
                             heads // k.shape[1], n_q, k.shape[2], head_dim,
                             HEAD_DIM=max(16, triton.next_power_of_2(head_dim)), BLOCK_M=64, BLOCK_N=64,
                             CAUSAL=is_causal, PRECISION=exact, num_warps=4, num_stages=2)
    return out.squeeze(1) if three else out
'''
ATTENTION = "F.scaled_dot_product_attention"


def _own_call(node: ast.Call) -> str | None:
    """``_kev_attention(q, k, v, is_causal, scale)`` for a maskless attention call; None for another call."""
    if ast.unparse(node.func) != ATTENTION or len(node.args) != 3:
        return None
    kwargs = {k.arg: k.value for k in node.keywords}
    mask = kwargs.get("attn_mask")
    if (mask is not None and not (isinstance(mask, ast.Constant) and mask.value is None)) or \
            set(kwargs) - {"attn_mask", "is_causal", "scale"}:
        return None
    args = [ast.unparse(a) for a in node.args]
    causal = ast.unparse(kwargs["is_causal"]) if "is_causal" in kwargs else "False"
    scale = ast.unparse(kwargs["scale"]) if "scale" in kwargs else "None"
    return f"_kev_attention({', '.join(args)}, {causal}, {scale})"


def own_attention(source: str) -> str | None:
    """``source`` with its maskless library attention in the project's Triton kernel; None if it has none.
    The calls are replaced in the text, so the rest (its comments, ``# kernelevo: keep`` marks) stays."""
    if ATTENTION not in source:
        return None
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.end_lineno is not None and node.end_col_offset is not None:
            replacement = _own_call(node)
            if replacement is not None:
                edits.append((starts[node.lineno - 1] + node.col_offset,
                              starts[node.end_lineno - 1] + node.end_col_offset, replacement))
    if not edits:
        return None
    for begin, end, replacement in sorted(edits, reverse=True):
        source = source[:begin] + replacement + source[end:]
    if "\nimport math\n" not in source:
        source = source.replace("\nimport torch\n", "\nimport math\n\nimport torch\n", 1)
    at = source.index("\nclass ModelNew")
    return source[:at] + KERNEL + source[at:]


def attention_seeds(seeds: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """For each seed that hands attention to the library, its twin with the project's Triton attention."""
    found = []
    for name, source in seeds:
        own = own_attention(source)
        if own is not None:
            found.append((f"{name}-triton-attention", own))
    return found


__all__ = ["attention_seeds", "own_attention"]
