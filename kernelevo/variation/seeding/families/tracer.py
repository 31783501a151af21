"""The reference's graph traced in an isolated child, with or without a GPU.

:func:`trace` starts a :class:`~kernelevo.isolation.sandbox.Sandbox` child that loads the spec and traces it
(:func:`~kernelevo.variation.seeding.op_graph.trace_graph`, on the meta device: nothing is allocated and
nothing runs on a GPU), and returns the :class:`OpGraph` it sends back. Seeding reads the graph from
the inductor capture where it has one; this is the path where none can be made (no GPU, or
torch.compile failed) and for checking a suite's specs on any machine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelevo.isolation.sandbox import Sandbox, SandboxFailure
from kernelevo.variation.seeding.op_graph import GraphError, OpGraph, trace_graph

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from kernelevo.spec.spec import Spec

TRACE_TIMEOUT_S = 120.0  # torch's import and make_fx of each variant on the meta device


class TraceHandler:
    """Sandbox handler: loads the spec, then traces its graph (a str says why not)."""

    def __init__(self, spec: Spec, conn: Connection) -> None:
        from kernelevo.spec.loaded import LoadedSpec

        self.problem = LoadedSpec(spec)

    def handle(self, request: str) -> OpGraph | str:
        try:
            return trace_graph(self.problem)
        except GraphError as exc:
            return str(exc)


def trace(spec: Spec, *, timeout_s: float = TRACE_TIMEOUT_S) -> OpGraph:
    """``spec``'s traced graph, from a child of its own; :class:`GraphError` says why not."""
    from kernelevo.utils.devices import sandbox_env

    box = Sandbox("kernelevo.variation.seeding.families.tracer:TraceHandler", spec, env=sandbox_env(gpu=False),
                  name="graph")
    try:
        box.start()
        reply = box.call("trace", {"*": timeout_s, "start": timeout_s})
    except SandboxFailure as exc:
        raise GraphError(f"tracing the reference failed: {exc.message}") from None
    finally:
        box.close()
    if isinstance(reply, str):
        raise GraphError(reply)
    return reply


__all__ = ["TraceHandler", "trace"]
