"""The judge's sandbox process: its candidate children start first, the judge itself second.

Starting a candidate's child costs seconds (it imports torch and triton). The judge's own
start costs as much (torch, the spec, every reference run), and it used to start its
children only at the end of it: the first candidate then waited for both, one after the
other. This handler module imports nothing heavy: it starts the children, then imports the
judge (and torch) while they import theirs.
"""

from __future__ import annotations

from multiprocessing.connection import Connection
from typing import Any

from kernelevo.evaluation.common.protocol import ChildSetup, JudgeSetup, Warm, fresh_seed
from kernelevo.evaluation.judge.child_pool import ChildPool
from kernelevo.isolation.sandbox import Limits
from kernelevo.utils.devices import sandbox_env


class Children:
    """The judge's pools of sandboxes: candidate children, and (CPU) ahead-of-time compilers."""

    def __init__(self, setup: JudgeSetup, start_env: dict[str, str], scratch_root: str) -> None:
        options, gpu = setup.options, setup.gpu
        device = options.device if options.device != "auto" else ("cuda" if gpu else "cpu")
        limits = Limits(address_space_bytes=None if gpu else int(options.cpu_memory_limit_gb * 2**30))
        spare = options.spares(gpu=gpu)
        child_env = {**start_env, **sandbox_env(gpu=gpu)}
        if setup.runtime_cache:
            child_env["TRITON_CACHE_DIR"] = setup.runtime_cache
        # On a GPU the judge sets the Warm request's memory limit once it has planned the memory.
        # Both pools run the candidate's code: what it prints goes with its result, not to the terminal.
        self.model_seed = fresh_seed()  # the judge's: the children build its references ahead with it
        self.candidates = ChildPool("kernelevo.evaluation.child.runner:CandidateRunner",
                                    ChildSetup(setup.spec, device, list(options.allowed_torch_ops),
                                               list(options.allowed_libraries),
                                               setup.spec.correctness_variants(gpu=gpu), self.model_seed),
                                    env=child_env, inherit_env=False, spare=spare, limits=limits,
                                    warm_request=Warm() if gpu else None, start_timeout_s=options.start_timeout_s,
                                    scratch_root=scratch_root, fork=options.fork_children, capture_output=True)
        # Without a GPU nothing is compiled; a second child, without the interpreter, compiles for sm_90.
        self.aot: ChildPool | None = None
        if not gpu and options.aot_metadata:
            self.aot = ChildPool("kernelevo.evaluation.child.aot:AotCompiler", None,
                                 env={**start_env, **sandbox_env(gpu=True)}, inherit_env=False, spare=spare,
                                 limits=limits, start_timeout_s=options.start_timeout_s, name="aot",
                                 scratch_root=scratch_root, fork=options.fork_children, capture_output=True)
        if spare:
            self.candidates.fill()
            if self.aot:
                self.aot.fill()

    def close(self) -> None:
        self.candidates.close()
        if self.aot:
            self.aot.close()


JUDGE_SWITCH_INTERVAL_S = 0.0005


class JudgeProcess:
    """Sandbox handler: starts the children, then builds the :class:`~kernelevo.evaluation.judge.judge.Judge`."""

    def __init__(self, setup: JudgeSetup, conn: Connection) -> None:
        import os
        import sys

        # The judge's threads (one per evaluation slot) share the GIL, and the one timing a child reads its
        # reply, then notes the time, only once it holds the GIL again: after up to one switch interval per
        # thread ahead of it, 5 ms each by default: wall time the judge's cross-check would read as work outside
        # the timed region (timer_mismatch). The reply is also stamped when readable (Sandbox.replied_at).
        sys.setswitchinterval(JUDGE_SWITCH_INTERVAL_S)

        # Children get the environment this process started with. What runs in the judge later may
        # change it: the spec's module, and torch.compile's baseline, after which inductor points
        # TRITON_PTXAS_PATH at torch's ptxas (Triton 3.6 keys its cache on the ptxas version, so
        # kernels compiled ahead with Triton's own ptxas would miss).
        # The children's scratch folders go inside this process's own (its working directory), which
        # the evaluator removes whatever becomes of this process.
        self.children = Children(setup, dict(os.environ), os.getcwd())
        try:
            from kernelevo.evaluation.judge.judge import Judge

            self.judge = Judge(setup, self.children)
        except BaseException:
            self.children.close()
            raise

    def handle(self, request: Any) -> Any:
        return self.judge.handle(request)

    def close(self) -> None:
        """Kill the children (their scratch folders go with them) before the process leaves."""
        self.children.close()
