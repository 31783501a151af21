"""The Triton kernels of the scan family (:mod:`kernelevo.variation.seeding.families.scan`), as source text.

``op`` picks the scan (0: cumulative sum, 1: cumulative product), ``masked`` whether each element is first
multiplied by a second input's (a bool mask), ``reverse`` whether the scan runs from the row's end. A
chunk is scanned in registers (``tl.cumsum`` / ``tl.cumprod``) and combined with the carry of the chunks
before it; every load is masked with the scan's identity, so a block size changes the speed, never the
result.
"""

KERNELS = '''

@triton.jit
def _kev_scan_identity(op: tl.constexpr):
    if op == 1:
        value = 1.0
    else:
        value = 0.0
    return value


@triton.jit
def _kev_scan_mul(a, b):
    return a * b


@triton.jit
def _kev_scan_load(X, MASK, at, mask, op: tl.constexpr, masked: tl.constexpr):
    """A chunk's elements in fp32, those outside the row (or the mask's zeros, times x) the identity's."""
    x = tl.load(X + at, mask=mask, other=_kev_scan_identity(op)).to(tl.float32)
    if masked:
        x = x * tl.load(MASK + at, mask=mask, other=0).to(tl.float32)
        x = tl.where(mask, x, _kev_scan_identity(op))
    return x


@triton.jit
def _kev_scan_chunk(x, carry, axis: tl.constexpr, op: tl.constexpr, reverse: tl.constexpr):
    """(the chunk's scan combined with the carry before it, the carry after it) along ``axis`` (1).

    The carry after is the scan's element at the chunk's far end, not ``carry + sum(x)``: Triton 3.6's
    TritonGPUOptimizeThreadLocality pass fails ("PassManager::run failed") on a loop-carried sum of a
    loaded chunk beside its scan, so the reduction reads the scan instead (one element per row)."""
    if op == 1:
        y = tl.cumprod(x, axis=axis, reverse=reverse) * tl.expand_dims(carry, axis)
    else:
        y = tl.cumsum(x, axis=axis, reverse=reverse) + tl.expand_dims(carry, axis)
    lanes = tl.arange(0, y.shape[1])
    if reverse:
        edge = lanes == 0
    else:
        edge = lanes == y.shape[1] - 1
    carry = tl.sum(tl.where(edge[None, :], y, 0.0), axis=axis)
    return y, carry


@triton.jit
def _kev_scan_rows(X, MASK, Y, M, R, op: tl.constexpr, masked: tl.constexpr, reverse: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK: tl.constexpr):
    """BLOCK_M rows per program, walked chunk by chunk of BLOCK (from the end where ``reverse``), each
    chunk scanned in registers and offset by the carry of those before it: 4N read, 4N written."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    m_mask = rows < M
    base = rows.to(tl.int64) * R
    offs = tl.arange(0, BLOCK)
    carry = tl.zeros([BLOCK_M], tl.float32) + _kev_scan_identity(op)
    for i in range(0, tl.cdiv(R, BLOCK)):
        if reverse:
            r = R - (i + 1) * BLOCK + offs  # lanes before the row's start are masked, on the chunk's left
        else:
            r = i * BLOCK + offs
        mask = m_mask[:, None] & ((r >= 0) & (r < R))[None, :]
        at = base[:, None] + r[None, :]
        x = _kev_scan_load(X, MASK, at, mask, op, masked)
        y, carry = _kev_scan_chunk(x, carry, 1, op, reverse)
        tl.store(Y + at, y, mask=mask)


@triton.jit
def _kev_scan_totals(X, MASK, PART, R, CHUNKS, op: tl.constexpr, masked: tl.constexpr, BLOCK: tl.constexpr):
    """Chunked scan's first pass: one chunk of BLOCK of one row per program, its sum (product) kept."""
    m = tl.program_id(0)
    c = tl.program_id(1)
    r = c * BLOCK + tl.arange(0, BLOCK)
    mask = r < R
    x = _kev_scan_load(X, MASK, m.to(tl.int64) * R + r, mask, op, masked)
    if op == 1:
        total = tl.reduce(x, 0, _kev_scan_mul)
    else:
        total = tl.sum(x, axis=0)
    tl.store(PART + m.to(tl.int64) * CHUNKS + c, total)


@triton.jit
def _kev_scan_chunks(X, MASK, Y, PART, R, CHUNKS, op: tl.constexpr, masked: tl.constexpr,
                     reverse: tl.constexpr, BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    """Chunked scan's second pass: a program's carry is the combined totals of the chunks before its own
    (after it where ``reverse``), read from the first pass's; then its chunk is scanned with it."""
    m = tl.program_id(0)
    c = tl.program_id(1)
    ps = tl.arange(0, BLOCK_P)
    acc = tl.zeros([BLOCK_P], tl.float32) + _kev_scan_identity(op)
    for p0 in range(0, CHUNKS, BLOCK_P):
        p = p0 + ps
        if reverse:
            before = (p > c) & (p < CHUNKS)
        else:
            before = p < c
        part = tl.load(PART + m.to(tl.int64) * CHUNKS + p, mask=before, other=_kev_scan_identity(op))
        if op == 1:
            acc = acc * part
        else:
            acc = acc + part
    if op == 1:
        carry = tl.reduce(acc, 0, _kev_scan_mul)
    else:
        carry = tl.sum(acc, axis=0)
    r = c * BLOCK + tl.arange(0, BLOCK)
    mask = r < R
    at = m.to(tl.int64) * R + r
    x = _kev_scan_load(X, MASK, at, mask, op, masked)
    y, carry = _kev_scan_chunk(x[None, :], carry + tl.zeros([1], tl.float32), 1, op, reverse)
    tl.store(Y + at[None, :], y, mask=mask[None, :])
'''

__all__ = ["KERNELS"]
