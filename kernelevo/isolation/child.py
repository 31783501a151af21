"""The sandbox child's side: containment, the parent-death signal, and the handler's request loop.

A started child runs :func:`child_main` (``python -m kernelevo.isolation``); a child
forked by the fork server (:mod:`kernelevo.isolation.zygote`) runs :func:`serve` directly. The
messages both sides exchange are defined in :mod:`kernelevo.isolation.sandbox`, so that they
pickle under the same names in the parent and the child.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import os
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from typing import Any

from kernelevo.isolation import containment
from kernelevo.isolation.sandbox import OUTPUT_LOG, HandlerError, Ready, SandboxSetup

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Die with the parent, so no orphan keeps a GPU busy after its evaluator is gone.

    A fork clears it, and so does a change of user: arm it again after either.
    """
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def redirect_output(scratch: str) -> None:
    """Send this process's stdout and stderr to :data:`~kernelevo.isolation.sandbox.OUTPUT_LOG` in ``scratch``.

    File descriptors 1 and 2 themselves, not only ``sys.stdout``: CUDA's device printf and
    asserts, Triton's compiler dumps and the processes this one starts write to them
    directly. ``sys.stdout`` and ``sys.stderr`` keep writing to those descriptors, and unbuffered
    (the parent sets ``PYTHONUNBUFFERED``), so a child killed mid-way has lost nothing it printed.
    The file is under the child's own file-size limit.
    """
    for stream in (sys.stdout, sys.stderr):  # what the process printed before is not the handler's
        with contextlib.suppress(Exception):
            stream.flush()
    fd = os.open(os.path.join(scratch, OUTPUT_LOG), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.dup2(fd, 1)
        os.dup2(fd, 2)
    finally:
        os.close(fd)


def _build_handler(spec: str, arg: Any, conn: Connection) -> Any:
    module_name, _, class_name = spec.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(arg, conn)


def child_main(fd: int, parent_pid: int) -> None:
    """Entry point of a sandbox child (``python -m kernelevo.isolation FD PARENT_PID``)."""
    conn = Connection(fd)
    setup: SandboxSetup = conn.recv()
    containment.enter(setup.containment, setup.scratch, setup.limits)  # before the handler imports anything
    die_with_parent()
    if os.getppid() != parent_pid:  # the parent died before PDEATHSIG was armed
        os._exit(1)
    if setup.capture_output:
        redirect_output(setup.scratch)
    serve(conn, setup.handler, setup.arg)


def serve(conn: Connection, handler_spec: str, arg: Any) -> None:
    """Build the handler, say it is ready (with its protections), then answer requests until the parent
    closes or asks us to leave.

    A handler may define ``after_reply()``, called after each reply is sent (the fork server
    sends a new child's socket then, after the reply that announces it).
    """
    try:
        handler = _build_handler(handler_spec, arg, conn)
    except BaseException as exc:
        conn.send(HandlerError(type(exc).__name__, str(exc), traceback.format_exc()))
        return
    # What the handler imported and built (torch, Triton, inductor: about 290,000 objects) lives as long as
    # this process: kept from the collector, a collection costs a candidate's own objects, not the 150 ms
    # a full one takes over all of them. A fork server's children inherit it with the pages they share.
    gc.freeze()
    after_reply = getattr(handler, "after_reply", None)
    try:
        conn.send(Ready(containment.report()))
    except OSError:  # the parent gave up on us (it is shutting down)
        return
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):  # the parent closed the connection or died
            return
        if request is None:
            _exit_now(handler)
        try:
            reply = handler.handle(request)
        except BaseException as exc:
            reply = HandlerError(type(exc).__name__, str(exc), traceback.format_exc())
        try:
            conn.send(reply)
        except OSError:  # the parent is gone
            return
        except Exception as exc:  # a reply that cannot be pickled: say so instead of dying
            conn.send(HandlerError(type(exc).__name__, f"the reply could not be sent: {exc}", ""))
        if after_reply is not None:
            after_reply()


def _exit_now(handler: Any) -> None:
    """Leave at once when asked to close: the handler's ``close()``, then no interpreter teardown.

    A judge that ran ``torch.compile`` took 4 to 5 s to exit normally (inductor shuts its
    compile workers down at exit); whatever it started in its own process group is killed
    with the group by the parent (:meth:`Sandbox.kill`).
    """
    closer = getattr(handler, "close", None)
    if callable(closer):
        with contextlib.suppress(Exception):
            closer()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)

