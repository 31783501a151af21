"""Captures of what ``torch.compile`` writes for a spec, asked of an isolated child (the parent's side).

:mod:`kernelevo.variation.seeding.inductor_capture` is the child's side: the spec and what inductor
makes of it run only there, under a hard time limit.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from kernelevo.isolation import containment
from kernelevo.isolation.sandbox import Sandbox, SandboxFailure
from kernelevo.variation.seeding.inductor_capture import CAPTURE_TIMEOUT_S, NO_GPU, Capture, CaptureError

if TYPE_CHECKING:
    from kernelevo.spec.spec import Spec


class Capturer:
    """One isolated child that captures a spec as often as asked: torch, triton and the spec load once.

    ``with Capturer(spec) as c: c.capture()``; :class:`CaptureError` says why not, at once where
    this machine has no GPU."""

    def __init__(self, spec: Spec, *, device: str = "auto", timeout_s: float = CAPTURE_TIMEOUT_S,
                 cache_dir: str | None = None, compile_threads: int | None = None) -> None:
        from kernelevo.utils.devices import cuda_present, sandbox_env

        if not (cuda_present() if device == "auto" else device == "cuda"):
            raise CaptureError(NO_GPU)
        self.timeout_s = timeout_s
        env = sandbox_env(gpu=True)
        writable: tuple[str, ...] = ()
        if cache_dir is not None:  # captures of one spec side by side share what inductor compiled and tuned
            env["TORCHINDUCTOR_CACHE_DIR"] = cache_dir
            containment.give_to_sandbox(cache_dir)  # their children write it as the sandbox user
            writable = (cache_dir,)
        if compile_threads is not None:  # several captures at once share the CPU
            env["TORCHINDUCTOR_COMPILE_THREADS"] = str(compile_threads)
        self._start = functools.partial(Sandbox, "kernelevo.variation.seeding.inductor_capture:CaptureHandler",
                                        (spec, "cuda"), env=env, name="inductor", writable=writable)
        self.box = self._start()
        self.box.start()

    def capture(self, *, generic: bool = True, variant: str | None = None, seed: int = 0,
                options: dict[str, Any] | None = None, templates: bool = True) -> Capture:
        """What inductor writes. ``generic``: sizes that differ between variants stay symbolic;
        else all are ``variant``'s (the default's unless named). ``options`` and ``templates``: see
        :func:`capture_in_child`. A capture that kills the child (a structural option inductor
        cannot compile) fails alone: the next one gets a new child."""
        if not self.box.alive():
            self.box = self._start()
            self.box.start()
        try:
            reply = self.box.call((seed, generic, variant, options or {}, templates),
                                  {"*": self.timeout_s, "start": self.timeout_s})
        except SandboxFailure as exc:
            raise CaptureError(f"capturing torch.compile's kernels failed: {exc.message}") from None
        if isinstance(reply, str):
            raise CaptureError(reply)
        return reply

    def stop(self) -> None:
        """Kill the child now, from any thread: a capture under way fails with :class:`CaptureError`."""
        self.box.stop()

    def __enter__(self) -> Capturer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.box.close()


def capture(spec: Spec, *, device: str = "auto", timeout_s: float = CAPTURE_TIMEOUT_S, seed: int = 0,
            generic: bool = True, variant: str | None = None, options: dict[str, Any] | None = None,
            templates: bool = True) -> Capture:
    """One capture of ``spec`` in a child of its own (:meth:`Capturer.capture`)."""
    with Capturer(spec, device=device, timeout_s=timeout_s) as capturer:
        return capturer.capture(generic=generic, variant=variant, seed=seed, options=options, templates=templates)


__all__ = ["Capturer", "capture"]
