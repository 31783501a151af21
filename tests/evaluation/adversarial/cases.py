"""The adversarial cases: which candidate, under which checks, must be rejected for which reason.

Each :class:`Case` names a module in ``kernels/`` (whose docstring describes the exploit
and the harness weakness it targets), the options it runs under, and the exact
:class:`ErrorKind` the evaluator must report. ``bug`` marks a case the evaluator gets
wrong today: the test keeps asserting the right reason and is an ``xfail(strict=True)``
until kernelevo is fixed (README.md lists the bugs).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kernelevo.evaluation import ErrorKind, EvalOptions

KERNELS = Path(__file__).parent / "kernels"
GELU_SPEC = Path(__file__).resolve().parents[3] / "examples" / "gelu" / "spec.py"
SPECS = Path(__file__).parent / "specs"
CONTROL = "seed_control.py"


def options(static_checks: bool, runtime_checks: bool) -> EvalOptions:
    """The suite's options: the given checks, short limits (a hang costs seconds, not minutes)."""
    return EvalOptions(
        static_checks=static_checks,
        runtime_checks=runtime_checks,
        run_timeout_s=8,
        compile_timeout_s=30,
        timing_timeout_s=60,
        aot_metadata=False,  # register counts compiled ahead of time on CPU: no defence, only cost
        baselines=["eager"],  # torch.compile's baseline costs seconds per judge and defends nothing
    )


@dataclass(frozen=True)
class Case:
    """One attack under one combination of checks, and the reason it must be rejected for."""

    name: str  # the test id
    file: str  # module under kernels/
    expected: ErrorKind
    static_checks: bool
    runtime_checks: bool
    gpu_only: bool
    why: str  # one line: why this reason, from which check
    cpu_only: bool = False  # an expectation about Triton's CPU interpreter (skipped where CUDA is present)
    bug: str | None = None  # the evaluator's bug when it does not give `expected` (xfail, strict)
    slow: bool = False  # waits for a time limit
    spec: Path = GELU_SPEC

    @property
    def path(self) -> Path:
        return KERNELS / self.file

    def source(self) -> str:
        return self.path.read_text()

    @property
    def checks(self) -> tuple[bool, bool]:
        return self.static_checks, self.runtime_checks


def _case(name: str, file: str, expected: ErrorKind, why: str, *, static: bool = True, runtime: bool = True,
          gpu_only: bool = False, cpu_only: bool = False, bug: str | None = None, slow: bool = False,
          spec: Path = GELU_SPEC) -> Case:
    return Case(name, file, expected, static, runtime, gpu_only, why, cpu_only=cpu_only, bug=bug, slow=slow,
                spec=spec)


def _static(name: str, file: str, expected: ErrorKind, why: str, *, bug: str | None = None) -> Case:
    """Rejected by the static (AST) check, before anything runs."""
    return _case(name, file, expected, why, bug=bug)


def _runtime(name: str, file: str, expected: ErrorKind, why: str, *, gpu_only: bool = False,
             cpu_only: bool = False, bug: str | None = None) -> Case:
    """Static checks off, runtime checks on: only what happens in the child can reject it."""
    return _case(name, file, expected, why, static=False, gpu_only=gpu_only, cpu_only=cpu_only, bug=bug)


_default = _case  # the search's own options (static and runtime checks on); the static check passes these


E = ErrorKind

