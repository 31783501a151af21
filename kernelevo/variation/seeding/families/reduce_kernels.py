"""The Triton kernels of the row-reduction family (:mod:`kernelevo.variation.seeding.families.reduce`), as source text.

``op`` picks the reduction (0: sum, 1: mean, 2: max, 3: min) and ``kind`` the softmax (0: softmax,
1: log-softmax). Accumulation is in fp32; every load is masked with the reduction's identity, so a
block size or a program count changes the speed, never the result. Max and min propagate NaN as
``torch.max`` / ``amax`` / ``min`` do (``tl.maximum`` and ``tl.max`` drop it): their combines keep a NaN
operand, as inductor's ``maximum`` / ``max2`` helpers do.
"""

KERNELS = '''

@triton.jit
def _kev_identity(op: tl.constexpr):
    if op == 2:
        value = float("-inf")
    elif op == 3:
        value = float("inf")
    else:
        value = 0.0
    return value


@triton.jit
def _kev_max_nan(a, b):
    """The larger of a and b, NaN where either is NaN (a != a only for NaN)."""
    return tl.where((a > b) | (a != a), a, b)


@triton.jit
def _kev_min_nan(a, b):
    """The smaller of a and b, NaN where either is NaN."""
    return tl.where((a < b) | (a != a), a, b)


@triton.jit
def _kev_combine(acc, x, op: tl.constexpr):
    if op == 2:
        acc = _kev_max_nan(acc, x)
    elif op == 3:
        acc = _kev_min_nan(acc, x)
    else:
        acc = acc + x
    return acc


@triton.jit
def _kev_total(acc, axis: tl.constexpr, op: tl.constexpr):
    if op == 2:
        value = tl.reduce(acc, axis, _kev_max_nan)
    elif op == 3:
        value = tl.reduce(acc, axis, _kev_min_nan)
    else:
        value = tl.sum(acc, axis=axis)
    return value


@triton.jit
def _kev_reduce_row(X, OUT, R, op: tl.constexpr, BLOCK: tl.constexpr):
    """One row per program, in chunks of BLOCK (a vector accumulator, reduced once at the end)."""
    m = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = m.to(tl.int64) * R
    acc = tl.zeros([BLOCK], tl.float32) + _kev_identity(op)
    for r0 in range(0, R, BLOCK):
        r = r0 + offs
        x = tl.load(X + base + r, mask=r < R, other=_kev_identity(op)).to(tl.float32)
        acc = _kev_combine(acc, x, op)
    total = _kev_total(acc, 0, op)
    if op == 1:
        total = total / R
    tl.store(OUT + m, total)


@triton.jit
def _kev_reduce_persistent(X, OUT, M, R, op: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_R: tl.constexpr):
    """A fixed grid of programs, each walking tiles of BLOCK_M rows (a tile apart by the grid's size): short
    rows fill a tile's lanes, and the launch costs one wave whatever the rows."""
    rows = tl.arange(0, BLOCK_M)
    offs = tl.arange(0, BLOCK_R)
    for t in range(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.num_programs(0)):
        m = t * BLOCK_M + rows
        m_mask = m < M
        base = m.to(tl.int64) * R
        acc = tl.zeros([BLOCK_M, BLOCK_R], tl.float32) + _kev_identity(op)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + offs
            mask = m_mask[:, None] & (r < R)[None, :]
            x = tl.load(X + base[:, None] + r[None, :], mask=mask, other=_kev_identity(op)).to(tl.float32)
            acc = _kev_combine(acc, x, op)
        total = _kev_total(acc, 1, op)
        if op == 1:
            total = total / R
        tl.store(OUT + m, total, mask=m_mask)


@triton.jit
def _kev_reduce_partial(X, PART, R, op: tl.constexpr, BLOCK: tl.constexpr):
    """Split rows: one chunk of BLOCK elements of one row per program, its partial result in the row's slot."""
    m = tl.program_id(0)
    c = tl.program_id(1)
    r = c * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + m.to(tl.int64) * R + r, mask=r < R, other=_kev_identity(op)).to(tl.float32)
    tl.store(PART + m * tl.num_programs(1) + c, _kev_total(x, 0, op))


@triton.jit
def _kev_reduce_finish(PART, OUT, PARTS, R, op: tl.constexpr, BLOCK_P: tl.constexpr):
    """Split rows' second, small pass: a row's partial results reduced."""
    m = tl.program_id(0)
    offs = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32) + _kev_identity(op)
    for p0 in range(0, PARTS, BLOCK_P):
        p = p0 + offs
        part = tl.load(PART + m.to(tl.int64) * PARTS + p, mask=p < PARTS, other=_kev_identity(op))
        acc = _kev_combine(acc, part, op)
    total = _kev_total(acc, 0, op)
    if op == 1:
        total = total / R
    tl.store(OUT + m, total)


@triton.jit
def _kev_reduce_columns(X, OUT, R, N, op: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    """A reduction over a middle dimension (x as [B, R, N]): a tile of BLOCK_N neighbouring columns per
    program, so that each load is a coalesced run although the reduced elements lie N apart."""
    b = tl.program_id(1)
    n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = n < N
    base = b.to(tl.int64) * R * N
    rs = tl.arange(0, BLOCK_R)
    acc = tl.zeros([BLOCK_R, BLOCK_N], tl.float32) + _kev_identity(op)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + rs
        mask = (r < R)[:, None] & n_mask[None, :]
        x = tl.load(X + base + r[:, None] * N + n[None, :], mask=mask, other=_kev_identity(op)).to(tl.float32)
        acc = _kev_combine(acc, x, op)
    total = _kev_total(acc, 0, op)
    if op == 1:
        total = total / R
    tl.store(OUT + b.to(tl.int64) * N + n, total, mask=n_mask)


@triton.jit
def _kev_softmax_resident(X, Y, R, kind: tl.constexpr, BLOCK: tl.constexpr):
    """One row per program, read once and kept in registers (BLOCK >= R)."""
    m = tl.program_id(0)
    r = tl.arange(0, BLOCK)
    mask = r < R
    base = m.to(tl.int64) * R
    x = tl.load(X + base + r, mask=mask, other=float("-inf")).to(tl.float32)
    shifted = x - tl.max(x, axis=0)
    e = tl.exp(shifted)
    total = tl.sum(e, axis=0)
    if kind == 0:
        y = e / total
    else:
        y = shifted - tl.log(total)
    tl.store(Y + base + r, y, mask=mask)


@triton.jit
def _kev_softmax_online(X, Y, R, kind: tl.constexpr, BLOCK: tl.constexpr):
    """One row per program in chunks: one pass keeps each lane's running maximum and its sum of
    exponentials rescaled to it (online softmax), the second writes (its reads from L2)."""
    m = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = m.to(tl.int64) * R
    run_max = tl.full([BLOCK], float("-inf"), tl.float32)
    run_sum = tl.zeros([BLOCK], tl.float32)
    for r0 in range(0, R, BLOCK):
        r = r0 + offs
        x = tl.load(X + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(run_max, x)
        # a lane that has seen only -inf keeps a sum of 0 (exp(-inf - -inf) would be NaN)
        safe = tl.where(new_max == float("-inf"), 0.0, new_max)
        run_sum = run_sum * tl.exp(run_max - safe) + tl.exp(x - safe)
        run_max = new_max
    row_max = tl.max(run_max, axis=0)
    total = tl.sum(run_sum * tl.exp(run_max - row_max), axis=0)
    for r0 in range(0, R, BLOCK):
        r = r0 + offs
        mask = r < R
        x = tl.load(X + base + r, mask=mask, other=0.0).to(tl.float32)
        if kind == 0:
            y = tl.exp(x - row_max) / total
        else:
            y = x - row_max - tl.log(total)
        tl.store(Y + base + r, y, mask=mask)
'''

__all__ = ["KERNELS"]
