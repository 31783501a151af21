"""The Triton kernels of the normalization family (:mod:`kernelevo.variation.seeding.families.norm`), as source text.

A normalized group ("row") is ``R`` elements: ``SEGS`` segments of ``INNER`` contiguous elements,
``SEG_STRIDE`` apart, the row starting at ``m * ROW_STRIDE`` (LayerNorm, GroupNorm, InstanceNorm:
one segment; BatchNorm's channel: one segment per sample). Every output is ``(x - shift) * scale``,
then the affine weight and bias: ``stat`` picks the statistics (0: mean and 1/sqrt(var + eps);
1: RMS, 1/sqrt(mean(x^2) + eps); 2: 1/sum|x|; 3: 1/sqrt(sum x^2)), ``affine`` where the weight is read
(0: none; 1: at the element's place in the row; 2: per channel, ``(m % G) * CPG + r // HWA``).
Means and variances combine chunk by chunk with Chan's formula, so that a long row keeps fp32's
precision. Every load is masked: a block size changes the speed, never the result.
"""

KERNELS = '''

@triton.jit
def _kev_scale(total, rows, eps, stat: tl.constexpr):
    """The scale of a row from the sum its ``stat`` accumulates (of x^2 or |x|) over ``rows`` elements."""
    if stat == 1:
        scale = 1.0 / tl.sqrt(total / rows + eps)
    elif stat == 2:
        scale = 1.0 / total
    else:
        scale = 1.0 / tl.sqrt(total)
    return scale


@triton.jit
def _kev_chunk(x, mask, stat: tl.constexpr):
    """One chunk's (count, mean, m2) for stat 0; its sum of x^2 or |x| (as mean, count and m2 zero) else."""
    count = tl.sum(mask.to(tl.float32), axis=0)
    if stat == 0:
        mean = tl.sum(x, axis=0) / tl.maximum(count, 1.0)
        d = tl.where(mask, x - mean, 0.0)
        m2 = tl.sum(d * d, axis=0)
    elif stat == 2:
        mean = tl.sum(tl.abs(x), axis=0)
        m2 = mean * 0.0
    else:
        mean = tl.sum(x * x, axis=0)
        m2 = mean * 0.0
    return count, mean, m2


@triton.jit
def _kev_merge(n, mean, m2, n_b, mean_b, m2_b, stat: tl.constexpr):
    """Running statistics with one more chunk's: Chan's parallel formula for stat 0, a sum else."""
    if stat == 0:
        total = n + n_b
        delta = mean_b - mean
        share = n_b / tl.maximum(total, 1.0)
        mean = mean + delta * share
        m2 = m2 + m2_b + delta * delta * n * share
        n = total
    else:
        mean = mean + mean_b
        n = n + n_b
    return n, mean, m2


@triton.jit
def _kev_affine(y, W, B, m, r, mask, G, CPG, HWA, affine: tl.constexpr, has_bias: tl.constexpr):
    if affine != 0:
        if affine == 1:
            idx = r
        else:
            idx = (m % G) * CPG + r // HWA
        y = y * tl.load(W + idx, mask=mask, other=0.0).to(tl.float32)
        if has_bias:
            y = y + tl.load(B + idx, mask=mask, other=0.0).to(tl.float32)
    return y


@triton.jit
def _kev_norm_resident(X, Y, W, B, R, G, CPG, HWA, eps, stat: tl.constexpr, affine: tl.constexpr,
                       has_bias: tl.constexpr, BLOCK: tl.constexpr):
    """One row per program, read once: the whole row stays in registers between its statistics and its
    normalization (BLOCK >= R)."""
    m = tl.program_id(0)
    r = tl.arange(0, BLOCK)
    mask = r < R
    base = m.to(tl.int64) * R
    x = tl.load(X + base + r, mask=mask, other=0.0).to(tl.float32)
    count, mean, m2 = _kev_chunk(x, mask, stat)
    if stat == 0:
        shift = mean
        scale = 1.0 / tl.sqrt(m2 / count + eps)
    else:
        shift = 0.0
        scale = _kev_scale(mean, count, eps, stat)
    y = _kev_affine((x - shift) * scale, W, B, m, r, mask, G, CPG, HWA, affine, has_bias)
    tl.store(Y + base + r, y, mask=mask)


@triton.jit
def _kev_norm_looped(X, Y, W, B, SEGS, INNER, ROW_STRIDE, SEG_STRIDE, G, CPG, HWA, eps, stat: tl.constexpr,
                     affine: tl.constexpr, has_bias: tl.constexpr, BLOCK: tl.constexpr):
    """One row per program in chunks of BLOCK: a pass for the statistics, a second to normalize (its
    reads of a row that fits the L2 cost no DRAM traffic)."""
    m = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    row = m.to(tl.int64) * ROW_STRIDE
    n = 0.0
    mean = 0.0
    m2 = 0.0
    for j in range(0, SEGS):
        for s0 in range(0, INNER, BLOCK):
            s = s0 + offs
            mask = s < INNER
            x = tl.load(X + row + j * SEG_STRIDE + s, mask=mask, other=0.0).to(tl.float32)
            n_b, mean_b, m2_b = _kev_chunk(x, mask, stat)
            n, mean, m2 = _kev_merge(n, mean, m2, n_b, mean_b, m2_b, stat)
    if stat == 0:
        shift = mean
        scale = 1.0 / tl.sqrt(m2 / n + eps)
    else:
        shift = 0.0
        scale = _kev_scale(mean, n, eps, stat)
    for j in range(0, SEGS):
        for s0 in range(0, INNER, BLOCK):
            s = s0 + offs
            mask = s < INNER
            at = row + j * SEG_STRIDE + s
            x = tl.load(X + at, mask=mask, other=0.0).to(tl.float32)
            y = _kev_affine((x - shift) * scale, W, B, m, j * INNER + s, mask, G, CPG, HWA, affine, has_bias)
            tl.store(Y + at, y, mask=mask)


@triton.jit
def _kev_norm_partial(X, P_N, P_MEAN, P_M2, M0, INNER, ROW_STRIDE, SEG_STRIDE, CHUNKS, stat: tl.constexpr,
                      BLOCK: tl.constexpr):
    """Split statistics: one chunk of BLOCK elements of one segment per program, its (count, mean, m2)
    written to the row's slot among ``SEGS * CHUNKS`` (rows from M0: a launch may cover some rows only)."""
    m = M0 + tl.program_id(0)
    p = tl.program_id(1)
    j = p // CHUNKS
    s = (p % CHUNKS) * BLOCK + tl.arange(0, BLOCK)
    mask = s < INNER
    x = tl.load(X + m.to(tl.int64) * ROW_STRIDE + j * SEG_STRIDE + s, mask=mask, other=0.0).to(tl.float32)
    count, mean, m2 = _kev_chunk(x, mask, stat)
    slot = m * tl.num_programs(1) + p
    tl.store(P_N + slot, count)
    tl.store(P_MEAN + slot, mean)
    tl.store(P_M2 + slot, m2)


@triton.jit
def _kev_norm_finish(P_N, P_MEAN, P_M2, SHIFT, SCALE, M0, PARTS, eps, stat: tl.constexpr, BLOCK_P: tl.constexpr):
    """The second, small pass of split statistics: one row's partial statistics combined (Chan's formula
    over the partials, in two passes over them), its shift and scale written (rows from M0)."""
    m = M0 + tl.program_id(0)
    offs = tl.arange(0, BLOCK_P)
    base = m.to(tl.int64) * PARTS
    n_acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    s_acc = tl.zeros([BLOCK_P], dtype=tl.float32)
    for p0 in range(0, PARTS, BLOCK_P):
        p = p0 + offs
        mask = p < PARTS
        n_p = tl.load(P_N + base + p, mask=mask, other=0.0)
        part = tl.load(P_MEAN + base + p, mask=mask, other=0.0)
        n_acc += n_p
        if stat == 0:
            s_acc += n_p * part  # a chunk's mean, weighted by its count
        else:
            s_acc += part  # a chunk's sum
    n = tl.sum(n_acc, axis=0)
    if stat == 0:
        mean = tl.sum(s_acc, axis=0) / n
        m2_acc = tl.zeros([BLOCK_P], dtype=tl.float32)
        for p0 in range(0, PARTS, BLOCK_P):
            p = p0 + offs
            mask = p < PARTS
            n_p = tl.load(P_N + base + p, mask=mask, other=0.0)
            d = tl.load(P_MEAN + base + p, mask=mask, other=0.0) - mean
            m2_acc += tl.load(P_M2 + base + p, mask=mask, other=0.0) + n_p * d * d
        tl.store(SHIFT + m, mean)
        tl.store(SCALE + m, 1.0 / tl.sqrt(tl.sum(m2_acc, axis=0) / n + eps))
    else:
        tl.store(SHIFT + m, 0.0)
        tl.store(SCALE + m, _kev_scale(tl.sum(s_acc, axis=0), n, eps, stat))


@triton.jit
def _kev_norm_apply(X, Y, W, B, SHIFT, SCALE, M0, INNER, ROW_STRIDE, SEG_STRIDE, CHUNKS, G, CPG, HWA,
                    affine: tl.constexpr, has_bias: tl.constexpr, BLOCK: tl.constexpr):
    """Split statistics' normalization: one chunk of one segment per program, its row's shift and scale
    read once (rows from M0)."""
    m = M0 + tl.program_id(0)
    p = tl.program_id(1)
    j = p // CHUNKS
    s = (p % CHUNKS) * BLOCK + tl.arange(0, BLOCK)
    mask = s < INNER
    at = m.to(tl.int64) * ROW_STRIDE + j * SEG_STRIDE + s
    x = tl.load(X + at, mask=mask, other=0.0).to(tl.float32)
    y = (x - tl.load(SHIFT + m)) * tl.load(SCALE + m)
    y = _kev_affine(y, W, B, m, j * INNER + s, mask, G, CPG, HWA, affine, has_bias)
    tl.store(Y + at, y, mask=mask)


@triton.jit
def _kev_norm_columns(X, Y, C, N, eps, stat: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_N: tl.constexpr):
    """Statistics over a middle dimension (x as [B, C, N], each of the B * N columns normalized over its C
    elements, N apart): a tile of BLOCK_N neighbouring columns per program, so that every load is a
    coalesced run of BLOCK_N; two passes over C (the second from L2)."""
    b = tl.program_id(1)
    n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = n < N
    base = b.to(tl.int64) * C * N
    cs = tl.arange(0, BLOCK_C)
    acc = tl.zeros([BLOCK_C, BLOCK_N], dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        c = c0 + cs
        mask = (c < C)[:, None] & n_mask[None, :]
        x = tl.load(X + base + c[:, None] * N + n[None, :], mask=mask, other=0.0).to(tl.float32)
        if stat == 2:
            acc += tl.abs(x)
        else:
            acc += x * x
    scale = _kev_scale(tl.sum(acc, axis=0), C, eps, stat)
    for c0 in range(0, C, BLOCK_C):
        c = c0 + cs
        mask = (c < C)[:, None] & n_mask[None, :]
        at = base + c[:, None] * N + n[None, :]
        x = tl.load(X + at, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + at, x * scale[None, :], mask=mask)
'''

__all__ = ["KERNELS"]
