"""Sandboxes started ahead of need, each serving one candidate and then killed."""

from __future__ import annotations

import logging
import time
from typing import Any

from kernelevo.isolation.sandbox import Limits, Sandbox, SandboxFailure
from kernelevo.isolation.zygote import ForkedSandbox, ForkServer, ZygoteSetup
from kernelevo.isolation.zygote import supported as fork_supported

log = logging.getLogger(__name__)


class ChildPool:
    """Children started ahead of need; each serves one candidate and is then killed.

    A child starts (imports) as soon as the previous one is taken. When ``warm_request``
    is given (on a GPU: create the CUDA context, set the memory limit), the next child is
    sent it as soon as a child is handed over, so that its context is made while the
    candidate is loaded and checked, and :meth:`settle` waits for it before any timing:
    no context is ever created in the middle of a timing. (Repeated timings on an H200
    spread 20% while spares created their contexts at any moment, 8.4% once they did so
    only between timings; the share due to it is not isolated.)

    With ``fork``, children are forked from a :class:`~kernelevo.isolation.zygote.Zygote` that has
    imported the handler's module once, instead of each starting a new Python: a child is
    ready in milliseconds, and the host's cores are not spent on its imports. Should the
    fork server fail to start, or the system lack pidfds (Linux before 5.3), children are
    started as new processes.

    With ``capture_output``, each child's stdout and stderr go to a file in its scratch folder
    (:meth:`~kernelevo.isolation.sandbox.Sandbox.output_tail`), not the terminal; the fork server's own do not.
    ``writable``: the folders children may write besides their own (see :class:`~kernelevo.isolation.sandbox.Sandbox`).
    """

    def __init__(self, handler: str, arg: Any, *, env: dict[str, str], spare: int, limits: Limits,
                 warm_request: Any = None, start_timeout_s: float = 180.0, inherit_env: bool = True,
                 name: str = "candidate", scratch_root: str | None = None, fork: bool = False,
                 capture_output: bool = False, writable: tuple[str, ...] | None = None) -> None:
        self.handler, self.arg, self.env, self.spare, self.limits = handler, arg, env, spare, limits
        self.writable = writable
        self.inherit_env, self.name, self.scratch_root = inherit_env, name, scratch_root
        self.capture_output = capture_output
        self.warm_request, self.start_timeout_s = warm_request, start_timeout_s
        self.ready: list[Sandbox] = []
        self._warming: Sandbox | None = None  # sent the warm request, its answer not yet read
        self._warm: set[int] = set()  # ids of ready children already warm
        self.zygote: ForkServer | None = None
        if fork and fork_supported():  # elsewhere children are started as new processes
            server = self._sandbox("kernelevo.isolation.zygote:Zygote", ZygoteSetup(handler, arg), f"{name}-zygote",
                                   capture_output=False)  # it runs no untrusted code; its failures are ours
            server.start()
            self.zygote = ForkServer(server, start_timeout_s)

    def _sandbox(self, handler: str, arg: Any, name: str, *, capture_output: bool) -> Sandbox:
        return Sandbox(handler, arg, env=self.env, limits=self.limits, name=name, inherit_env=self.inherit_env,
                       scratch_root=self.scratch_root, capture_output=capture_output, writable=self.writable)

    def _start_one(self, *, block: bool) -> bool:
        """Start (or fork) one more child; False when ``block`` is off and the fork server is still starting."""
        if self.zygote is not None:
            if not block and not self.zygote.is_ready() and self.zygote.alive():
                return False
            box: Sandbox = ForkedSandbox(self.zygote, name=self.name, scratch_root=self.scratch_root,
                                         capture_output=self.capture_output)
            try:
                box.start()
                self.ready.append(box)
                return True
            except SandboxFailure as exc:
                log.warning("the %s fork server failed (%s); starting children as new processes",
                            self.name, exc.message)
                self.zygote.kill()
                self.zygote = None
        box = self._sandbox(self.handler, self.arg, self.name, capture_output=self.capture_output)
        box.start()
        self.ready.append(box)
        return True

    def fill(self) -> None:
        """Start children up to the spare count (forks wait for the fork server's own start, without blocking)."""
        self.ready = [box for box in self.ready if box.alive()]
        self._warm &= {id(box) for box in self.ready}
        while len(self.ready) < max(self.spare, 1):
            if not self._start_one(block=False):
                return

    def take(self) -> tuple[Sandbox, float]:
        """A ready (and warm) child, and the seconds spent waiting for it."""
        start = time.perf_counter()
        box = self._next()
        if self.warm_request is not None and id(box) not in self._warm:
            box.call(self.warm_request, {"*": self.start_timeout_s})
        box.wait_ready(self.start_timeout_s)
        self._warm.discard(id(box))
        waited = time.perf_counter() - start
        if self.spare:
            self.fill()
            self._warm_next()
        return box, waited

    def _next(self) -> Sandbox:
        """The first ready child, its warm request answered if one was sent (one that died then is replaced)."""
        for _ in range(2):
            self.fill()
            if not self.ready:
                self._start_one(block=True)
            box = self.ready.pop(0)
            if box is self._warming:
                self.settle()
            if box.alive():
                return box
        self.fill()
        if not self.ready:
            self._start_one(block=True)
        return self.ready.pop(0)

    def _warm_next(self) -> None:
        """Send the next child its warm request; :meth:`settle` or :meth:`take` reads the answer."""
        if self.warm_request is None or self._warming is not None or not self.ready or id(self.ready[0]) in self._warm:
            return
        box = self.ready[0]
        box.send(self.warm_request)
        self._warming = box

    def settle(self) -> None:
        """Wait until no child is creating its context (before a timing); a child that fails is dropped."""
        box, self._warming = self._warming, None
        if box is None:
            return
        try:
            box.reply({"*": self.start_timeout_s})
            self._warm.add(id(box))
        except SandboxFailure:
            box.kill()

    def close(self) -> None:
        for box in self.ready:
            box.kill()
        self.ready.clear()
        if self.zygote is not None:
            self.zygote.kill()
            self.zygote = None
        self._warming = None
        self._warm.clear()
