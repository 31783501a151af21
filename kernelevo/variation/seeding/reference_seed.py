"""The reference itself as a seed, where it hands all its work to the libraries and torch.compile cannot.

Dynamo does not trace recurrent layers: ``torch.compile`` of an LSTM network breaks its graph and
runs the LSTM eagerly, through cuDNN. For such a spec there is no inductor module to convert, but
torch.compile's own answer is plain: the reference's library calls as they are. When the
reference's ``Model`` does nothing but library calls the run's policy allows, views and
allocations (the static checks say so, as for any candidate), its source, renamed ``ModelNew``
and without ``get_inputs``/``get_init_inputs``, is that seed: the judge then finds its library
work equal to the reference's. A reference that computes anything else in torch makes no seed.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from kernelevo.evaluation.static.check import check_source
from kernelevo.evaluation.static.rules import LIBRARY_MODULES
from kernelevo.records.result import ErrorKind

_DROPPED = {"get_inputs", "get_init_inputs", "KERNELEVO"}


class ReferenceSeedError(Exception):
    """Why the reference is no seed."""


def reference_seed(source: str, *, library: Sequence[str]) -> str:
    """The reference module's source as a candidate (``ModelNew``), or :class:`ReferenceSeedError`."""
    tree = ast.parse(source)
    body = []
    for stmt in tree.body:
        names = ({stmt.name} if isinstance(stmt, ast.FunctionDef | ast.ClassDef) else
                 {t.id for t in stmt.targets if isinstance(t, ast.Name)} if isinstance(stmt, ast.Assign) else set())
        if names & _DROPPED:
            continue
        if isinstance(stmt, ast.ClassDef) and stmt.name == "Model":
            stmt.name = "ModelNew"
        body.append(stmt)
    tree.body = body
    candidate = ('"""The reference\'s own library calls (torch.compile runs this model eagerly): a seed to '
                 'start from."""\n\n' + ast.unparse(tree) + "\n")
    other = _other_modules(tree)
    if other:  # a module call the static checks cannot see into: BatchNorm2d computes in torch
        raise ReferenceSeedError(f"the reference computes in torch modules that are no library call: "
                                 f"{', '.join(f'self.{n} ({c})' for n, c in other[:3])}")
    findings = check_source(candidate, library=library)
    if findings:  # what it computes says more than that it launches no kernel of its own
        reason = next((f for f in findings if f.kind != ErrorKind.NO_KERNEL), findings[0])
        raise ReferenceSeedError(f"the reference computes outside the library policy: {reason}")
    return candidate


def _other_modules(tree: ast.Module) -> list[tuple[str, str]]:
    """(attribute, class) of each ``self.x = nn.Class(...)`` the model builds that is no library module:
    calling it in forward computes in torch."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1:
            target, func = node.targets[0], ast.unparse(node.value.func)
            if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "self" \
                    and func.startswith(("nn.", "torch.nn.")) and func.rsplit(".", 1)[-1] not in LIBRARY_MODULES \
                    and func.rsplit(".", 1)[-1] not in _CONTAINERS:
                found.append((target.attr, func.rsplit(".", 1)[-1]))
    return found


_CONTAINERS = {"Parameter", "ParameterList", "ParameterDict", "Buffer", "Identity"}


__all__ = ["ReferenceSeedError", "reference_seed"]
