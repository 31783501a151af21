"""kernelevo.evaluation.child.interpreter_speed: custom combines reduced and scanned in log steps compute what
the interpreter's per-element path computes, and a combine that cannot take blocks still runs.

The kernels run in a child with TRITON_INTERPRET=1 (the patch is never installed in the test process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import json, sys, time
    import torch, triton, triton.language as tl

    @triton.jit
    def _max_nan(a, b):  # torch.amax's NaN: tl.max alone drops it
        return tl.where((a > b) | (a != a), a, b)

    @triton.jit
    def _welford(m1, v1, c1, m2, v2, c2):  # (mean, M2, count): three values a step
        c = c1 + c2
        d = m2 - m1
        w = tl.where(c == 0, 0.0, c2 / tl.where(c == 0, 1.0, c))
        return m1 + d * w, v1 + v2 + d * d * c1 * w, c

    @triton.jit
    def _add(a, b):
        return a + b

    @triton.jit
    def _scalar_only(a, b):  # Python control flow on a value: only the per-element path can run it
        if a > b:
            return a
        return b

    @triton.jit
    def kernel(X, MAX, VAR, CUMMAX, RCUMSUM, TWO_D, SCALAR, N: tl.constexpr, B: tl.constexpr):
        row = tl.program_id(0)
        offs = tl.arange(0, B)
        inside = offs < N
        x = tl.load(X + row * N + offs, mask=inside, other=float("-inf"))
        tl.store(MAX + row, tl.reduce(x, 0, _max_nan))
        x0 = tl.load(X + row * N + offs, mask=inside, other=0.0)
        m, v, c = tl.reduce((x0, tl.zeros_like(x0), inside.to(tl.float32)), 0, _welford)
        tl.store(VAR + row, v / c)
        tl.store(CUMMAX + row * N + offs, tl.associative_scan(x, 0, _max_nan), mask=inside)
        tl.store(RCUMSUM + row * N + offs, tl.associative_scan(x0, 0, _add, reverse=True), mask=inside)
        tile = tl.reshape(x0, (B // 8, 8))  # a 2-D block reduced over its second axis
        tl.store(TWO_D + row * (B // 8) + tl.arange(0, B // 8), tl.reduce(tile, 1, _max_nan))
        tl.store(SCALAR + row, tl.reduce(x0, 0, _scalar_only))

    def run(rows=4, n=200, block=256):
        torch.manual_seed(0)
        x = torch.randn(rows, n)
        x[::3, n // 2] = float("nan")
        out = dict(MAX=torch.empty(rows), VAR=torch.empty(rows), CUMMAX=torch.empty(rows, n),
                   RCUMSUM=torch.empty(rows, n), TWO_D=torch.empty(rows, block // 8), SCALAR=torch.empty(rows))
        start = time.perf_counter()
        kernel[(rows,)](x, *out.values(), n, block)
        return x, out, time.perf_counter() - start

    if sys.argv[1] == "fast":
        from kernelevo.evaluation.child import interpreter_speed
        interpreter_speed.install()
    run()  # the interpreter's first launch
    x, out, seconds = run()
    torch.save(out, sys.argv[2])
    print(json.dumps({"seconds": seconds}))
''')


def _run(mode: str, tmp_path) -> tuple[dict, float]:
    import torch

    env = {**os.environ, "TRITON_INTERPRET": "1"}
    path = tmp_path / f"{mode}.pt"
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(path)], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return torch.load(path), json.loads(done.stdout.strip().splitlines()[-1])["seconds"]


def test_log_step_reduces_and_scans_compute_what_the_per_element_path_computes(tmp_path) -> None:
    import torch

    slow, slow_s = _run("slow", tmp_path)
    fast, fast_s = _run("fast", tmp_path)
    torch.manual_seed(0)
    x = torch.randn(4, 200)
    x[::3, 100] = float("nan")
    assert torch.equal(fast["MAX"].isnan(), x.isnan().any(1))  # the NaN rows propagate
    assert torch.allclose(fast["MAX"], slow["MAX"], equal_nan=True)
    assert torch.equal(fast["CUMMAX"].isnan(), slow["CUMMAX"].isnan())
    assert torch.allclose(fast["CUMMAX"], slow["CUMMAX"], equal_nan=True)
    assert torch.allclose(fast["TWO_D"], slow["TWO_D"], equal_nan=True)
    # sums in another order: equal to rounding, and both right against torch
    reference_var = torch.where(x.isnan().any(1), float("nan"), x.nan_to_num().var(1, unbiased=False))
    for result in (fast, slow):
        assert torch.allclose(result["VAR"], reference_var, rtol=1e-4, atol=1e-6, equal_nan=True)
        assert torch.allclose(result["RCUMSUM"], x.flip(1).cumsum(1).flip(1), rtol=1e-4, atol=1e-4, equal_nan=True)
    # the scalar-only combine fell back to the per-element path: the same answer
    assert torch.equal(fast["SCALAR"], slow["SCALAR"])
    assert fast_s < slow_s  # the point of it (no figure asserted: a test is not a benchmark)
