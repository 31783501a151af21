"""CUDA candidates on a GPU: both forms judged end to end, their launches seen by the profiler,
their builds kept and cached (the attacks are in adversarial/, with the Triton ones)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import torch
from cuda_kernels import CUPY, LOAD_INLINE

from kernelevo.evaluation import ErrorKind, EvalOptions, Evaluator
from kernelevo.spec import read_spec

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")]


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evaluator]:
    root = Path(__file__).resolve().parents[2]
    text = (root / "examples" / "gelu" / "spec.py").read_text()
    spec = tmp_path_factory.mktemp("spec") / "gelu_cuda.py"
    spec.write_text(text[:text.index("KERNELEVO")] + 'KERNELEVO = {"language": "cuda", "variants": '
                    '{"small": {"batch_size": 4, "dim": 1000}, "odd": {"batch_size": 3, "dim": 1531}}}\n')
    options = EvalOptions(device="cuda", baselines=["eager"], run_timeout_s=30, compile_timeout_s=300)
    with Evaluator(read_spec(str(spec)), options) as warm:
        yield warm


def test_a_cupy_kernel_is_judged_with_the_gpus_own_figures(evaluator: Evaluator) -> None:
    result = evaluator.evaluate(CUPY)
    assert result.ok, result.message
    assert result.launches > 0 and result.speedup_eager is not None and not result.interpreted
    [kernel] = [k for k in result.kernels if k.name == "gelu_kernel"]
    assert kernel.source == "runtime" and kernel.registers and kernel.max_threads_per_block
    # What the GPU ran (NVRTC keeps no listing), and the same unit compiled by nvcc for its PTX and SASS.
    [ran] = [b for b in result.cuda if not b.ahead_of_time]
    [listed] = [b for b in result.cuda if b.ahead_of_time]
    assert ran.form == listed.form == "cupy" and "nvrtc" in ran.compiler
    assert listed.ptx and listed.sass and "nvcc" in listed.compiler


def test_a_load_inline_kernel_is_built_once_then_taken_from_the_cache(evaluator: Evaluator) -> None:
    source = LOAD_INLINE.replace("gelu_ext", f"gelu_ext_{torch.randint(0, 10**9, ()).item()}")
    first, again = evaluator.evaluate(source), evaluator.evaluate(source)
    assert first.ok and again.ok, first.message + again.message
    assert not first.cuda[0].cached and again.cuda[0].cached
    assert again.cuda[0].compile_s is not None and first.cuda[0].compile_s is not None
    assert again.cuda[0].compile_s < first.cuda[0].compile_s / 3
    assert first.cuda[0].sass and any(k.name == "gelu_kernel" and k.registers for k in first.kernels)


def test_an_illegal_address_is_a_cuda_error_and_the_next_kernel_still_passes(evaluator: Evaluator) -> None:
    crash = CUPY.replace("if (i < n) {", "if (i < n) { y[i + (1LL << 40)] = 1.0f;")
    result = evaluator.evaluate(crash)
    assert result.error in (ErrorKind.CUDA_ERROR, ErrorKind.CRASHED), result.message
    assert evaluator.evaluate(CUPY).ok


@pytest.mark.parametrize(("change", "expected"), [
    (("kernel(((n", "cp.tanh(cp.asarray(x)); kernel(((n"), ErrorKind.LIBRARY_CALL),
    (("with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):",
      "with cp.cuda.Stream(non_blocking=True):"), ErrorKind.SIDE_STREAM),
    (("kernel(((n + 255)", "if n < 0: kernel(((n + 255)"), ErrorKind.KERNEL_NOT_LAUNCHED),
])
def test_what_the_gpu_ran_is_checked_without_the_static_checks(change: tuple[str, str], expected: ErrorKind,
                                                              evaluator: Evaluator) -> None:
    source = CUPY.replace(*change)
    assert source != CUPY
    lax = Evaluator(evaluator.spec, evaluator.options.model_copy(update={"static_checks": False}))
    try:
        result = lax.evaluate(source)
    finally:
        lax.close()
    assert result.error == expected, result.message
