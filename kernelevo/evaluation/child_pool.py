"""Sandboxes started ahead of need, each serving one candidate and then killed."""

from __future__ import annotations

import time
from typing import Any

from kernelevo.sandbox import Limits, Sandbox, SandboxFailure


class ChildPool:
    """Children started ahead of need; each serves one candidate and is then killed.

    A child starts (imports) as soon as the previous one is taken. When ``warm_request``
    is given (on a GPU: create the CUDA context, set the memory limit), the next child is
    sent it as soon as a child is handed over, so that its context is made while the
    candidate is loaded and checked, and :meth:`settle` waits for it before any timing:
    no context is ever created in the middle of a timing. (Repeated timings on an H200
    spread 20% while spares created their contexts at any moment, 8.4% once they did so
    only between timings; the share due to it is not isolated.)
    """

    def __init__(self, handler: str, arg: Any, *, env: dict[str, str], spare: int, limits: Limits,
                 warm_request: Any = None, start_timeout_s: float = 180.0, inherit_env: bool = True,
                 name: str = "candidate", scratch_root: str | None = None) -> None:
        self.handler, self.arg, self.env, self.spare, self.limits = handler, arg, env, spare, limits
        self.inherit_env, self.name, self.scratch_root = inherit_env, name, scratch_root
        self.warm_request, self.start_timeout_s = warm_request, start_timeout_s
        self.ready: list[Sandbox] = []
        self._warming: Sandbox | None = None  # sent the warm request, its answer not yet read
        self._warm: set[int] = set()  # ids of ready children already warm

    def _start_one(self) -> None:
        box = Sandbox(self.handler, self.arg, env=self.env, limits=self.limits, name=self.name,
                      inherit_env=self.inherit_env, scratch_root=self.scratch_root)
        box.start()
        self.ready.append(box)

    def fill(self) -> None:
        self.ready = [box for box in self.ready if box.alive()]
        self._warm &= {id(box) for box in self.ready}
        while len(self.ready) < max(self.spare, 1):
            self._start_one()

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
            box = self.ready.pop(0)
            if box is self._warming:
                self.settle()
            if box.alive():
                return box
        self.fill()
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
        self._warming = None
        self._warm.clear()