CASES: tuple[Case, ...] = (
    # 1. the reference's freed output
    _default("empty_output-gpu", "empty_output.py", E.UNINITIALIZED_OUTPUT,
             "the child poisons freed blocks of the output's size; the caching allocator hands one to empty_like",
             gpu_only=True),
    # 2. inputs
    _default("mutate_inputs", "mutate_inputs.py", E.MUTATED_INPUTS,
             "outputs are right, but input 0 differs from the judge's pristine copy after the call"),
    # 3. try/except fallback
    _static("try_except_fallback-static", "try_except_fallback.py", E.TRY_EXCEPT_FALLBACK,
            "any try statement is rejected by the AST check"),
    _runtime("try_except_fallback-runtime", "try_except_fallback.py", E.TORCH_COMPUTE,
             "the prologue kernel launched, so the op recorder's aten gelu from the except branch is the reason"),
    # 4. torch compute next to a dummy kernel
    _static("torch_compute-static", "torch_compute.py", E.TORCH_COMPUTE,
            "F.gelu in host code resolves to torch.nn.functional.gelu, not an allowed torch function"),
    _runtime("torch_compute-runtime", "torch_compute.py", E.TORCH_COMPUTE,
             "the op recorder sees aten gelu dispatched by forward outside any launch"),
    _default("operator_compute", "operator_compute.py", E.TORCH_COMPUTE,
             "operators are not calls, so the AST check passes; the op recorder sees mul/add/pow/reciprocal"),
    # 5. the reference itself
    _static("import_reference-static", "import_reference.py", E.CALLS_REFERENCE,
            "importing the name Model from the reference module is calling the reference"),
    _static("subclass_reference-static", "subclass_reference.py", E.CALLS_REFERENCE,
            "the bare name Model (as a base class) is a use of the reference"),
    _runtime("reference_via_sys_modules-runtime", "reference_via_sys_modules.py", E.TORCH_COMPUTE,
             "the reference found in sys.modules dispatches aten gelu, which the op recorder sees"),
    # 6. a kernel that never runs
    _runtime("kernel_never_launched-runtime", "kernel_never_launched.py", E.KERNEL_NOT_LAUNCHED,
             "the launch counter saw no launch on the first call; that diagnosis comes before torch_compute"),
    # 7. side stream
    _static("side_stream-static", "side_stream.py", E.SIDE_STREAM,
            "torch.cuda.Stream / torch.cuda.stream are stream APIs"),
    _runtime("side_stream-runtime-gpu", "side_stream.py", E.SIDE_STREAM,
             "the guard counts torch.cuda.Stream.__new__ and StreamContext.__enter__ in the child",
             gpu_only=True),
    # 8. threads
    _static("thread_launch-static", "thread_launch.py", E.THREADS,
            "import threading is rejected"),
    _runtime("thread_launch-runtime", "thread_launch.py", E.THREADS,
             "the guard wraps threading.Thread.start and records a start from the candidate's module"),
    _static("threadpool_compute-static", "threadpool_compute.py", E.THREADS,
            "import concurrent.futures is rejected"),
    _runtime("threadpool_compute-runtime", "threadpool_compute.py", E.THREADS,
             "a pool worker is a thread the candidate started; it must not escape the thread guard"),
    # 9-10. caching
    _default("cache_by_address", "cache_by_address.py", E.CACHED_OUTPUT,
             "on the same buffers refilled in place it returns the first call's answer, which the judge recognises"),
    _default("cache_first_result", "cache_first_result.py", E.CACHED_OUTPUT,
             "the 2nd call (same buffers, new values) is the first wrong one, and it matches the 1st call's answer"),
    # 11. hard-coded shapes
    _default("hardcoded_numel", "hardcoded_numel.py", E.WRONG_OUTPUT,
             "right on 'small' (4x1000), but on 'odd' (3x1531) the zero-filled tail past element 4000 is wrong"),
    _default("hardcoded_output_shape", "hardcoded_output_shape.py", E.WRONG_SHAPE,
             "on 'odd' the returned (4, 1000) tensor does not have the reference's shape (3, 1531)"),
    # 12. dtype, shape, type
    _default("wrong_dtype", "wrong_dtype.py", E.WRONG_DTYPE,
             "float64 output for a float32 reference; dtype is compared before values"),
    _default("wrong_shape_flat", "wrong_shape_flat.py", E.WRONG_SHAPE,
             "a flat [numel] view for a [batch, dim] reference; shape is compared exactly"),
    _default("tensor_subclass", "tensor_subclass.py", E.WRONG_TYPE,
             "the child reports any output whose type is not exactly torch.Tensor; comparisons run in the judge"),
    # 13. NaN
    _default("nan_output", "nan_output.py", E.NAN_INF_MISMATCH,
             "NaN/Inf positions are compared with the reference's before closeness"),
    # 14. uninitialised accumulation
    _default("accumulate_uninitialized-gpu", "accumulate_uninitialized.py", E.UNINITIALIZED_OUTPUT,
             "poison (1.2345e30) + an O(1) GELU value is still exactly the poison in fp32, found on the first call",
             gpu_only=True),
    # 15. monkey-patching
    _static("patch_timer-static", "patch_timer.py", E.MONKEY_PATCH,
            "import time is rejected as a way to patch the timer"),
    _runtime("patch_timer-runtime", "patch_timer.py", E.MONKEY_PATCH,
             "the integrity snapshot finds time.perf_counter replaced right after the import"),
    _static("patch_synchronize-static", "patch_synchronize.py", E.MONKEY_PATCH,
            "assigning into torch.cuda (a library namespace) is rejected"),
    _runtime("patch_synchronize-runtime", "patch_synchronize.py", E.MONKEY_PATCH,
             "the snapshot finds torch.cuda.synchronize and Event.elapsed_time replaced after the import"),
    _static("patch_statistics-static", "patch_statistics.py", E.FORBIDDEN_IMPORT,
            "statistics is not on the import allow-list"),
    _runtime("patch_statistics-runtime", "patch_statistics.py", E.MONKEY_PATCH,
             "the timing summary is computed with statistics.quantiles in the candidate's process"),
    _runtime("patch_timer_transient-runtime", "patch_timer_transient.py", E.MONKEY_PATCH,
             "a self-restoring timer patch active only inside the timed loop must not shorten the samples "
             "(CPU: the file counts the 8 correctness calls of the interpreter's 2 variants and patches perf_counter)",
             cpu_only=True),
    # 16. impossible times (GPU only: CPU timings are never speeds)
    # The timer patches below no longer change a single number: the harness binds the timer
    # functions before any candidate is imported. With runtime checks on, the patch itself is found.
    _runtime("patch_events_0_6-gpu", "below_floor_timer_0_6.py", E.MONKEY_PATCH,
             "patching torch.cuda.Event.elapsed_time in forward is seen by the integrity snapshot",
             gpu_only=True),
    _runtime("patch_events_0_2-gpu", "timer_mismatch_0_2.py", E.MONKEY_PATCH,
             "patching torch.cuda.Event.elapsed_time in forward is seen by the integrity snapshot",
             gpu_only=True),
    _default("skip_input_read-gpu", "skip_input_read.py", E.BELOW_PHYSICAL_FLOOR,
             "writing x * 0 without reading x moves half the floor's bytes: a median under 0.8x the floor",
             gpu_only=True, spec=SPECS / "scale_by_zero.py"),
    _case("side_stream_timing-gpu", "side_stream_timing.py", E.TIMER_MISMATCH,
          "events on the current stream time only the launch; the judge's wall clock sees the side stream's work",
          static=False, runtime=False, gpu_only=True),
    # 17. infinite loops
    _default("python_infinite_loop", "python_infinite_loop.py", E.TIMEOUT,
             "the judge kills the child when the run phase passes run_timeout_s", slow=True),
    _default("kernel_infinite_loop", "kernel_infinite_loop.py", E.TIMEOUT,
             "interpreted (CPU) or on the GPU, the spinning kernel holds the run phase past its limit", slow=True),
    # 18. killing the process
    _static("exit_process-static", "exit_process.py", E.FILE_OR_NETWORK,
            "import os is rejected as file/network access"),
    _runtime("exit_process-runtime", "exit_process.py", E.CRASHED,
             "the judge sees its child die (exit status 3) during the run phase"),
    _static("segfault-static", "segfault.py", E.DYNAMIC_CODE,
            "import ctypes is rejected as dynamic code"),
    _runtime("segfault-runtime", "segfault.py", E.CRASHED,
             "the judge sees its child killed by SIGSEGV during the run phase"),
    # 19. illegal memory access
    _default("out_of_bounds_load-cpu", "out_of_bounds_load.py", E.CRASHED,
             "the interpreter dereferences the raw address 2**40 bytes away: SIGSEGV, the child dies", cpu_only=True),
    _default("out_of_bounds_load-gpu", "out_of_bounds_load.py", E.CUDA_ERROR,
             "the illegal address surfaces at the child's synchronize as a CUDA error", gpu_only=True),
    # 20. plain static rejections
    _static("syntax_markdown_fence", "syntax_markdown_fence.py", E.SYNTAX_ERROR,
            "the Markdown fence on line 1 does not parse"),
    _static("missing_model_new", "missing_model_new.py", E.MISSING_MODEL_NEW,
            "no class named ModelNew"),
    _static("no_kernel", "no_kernel.py", E.NO_KERNEL,
            "no @triton.jit function (reported at line 0, before the .tanh() finding)"),
    _static("numpy_import", "numpy_import.py", E.FORBIDDEN_IMPORT,
            "numpy is not on the import allow-list"),
    _static("exec_hidden_torch", "exec_hidden_torch.py", E.DYNAMIC_CODE,
            "exec() is rejected"),
    _static("open_file", "open_file.py", E.FILE_OR_NETWORK,
            "open() is rejected"),
    _static("disable_dispatch_modes-static", "disable_dispatch_modes.py", E.DYNAMIC_CODE,
            "a private torch module that switches off dispatch modes reaches around the checks, like torch._C"),
    _runtime("disable_dispatch_modes-runtime", "disable_dispatch_modes.py", E.TORCH_COMPUTE,
             "the ops inside _disable_current_modes() still ran in forward, outside any launch",
             bug="known limitation with static checks off: the op recorder is a TorchDispatchMode, which private "
                 "torch APIs can switch off; the static check rejects those APIs (see the -static case). "
                 "instrument.OpRecorder is a TorchDispatchMode on the candidate's own mode stack; "
                 "_disable_current_modes() pops it, so operator GELU passes as correct (also with default options)"),
    _default("grid_callable_compute", "grid_callable_compute.py", E.TORCH_COMPUTE,
             "PyTorch ops in the grid callable still ran in forward, outside the kernel"),
    # 21. compile errors
    _default("arange_not_power_of_two-cpu", "arange_not_power_of_two.py", E.RUNTIME_ERROR,
             "the interpreter has no compile step: tl.arange raises ValueError (as InterpreterError) in the run",
             cpu_only=True),
    _default("arange_not_power_of_two-gpu", "arange_not_power_of_two.py", E.COMPILE_ERROR,
             "Triton's front end raises CompilationError for tl.arange(0, 1000)", gpu_only=True),
    _default("compile_forever-gpu", "compile_forever.py", E.COMPILE_TIMEOUT,
             "the precompiler compiling it on the CPU is killed at compile_timeout_s, and the GPU is never "
             "taken (without precompiling, the child announces the compile phase and the judge kills it)",
             gpu_only=True, slow=True),
    # 22. memory
    _default("out_of_memory", "out_of_memory.py", E.OUT_OF_MEMORY,
             "4 TiB exceeds the child's address-space limit (CPU) or its GPU memory fraction"),
)


# Every combination of (static_checks, runtime_checks) some case uses; the control runs under each.
OPTION_COMBINATIONS: tuple[tuple[bool, bool], ...] = tuple(sorted({c.checks for c in CASES}, reverse=True))


def _unique_names() -> None:
    names = [c.name for c in CASES]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        raise ValueError(f"duplicate case names: {sorted(duplicated)}")
    missing = [c.file for c in CASES if not c.path.is_file()]
    if missing:
        raise FileNotFoundError(f"kernel files not found: {missing}")


_unique_names()
