"""What a sandboxed child gets here, read in a child started for it: ``kernelevo serve`` asks first.

It sits above both :mod:`kernelevo.isolation.sandbox` (which starts the child) and
:mod:`kernelevo.isolation.containment` (which contains it and reads back its protections): the
containment never starts a child of its own.
"""

from __future__ import annotations

from typing import Any

from kernelevo.isolation import containment
from kernelevo.isolation.containment import PROTECTIONS, Protection, Report
from kernelevo.isolation.sandbox import Sandbox, SandboxFailure


class Probe:
    """Sandbox handler that only reports its protections (:func:`probe`)."""

    def __init__(self, arg: Any, conn: Any) -> None:
        pass

    def handle(self, request: Any) -> Report:
        return containment.report()


def probe(timeout_s: float = 120.0) -> Report:
    """The protections a sandboxed child gets here, read in a child started for it (a second or so)."""
    box = Sandbox("kernelevo.isolation.probe:Probe", None, name="probe", note_missing=False)
    try:
        box.start()
        report: Report = box.call("report", {"*": timeout_s, "start": timeout_s})
        containment.noted(report)  # the caller says them: no child of this process again
        return report
    except SandboxFailure as exc:
        return Report(tuple(Protection(name, False, f"the probe child failed: {exc.message}") for name in PROTECTIONS))
    finally:
        box.close()
