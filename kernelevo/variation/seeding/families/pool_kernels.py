"""The Triton kernels of the pooling family (:mod:`kernelevo.variation.seeding.families.pool`), as source text.

Every pool is computed as a 3-D one over (D, H, W) of a plane ``n * C + c`` (a 2-D pool has D = 1, a 1-D
pool H = 1 too). ``op`` picks max (0, NaN propagating as torch's) or average (1, every window counted
whole: no padding). The window's sizes, strides, paddings and dilations are constexprs, so its loops
unroll; every load is masked (out of the input: -inf for max), so a block size changes the speed, never
the result.
"""

KERNELS = '''

@triton.jit
def _kev_pool_max(a, b):
    """The larger of a and b, NaN where either is NaN (as torch's max pooling)."""
    return tl.where((a > b) | (a != a), a, b)


@triton.jit
def _kev_pool_tiles(X, Y, D, H, W, OD, OH, OW, op: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr,
                    KW: tl.constexpr, SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr,
                    PH: tl.constexpr, PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
                    BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    """A tile of BLOCK_H x BLOCK_W outputs of one output depth of one plane per program. Its windows
    overlap: each window offset is a shifted load of the tile's input region, which the offsets before
    it brought into L1, so DRAM and L2 see the region (the tile's inputs and its halo) about once."""
    plane = tl.program_id(0)
    nc = plane // OD
    od = plane % OD
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = tl.program_id(2) * BLOCK_W + tl.arange(0, BLOCK_W)
    out_mask = (oh < OH)[:, None] & (ow < OW)[None, :]
    base = nc.to(tl.int64) * D * H * W
    if op == 0:
        acc = tl.full([BLOCK_H, BLOCK_W], float("-inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK_H, BLOCK_W], tl.float32)
    for kd in tl.static_range(KD):
        # the input depth as a vector over the tile's rows: Triton's interpreter turns a scalar mask and'd
        # into a vector one into int32, which its loads refuse
        i_d = od * SD - PD + kd * DD + tl.zeros([BLOCK_H], tl.int32)
        d_ok = (i_d >= 0) & (i_d < D)
        for kh in tl.static_range(KH):
            ih = oh * SH - PH + kh * DH
            h_ok = (ih >= 0) & (ih < H) & (oh < OH) & d_ok
            for kw in tl.static_range(KW):
                iw = ow * SW - PW + kw * DW
                mask = h_ok[:, None] & ((iw >= 0) & (iw < W) & (ow < OW))[None, :]
                at = base + (i_d[:, None] * H + ih[:, None]).to(tl.int64) * W + iw[None, :]
                if op == 0:
                    v = tl.load(X + at, mask=mask, other=float("-inf")).to(tl.float32)
                    acc = _kev_pool_max(acc, v)
                else:
                    acc += tl.load(X + at, mask=mask, other=0.0).to(tl.float32)
    if op == 1:
        acc = acc / (KD * KH * KW)
    out = nc.to(tl.int64) * OD * OH * OW + (od * OH + oh[:, None]).to(tl.int64) * OW + ow[None, :]
    tl.store(Y + out, acc, mask=out_mask)


@triton.jit
def _kev_pool_take(acc, v, op: tl.constexpr):
    """A window's element into its accumulator: max (one instruction, max.NaN: NaN propagating as torch's)
    or sum."""
    if op == 0:
        return tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    return acc + v


@triton.jit
def _kev_pool_rows(X, Y, W, OW, op: tl.constexpr, KW: tl.constexpr, SW: tl.constexpr, PW: tl.constexpr,
                   DW: tl.constexpr, BLOCK: tl.constexpr):
    """A 1-D pool: BLOCK outputs of one row (plane) per program. A pool over few bytes per window is held by
    the SMs' issue rate, not the DRAM (8 masked loads, their index arithmetic and a NaN-aware compare per
    output): so a program away from the row's ends, where every window lies inside the row, loads without
    masks at constant offsets from one pointer, and a max is one instruction. Only the programs at a
    row's ends take the masked path."""
    blocks = tl.cdiv(OW, BLOCK)
    pid = tl.program_id(0)
    plane = pid // blocks
    first = (pid % blocks) * BLOCK
    ow = first + tl.arange(0, BLOCK)
    x_row = X + plane.to(tl.int64) * W + ow * SW - PW
    y_row = Y + plane.to(tl.int64) * OW + ow
    inside = (first * SW >= PW) & ((first + BLOCK - 1) * SW - PW + (KW - 1) * DW < W) & (first + BLOCK <= OW)
    if op == 0:
        acc = tl.full([BLOCK], float("-inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK], tl.float32)
    if inside:
        for kw in tl.static_range(KW):
            acc = _kev_pool_take(acc, tl.load(x_row + kw * DW).to(tl.float32), op)
    else:
        for kw in tl.static_range(KW):
            iw = ow * SW - PW + kw * DW
            mask = (iw >= 0) & (iw < W) & (ow < OW)
            v = tl.load(x_row + kw * DW, mask=mask, other=float("-inf") if op == 0 else 0.0).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
    if op == 1:
        acc = acc / KW
    if inside:
        tl.store(y_row, acc)
    else:
        tl.store(y_row, acc, mask=ow < OW)


def _kev_pool_taps_asm(op, kw, dw, lead):
    """The PTX that makes 4 consecutive outputs ($0 to $3) of a stride-1 1-D pool from the aligned 4-vectors of
    input their windows span (8 of them, $4 to $35, in order: operand 4 + r holds the input r elements after
    the first vector's start): output i's tap k is input ``lead + i + dw * k``. A maximum is ``max.NaN`` (NaN
    propagating, as torch's max pooling); an average's sum is divided by the caller. Host code: the taps are
    the window's, read from the model at run time, and inline PTX is a constexpr string."""
    combine = "max.NaN.f32" if op == 0 else "add.f32"
    lines = []
    for i in range(4):
        taps = [4 + lead + i + dw * k for k in range(kw)]
        lines.append(f"mov.b32 ${i}, ${taps[0]};")
        lines += [f"{combine} ${i}, ${i}, ${t};" for t in taps[1:]]
    return " ".join(lines)  # one line: each instruction ends with its ";"


@triton.jit
def _kev_pool_vectors(X, Y, W, OW, op: tl.constexpr, KW: tl.constexpr, PW: tl.constexpr, DW: tl.constexpr,
                      VECTORS: tl.constexpr, TAPS0: tl.constexpr, TAPS1: tl.constexpr, TAPS2: tl.constexpr,
                      TAPS3: tl.constexpr, ALIGN: tl.constexpr, BLOCK: tl.constexpr):
    """A stride-1 1-D pool from aligned vector loads and stores, its taps picked from registers: BLOCK outputs of
    one row per program, 4 consecutive ones a thread, each thread's 4 outputs one aligned 16-byte store.

    A row's outputs start at ``plane * OW`` in Y, which is aligned only where OW is a multiple of 4 (maxpool1d's
    32,755 is not: its stores were scalar, and rows of 32,768 ran 15% faster, benchmarks/results/
    pool_cache_hints-h200.json). So a row's blocks start ``skew`` (that start modulo ALIGN, a multiple of 4)
    outputs early, and the inputs the 4 windows of a thread span are VECTORS aligned 16-byte loads from
    ``lead`` + PW before its first output (``lead`` in 0..3 makes the first load aligned; it depends on the
    row, so the 4 tap pickings are constexprs, TAPSn for lead n, :func:`_kev_pool_taps_asm`): with a window of
    8 dilated by 3, 7 vector loads, 28 maxima and one vector store per 4 outputs, where ``_kev_pool_rows``
    makes 32 scalar loads (its offsets are unaligned) and 4 scalar stores. The host launches it on CUDA only
    (inline PTX), for a row of a multiple of 16 elements (each thread's 4 inputs aligned) and windows spanning
    at most 8 vectors; the programs at a row's ends take the masked path."""
    blocks = tl.cdiv(OW + ALIGN - 1, BLOCK)
    pid = tl.program_id(0)
    plane = pid // blocks
    y_start = plane.to(tl.int64) * OW
    skew = (y_start % ALIGN).to(tl.int32)
    first = (pid % blocks) * BLOCK - skew  # ALIGN-aligned in Y
    lead = (4 - (skew + PW) % 4) % 4  # first - PW - lead: 4-aligned in the row
    j = tl.arange(0, BLOCK)
    x_row = X + plane.to(tl.int64) * W
    start = first - PW - lead
    inside = (first >= 0) & (first + BLOCK <= OW) & (start >= 0) & (start + 4 * VECTORS + BLOCK <= W)
    if inside:
        at = x_row + tl.multiple_of(start, 4) + j
        v0 = tl.load(at).to(tl.float32)
        v1, v2, v3, v4, v5, v6, v7 = v0, v0, v0, v0, v0, v0, v0  # beyond VECTORS: operands TAPS never names
        if VECTORS > 1:
            v1 = tl.load(at + 4).to(tl.float32)
        if VECTORS > 2:
            v2 = tl.load(at + 8).to(tl.float32)
        if VECTORS > 3:
            v3 = tl.load(at + 12).to(tl.float32)
        if VECTORS > 4:
            v4 = tl.load(at + 16).to(tl.float32)
        if VECTORS > 5:
            v5 = tl.load(at + 20).to(tl.float32)
        if VECTORS > 6:
            v6 = tl.load(at + 24).to(tl.float32)
        if VECTORS > 7:
            v7 = tl.load(at + 28).to(tl.float32)
        # the same for every thread of the program: no divergence
        if lead == 0:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS0)
        elif lead == 1:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS1)
        elif lead == 2:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS2)
        else:
            acc = _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS3)
        if op == 1:
            acc = acc / KW
        tl.store(Y + tl.multiple_of(y_start + first, 4) + j, acc)
    else:
        ow = first + j
        acc = tl.full([BLOCK], float("-inf") if op == 0 else 0.0, tl.float32)
        for kw in tl.static_range(KW):
            iw = ow - PW + kw * DW
            mask = (iw >= 0) & (iw < W) & (ow >= 0) & (ow < OW)
            v = tl.load(x_row + iw, mask=mask, other=float("-inf") if op == 0 else 0.0).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
        if op == 1:
            acc = acc / KW
        tl.store(Y + y_start + ow, acc, mask=(ow >= 0) & (ow < OW))


@triton.jit
def _kev_pool_taps(v0, v1, v2, v3, v4, v5, v6, v7, TAPS: tl.constexpr):
    """4 outputs a thread from the 8 vectors of 4 inputs its windows span, by the inline PTX ``TAPS``."""
    return tl.inline_asm_elementwise(
        TAPS, "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r",
        [v0, v1, v2, v3, v4, v5, v6, v7], dtype=tl.float32, is_pure=True, pack=4)


@triton.jit
def _kev_pool_blocked(X, Y, D, H, W, OD, OH, OW, op: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr,
                      KW: tl.constexpr, KHP: tl.constexpr, KWP: tl.constexpr, BLOCK_H: tl.constexpr,
                      BLOCK_W: tl.constexpr):
    """Windows that tile the input (stride = window, no padding, no dilation): a program loads its
    BLOCK_H x BLOCK_W windows as one [BLOCK_H, KHP, BLOCK_W, KWP] tile (KHP, KWP: the window's sizes
    padded to powers of two, the padding masked), each input element by one lane exactly once, and
    reduces over the window's axes in registers."""
    plane = tl.program_id(0)
    nc = plane // OD
    od = plane % OD
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = tl.program_id(2) * BLOCK_W + tl.arange(0, BLOCK_W)
    kh = tl.arange(0, KHP)
    kw = tl.arange(0, KWP)
    ih = oh[:, None] * KH + kh[None, :]  # [BLOCK_H, KHP]
    iw = ow[:, None] * KW + kw[None, :]  # [BLOCK_W, KWP]
    h_ok = (oh < OH)[:, None] & (kh < KH)[None, :]
    w_ok = (ow < OW)[:, None] & (kw < KW)[None, :]
    mask = h_ok[:, :, None, None] & w_ok[None, None, :, :]
    base = nc.to(tl.int64) * D * H * W
    if op == 0:
        acc = tl.full([BLOCK_H, BLOCK_W], float("-inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK_H, BLOCK_W], tl.float32)
    for kd in tl.static_range(KD):
        at = base + ((od * KD + kd) * H + ih[:, :, None, None]).to(tl.int64) * W + iw[None, None, :, :]
        if op == 0:
            v = tl.load(X + at, mask=mask, other=float("-inf")).to(tl.float32)
            acc = _kev_pool_max(acc, tl.reduce(tl.reduce(v, 3, _kev_pool_max), 1, _kev_pool_max))
        else:
            v = tl.load(X + at, mask=mask, other=0.0).to(tl.float32)
            acc += tl.sum(tl.sum(v, axis=3), axis=1)
    if op == 1:
        acc = acc / (KD * KH * KW)
    out_mask = (oh < OH)[:, None] & (ow < OW)[None, :]
    out = nc.to(tl.int64) * OD * OH * OW + (od * OH + oh[:, None]).to(tl.int64) * OW + ow[None, :]
    tl.store(Y + out, acc, mask=out_mask)

@triton.jit
def _kev_pool_gather(X, Y, D, H, W, OD, OH, OW, op: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr,
                     KW: tl.constexpr, SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr,
                     PH: tl.constexpr, PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
                     BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_OW: tl.constexpr):
    """BLOCK_H output rows, whole, of one output depth of one plane per program (BLOCK_W >= W, BLOCK_OW >= OW).
    A window's maximum is the maximum over its W taps of the maximum over its (D, H) taps: so each (D, H) tap is
    one load of BLOCK_H whole input rows (contiguous, vectorised, each element by one lane) folded into one
    accumulator elementwise, and each W tap is a gather of the accumulator's columns (within a warp where a
    warp holds whole rows). Per output that is a few vector loads, not a masked load per window element."""
    plane = tl.program_id(0)
    nc = plane // OD
    od = plane % OD
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    iw = tl.arange(0, BLOCK_W)
    base = nc.to(tl.int64) * D * H * W
    empty = float("-inf") if op == 0 else 0.0
    acc = tl.full([BLOCK_H, BLOCK_W], empty, tl.float32)
    for kd in tl.static_range(KD):
        i_d = od * SD - PD + kd * DD + tl.zeros([BLOCK_H], tl.int32)  # a vector: see _kev_pool_tiles
        d_ok = (i_d >= 0) & (i_d < D)
        for kh in tl.static_range(KH):
            ih = oh * SH - PH + kh * DH
            ok = d_ok & (ih >= 0) & (ih < H) & (oh < OH)
            at = base + ((i_d * H + ih).to(tl.int64) * W)[:, None] + iw[None, :]
            v = tl.load(X + at, mask=ok[:, None] & (iw < W)[None, :], other=empty).to(tl.float32)
            acc = _kev_pool_take(acc, v, op)
    ow = tl.arange(0, BLOCK_OW)
    out = tl.full([BLOCK_H, BLOCK_OW], empty, tl.float32)
    for kw in tl.static_range(KW):
        iw_k = ow * SW - PW + kw * DW
        iw_ok = (iw_k >= 0) & (iw_k < W)  # a padding column: no element (its gather reads column 0, unused)
        columns = tl.broadcast_to(tl.where(iw_ok, iw_k, 0)[None, :], [BLOCK_H, BLOCK_OW])
        out = _kev_pool_take(out, tl.where(iw_ok[None, :], tl.gather(acc, columns, 1), empty), op)
    if op == 1:
        out = out / (KD * KH * KW)
    at = nc.to(tl.int64) * OD * OH * OW + ((od * OH + oh).to(tl.int64) * OW)[:, None] + ow[None, :]
    tl.store(Y + at, out, mask=(oh < OH)[:, None] & (ow < OW)[None, :])

'''

__all__ = ["KERNELS"]
