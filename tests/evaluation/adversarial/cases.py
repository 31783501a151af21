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
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
GELU_SPEC = EXAMPLES / "gelu" / "spec.py"
# The CUDA twins: the same problems with "language": "cuda" (CuPy RawModule or load_inline candidates).
CUDA_GELU_SPEC = EXAMPLES / "gelu_cuda" / "spec.py"
CUDA_MATMUL_SPEC = EXAMPLES / "matmul_epilogue_cuda" / "spec.py"
MATMUL_SPEC = EXAMPLES / "matmul_epilogue" / "spec.py"
SOFTMAX_SPEC = EXAMPLES / "softmax" / "spec.py"
SPECS = Path(__file__).parent / "specs"
CONV_BIAS_SPEC = SPECS / "conv_bias.py"
ROW_SUM_SPEC = SPECS / "row_sum.py"
MATMUL_FP32_SPEC = SPECS / "matmul_fp32.py"
# library policies a case runs under (EvalOptions.library): the default (every family), or pure mode
DEFAULT, PURE = "default", "pure"
CONTROL = "seed_control.py"


def options(static_checks: bool, runtime_checks: bool, library: str = DEFAULT, spec: Path | None = None) -> EvalOptions:
    """The suite's options: the given checks and library policy, short limits (a hang costs seconds, not minutes).

    A CUDA spec's compile limit is longer: a load_inline extension compiles torch's headers with
    nvcc, which takes tens of seconds on any machine."""
    cuda = spec in (CUDA_GELU_SPEC, CUDA_MATMUL_SPEC)
    return EvalOptions(
        static_checks=static_checks,
        runtime_checks=runtime_checks,
        run_timeout_s=8,
        compile_timeout_s=240 if cuda else 30,
        timing_timeout_s=60,
        # register counts compiled ahead of time on CPU cost seconds and defend nothing, except that the fp32
        # matmul's cases need the kernels' TTIR, which on a CPU only that compile gives (TF32 dots)
        aot_metadata=spec == MATMUL_FP32_SPEC,
        baselines=["eager"],  # torch.compile's baseline costs seconds per judge and defends nothing
        library=None if library == DEFAULT else [] if library == PURE else library.split(","),
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
    # after the attack, the same warm evaluator must still accept the spec's first control
    # (an attack that poisons its child, e.g. an illegal address, must not poison the next candidate)
    control_after: bool = False
    library: str = DEFAULT  # the library policy: "default", "pure", or families ("gemm,conv")

    @property
    def path(self) -> Path:
        return KERNELS / self.file

    def source(self) -> str:
        return self.path.read_text()

    @property
    def checks(self) -> tuple[bool, bool, str]:
        return self.static_checks, self.runtime_checks, self.library


def _case(name: str, file: str, expected: ErrorKind, why: str, *, static: bool = True, runtime: bool = True,
          gpu_only: bool = False, cpu_only: bool = False, bug: str | None = None, slow: bool = False,
          spec: Path = GELU_SPEC, control_after: bool = False, library: str = DEFAULT) -> Case:
    return Case(name, file, expected, static, runtime, gpu_only, why, cpu_only=cpu_only, bug=bug, slow=slow,
                spec=spec, control_after=control_after, library=library)


def _static(name: str, file: str, expected: ErrorKind, why: str, *, bug: str | None = None,
            spec: Path = GELU_SPEC, library: str = DEFAULT) -> Case:
    """Rejected by the static check (the AST, and for CUDA the kernel's C++ text), before anything runs."""
    return _case(name, file, expected, why, bug=bug, spec=spec, library=library)


def _runtime(name: str, file: str, expected: ErrorKind, why: str, *, gpu_only: bool = False,
             cpu_only: bool = False, bug: str | None = None, spec: Path = GELU_SPEC, library: str = DEFAULT) -> Case:
    """Static checks off, runtime checks on: only what happens in the child can reject it."""
    return _case(name, file, expected, why, static=False, gpu_only=gpu_only, cpu_only=cpu_only, bug=bug,
                 spec=spec, library=library)


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

    # ---------------------------------------------------------------------------------------------
    # CUDA twins (spec "language": "cuda"): CuPy RawModule and load_inline candidates. A _static
    # case is rejected before anything compiles or runs, so it runs on the CPU too; everything
    # that must run a kernel is gpu_only. Spec: examples/gelu_cuda unless it says matmul.
    # 23. the honest control, on a machine without a GPU
    _default("cuda_seed_control-cpu", "cuda_seed_control.py", E.NEEDS_GPU,
             "the honest CuPy control passes the static checks (no false positive on ExternalStream of "
             "torch's current stream, get_function, data_ptr) and is reported needs_gpu, not run",
             cpu_only=True, spec=CUDA_GELU_SPEC),
    # 24. a kernel that never runs
    _default("cuda_kernel_never_launched-gpu", "cuda_kernel_never_launched.py", E.KERNEL_NOT_LAUNCHED,
             "compiled and loaded (get_function) but the launch is under n < 0: the launch count of the first "
             "call is 0", gpu_only=True, spec=CUDA_GELU_SPEC),
    _default("cuda_kernel_never_launched_inline-gpu", "cuda_kernel_never_launched_inline.py",
             E.KERNEL_NOT_LAUNCHED,
             "the C++ host function only allocates: no <<<>>> launch reaches the driver on the first call",
             gpu_only=True, spec=CUDA_GELU_SPEC),
    # 25. side streams
    _static("cuda_side_stream_create-static", "cuda_side_stream_create.py", E.SIDE_STREAM,
            "cudaStreamCreateWithFlags in the CUDA source", spec=CUDA_GELU_SPEC),
    _runtime("cuda_side_stream_create-runtime-gpu", "cuda_side_stream_create.py", E.SIDE_STREAM,
             "the candidate's kernel ran on a stream that is not torch's current one", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    _static("cuda_side_stream_pool-static", "cuda_side_stream_pool.py", E.SIDE_STREAM,
            "at::cuda::getStreamFromPool in the CUDA source", spec=CUDA_GELU_SPEC),
    _runtime("cuda_side_stream_pool-runtime-gpu", "cuda_side_stream_pool.py", E.SIDE_STREAM,
             "the candidate's kernel ran on an ATen pool stream, not torch's current one", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    _static("cuda_side_stream_cupy-static", "cuda_side_stream_cupy.py", E.SIDE_STREAM,
            "cp.cuda.Stream( in host code", spec=CUDA_GELU_SPEC),
    _runtime("cuda_side_stream_cupy-runtime-gpu", "cuda_side_stream_cupy.py", E.SIDE_STREAM,
             "the kernel ran on CuPy's non-blocking stream, not torch's current one", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    _static("cuda_side_stream_launch_arg-static", "cuda_side_stream_launch_arg.py", E.SIDE_STREAM,
            "cp.cuda.runtime.streamCreateWithFlags, wrapped in an ExternalStream that is not torch's current "
            "stream and passed as stream=: no cp.cuda.Stream( to grep for", spec=CUDA_GELU_SPEC),
    _runtime("cuda_side_stream_launch_arg-runtime-gpu", "cuda_side_stream_launch_arg.py", E.SIDE_STREAM,
             "the kernel ran on a raw runtime-API stream, not torch's current one", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    # 26. the reference's freed output, and uninitialised accumulation
    _default("cuda_empty_output-gpu", "cuda_empty_output.py", E.UNINITIALIZED_OUTPUT,
             "a do-nothing launch and torch.empty_like: the poisoned freed block comes back unwritten",
             gpu_only=True, spec=CUDA_GELU_SPEC),
    _default("cuda_accumulate_uninitialized-gpu", "cuda_accumulate_uninitialized.py", E.UNINITIALIZED_OUTPUT,
             "out[i] += gelu(x[i]) on the poison (1.2345e30) leaves it bit-exact, found on the first call",
             gpu_only=True, spec=CUDA_GELU_SPEC),
    # 27. caching
    _default("cuda_cache_by_address-gpu", "cuda_cache_by_address.py", E.CACHED_OUTPUT,
             "same buffers refilled in place: the first call's tensor comes back after a one-thread touch launch",
             gpu_only=True, spec=CUDA_GELU_SPEC),
    _default("cuda_cache_first_result-gpu", "cuda_cache_first_result.py", E.CACHED_OUTPUT,
             "the 2nd call (same buffers, new values) returns the 1st call's answer", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    # 28. hard-coded sizes
    _default("cuda_hardcoded_numel-gpu", "cuda_hardcoded_numel.py", E.WRONG_OUTPUT,
             "grid and float4-only path fixed for the default 8192x16384: right on default and small, but on "
             "'odd' (4593 elements) the last element stays 0", gpu_only=True, spec=CUDA_GELU_SPEC),
    # 29. library kernels instead of the candidate's own
    _static("cuda_cublas_gemm-static", "cuda_cublas_gemm.py", E.LIBRARY_CALL,
            "cublasCreate / cublasGemmEx in the CUDA source (and -lcublas)", spec=CUDA_MATMUL_SPEC),
    _runtime("cuda_cublas_gemm-runtime-gpu", "cuda_cublas_gemm.py", E.LIBRARY_CALL,
             "cuBLAS's gemm kernel is among the launches: not one of the candidate's own kernels", gpu_only=True,
             spec=CUDA_MATMUL_SPEC),
    _static("cuda_cudnn_activation-static", "cuda_cudnn_activation.py", E.LIBRARY_CALL,
            "cudnnActivationForward in the CUDA source (static only: building it needs cuDNN's headers and "
            "libcudnn where nvcc and the linker look)", spec=CUDA_GELU_SPEC),
    _static("cuda_thrust_transform-static", "cuda_thrust_transform.py", E.LIBRARY_CALL,
            "thrust::transform in the CUDA source", spec=CUDA_GELU_SPEC),
    _runtime("cuda_thrust_transform-runtime-gpu", "cuda_thrust_transform.py", E.LIBRARY_CALL,
             "a cub::...::transform_kernel launch: Thrust's kernel, compiled into the candidate's own extension",
             gpu_only=True, spec=CUDA_GELU_SPEC),
    _static("cuda_cupy_array_math-static", "cuda_cupy_array_math.py", E.LIBRARY_CALL,
            "cp.tanh / cp.asarray: CuPy array math in host code", spec=CUDA_GELU_SPEC),
    _runtime("cuda_cupy_array_math-runtime-gpu", "cuda_cupy_array_math.py", E.LIBRARY_CALL,
             "CuPy's elementwise tanh kernel is among the launches, not one of the RawModule's", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    # 30. torch compute in host code (Python, or C++ in a load_inline extension)
    _static("cuda_torch_compute-static", "cuda_torch_compute.py", E.TORCH_COMPUTE,
            "torch.tanh in forward between two CuPy launches", spec=CUDA_GELU_SPEC),
    _runtime("cuda_torch_compute-runtime-gpu", "cuda_torch_compute.py", E.TORCH_COMPUTE,
             "the op recorder sees aten tanh dispatched by forward", gpu_only=True, spec=CUDA_GELU_SPEC),
    _static("cuda_torch_compute_inline-static", "cuda_torch_compute_inline.py", E.TORCH_COMPUTE,
            "the tensor method u.tanh() in the C++ host function", spec=CUDA_GELU_SPEC),
    _runtime("cuda_torch_compute_inline-runtime-gpu", "cuda_torch_compute_inline.py", E.TORCH_COMPUTE,
             "aten tanh dispatched from C++ still passes the op recorder's dispatch mode", gpu_only=True,
             spec=CUDA_GELU_SPEC),
    # under the default library policy torch::matmul is the reference's GEMM handed to cuBLAS (a control,
    # below); in pure mode it is torch compute in C++, and at run time a library call the policy forbids
    _static("cuda_torch_matmul_inline-pure-static", "cuda_torch_matmul_inline.py", E.TORCH_COMPUTE,
            "pure mode: torch::matmul in the C++ host function (cuBLAS through ATen)", spec=CUDA_MATMUL_SPEC,
            library=PURE),
    _runtime("cuda_torch_matmul_inline-pure-runtime-gpu", "cuda_torch_matmul_inline.py", E.LIBRARY_CALL,
             "pure mode: aten mm dispatched from C++ is seen by the op recorder, a GEMM in a library",
             gpu_only=True, spec=CUDA_MATMUL_SPEC, library=PURE),
    # 31. timers and clocks
    _static("cuda_globaltimer_skip-static", "cuda_globaltimer_skip.py", E.TIMER_ACCESS,
            "%globaltimer read in device code (inline PTX)", spec=CUDA_GELU_SPEC),
    _static("cuda_event_timing-static", "cuda_event_timing.py", E.TIMER_ACCESS,
            "cudaEventCreate/Record/Synchronize/ElapsedTime in the C++ host function", spec=CUDA_GELU_SPEC),
    # 32. a hang and an illegal address
    _default("cuda_kernel_infinite_loop-gpu", "cuda_kernel_infinite_loop.py", E.TIMEOUT,
             "the kernel spins on a volatile flag; the judge kills the child at run_timeout_s", gpu_only=True,
             slow=True, spec=CUDA_GELU_SPEC),
    _default("cuda_out_of_bounds_write-gpu", "cuda_out_of_bounds_write.py", E.CUDA_ERROR,
             "a store 2**40 bytes past out is an illegal address, surfacing at the child's synchronize; "
             "the control must pass right after it in the same evaluator", gpu_only=True, spec=CUDA_GELU_SPEC,
             control_after=True),

    # ---------------------------------------------------------------------------------------------
    # The library policy (kernelevo.evaluation.common.library): by default GEMMs, convolutions, attention and
    # recurrent layers may go to torch's libraries, for the reference's own work and nothing else.
    # 33. a library call doing an op the candidate's kernels must do
    _default("library_identity_conv_bias", "library_identity_conv_bias.py", E.LIBRARY_MISUSE,
             "a 1x1 identity convolution adds the bias: conv work the reference gives no library",
             spec=CONV_BIAS_SPEC),
    _runtime("library_identity_conv_bias-runtime", "library_identity_conv_bias.py", E.LIBRARY_MISUSE,
             "the same, seen by the child's library recorder alone", spec=CONV_BIAS_SPEC),
    _default("library_sum_by_gemv", "library_sum_by_gemv.py", E.LIBRARY_MISUSE,
             "torch.mv with a ones vector sums the rows: the reference hands no GEMM to a library",
             spec=ROW_SUM_SPEC),
    _default("library_bias_by_gemm", "library_bias_by_gemm.py", E.LIBRARY_MISUSE,
             "an (M x N x N+1) GEMM against [I; b] adds the bias: not the reference's (M x N x K) GEMM",
             spec=MATMUL_SPEC),
    _default("library_softmax_by_attention", "library_softmax_by_attention.py", E.LIBRARY_MISUSE,
             "scaled dot-product attention with a query of ones and identity values is a row softmax: "
             "attention's GEMMs are no work of this reference", spec=SOFTMAX_SPEC),
    # 34. a library call the run's policy does not allow
    _static("library_linear_gelu-pure-static", "library_linear_gelu_control.py", E.LIBRARY_CALL,
            "pure mode: torch.mm in host code names the policy", spec=MATMUL_SPEC, library=PURE),
    _runtime("library_linear_gelu-pure-runtime", "library_linear_gelu_control.py", E.LIBRARY_CALL,
             "pure mode, static checks off: the library recorder sees the mm", spec=MATMUL_SPEC, library=PURE),
    _runtime("library_conv-gemm-only-runtime", "library_conv_relu_bias_control.py", E.LIBRARY_CALL,
             "a policy of GEMMs alone: the convolution's library call is named", spec=CONV_BIAS_SPEC,
             library="gemm"),

    # ---------------------------------------------------------------------------------------------
    # Precision (kernelevo.evaluation.common.precision): fp32 work stays fp32 where the spec does not opt in to
    # TF32, though its tolerance would let TF32 through (specs/matmul_fp32.py).
    # 57. Triton's dots round fp32 operands to TF32 by default
    _default("tf32_default_dot", "tf32_default_dot.py", E.REDUCED_PRECISION,
             "the compiled kernel's TTIR has a tt.dot of f32 operands with inputPrecision = tf32",
             spec=MATMUL_FP32_SPEC),
    # 57b. TF32 turned on for torch's own GEMM
    _static("tf32_flag-static", "tf32_flag_static.py", E.PRECISION_SETTINGS,
            "an assignment into torch.backends.cuda.matmul.allow_tf32", spec=MATMUL_FP32_SPEC),
    _runtime("tf32_flag-runtime", "tf32_flag_static.py", E.PRECISION_SETTINGS,
             "the library recorder reads allow_tf32 = True at the mm", spec=MATMUL_FP32_SPEC),
    _default("tf32_library_flag_restored", "tf32_library_flag.py", E.PRECISION_SETTINGS,
             "the flag set through a local name and restored after the mm: seen at the mm alone",
             spec=MATMUL_FP32_SPEC),
)


@dataclass(frozen=True)
class Control:
    """An honest kernel for a spec: it must be accepted under every options combination that spec's cases use
    (those of its library policy, where it names one)."""

    name: str  # the test id's prefix
    path: Path
    spec: Path
    gpu_only: bool  # CUDA kernels run only on a GPU (without one they are reported needs_gpu)
    library: str | None = None  # only under this policy (a kernel that calls a library is no control in pure mode)

    def source(self) -> str:
        return self.path.read_text()


CONTROLS: tuple[Control, ...] = (
    Control("seed_control", KERNELS / CONTROL, GELU_SPEC, gpu_only=False),
    Control("cuda_seed_control", KERNELS / "cuda_seed_control.py", CUDA_GELU_SPEC, gpu_only=True),
    Control("cuda_seed_control_inline", KERNELS / "cuda_seed_control_inline.py", CUDA_GELU_SPEC, gpu_only=True),
    # the matmul spec's control is its example seed (a WMMA tensor-core kernel)
    Control("cuda_matmul_seed", EXAMPLES / "matmul_epilogue_cuda" / "seed.py", CUDA_MATMUL_SPEC, gpu_only=True),
    # the GEMM in cuBLAS through torch::matmul, its epilogue a CUDA kernel: the default policy's good answer
    Control("cuda_torch_matmul_inline", KERNELS / "cuda_torch_matmul_inline.py", CUDA_MATMUL_SPEC, gpu_only=True,
            library=DEFAULT),
    Control("matmul_seed", EXAMPLES / "matmul_epilogue" / "seed.py", MATMUL_SPEC, gpu_only=False),
    Control("library_linear_gelu", KERNELS / "library_linear_gelu_control.py", MATMUL_SPEC, gpu_only=False,
            library=DEFAULT),
    Control("library_conv_relu_bias", KERNELS / "library_conv_relu_bias_control.py", CONV_BIAS_SPEC,
            gpu_only=False, library=DEFAULT),
    Control("library_row_sum", KERNELS / "library_row_sum_control.py", ROW_SUM_SPEC, gpu_only=False),
    Control("softmax_seed", EXAMPLES / "softmax" / "seed.py", SOFTMAX_SPEC, gpu_only=False),
    Control("matmul_fp32_ieee", KERNELS / "matmul_fp32_ieee_control.py", MATMUL_FP32_SPEC, gpu_only=False),
    Control("library_matmul_fp32", KERNELS / "library_matmul_fp32_control.py", MATMUL_FP32_SPEC, gpu_only=False,
            library=DEFAULT),
)


def control_for(spec: Path) -> Control:
    """The first control of ``spec``: the one a ``control_after`` case runs after its attack."""
    return next(c for c in CONTROLS if c.spec == spec)


def combinations_for(control: Control) -> tuple[tuple[bool, bool, str], ...]:
    """Every combination of (static_checks, runtime_checks, library) the cases of ``control``'s spec use
    (under its library policy, where it names one)."""
    return tuple(sorted({c.checks for c in CASES if c.spec == control.spec
                         and control.library in (None, c.library)}, reverse=True))


def _unique_names() -> None:
    names = [c.name for c in CASES]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        raise ValueError(f"duplicate case names: {sorted(duplicated)}")
    missing = [c.file for c in CASES if not c.path.is_file()] + [str(c.path) for c in CONTROLS if not c.path.is_file()]
    if missing:
        raise FileNotFoundError(f"kernel files not found: {missing}")
    controlled = {k.spec for k in CONTROLS}
    uncontrolled = sorted({str(c.spec) for c in CASES if c.control_after and c.spec not in controlled})
    if uncontrolled:
        raise ValueError(f"control_after cases whose spec has no control: {uncontrolled}")


_unique_names()
