"""The reference's traced graph, as plain data a kernel family can match in the parent.

The spec is untrusted code: :func:`trace_graph` runs only in a child that already runs it isolated
(the inductor capture's, :mod:`kernelevo.variation.seeding.inductor_capture`, or the tracer's,
:mod:`kernelevo.variation.seeding.families.tracer`). It traces the reference with ``make_fx`` on the meta
device (nothing is allocated, so KernelBench's sizes cost nothing) into aten ops, once per variant,
and keeps a compact :class:`OpGraph`: each node's aten target, its arguments (other nodes as
``{"node": name}``, numbers, lists, None), its output's shape and dtype. An integer argument that
differs between variants is named in :attr:`OpGraph.follows` with the ``get_init_inputs()`` value it
equals (``"init[0]"``: GroupNorm's groups), else with the dim of an input it equals in every variant
(``"input[0].shape[0]"``: KL divergence's batchmean), or with ``""`` where it follows none. The
families (:mod:`kernelevo.variation.seeding.families`) read nothing else of the spec.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

from kernelevo.variation.seeding.variant_sizes import VariantSizesError, init_paths, state_shapes_of, variant_shapes

if TYPE_CHECKING:
    from kernelevo.spec.loaded import LoadedSpec


# The most aten ops a traced reference may have. A kernel family matches a graph of a few dozen (the suite's
# largest traced graph, Mamba2's, has 123); a loop over time steps traces to ops for each step (an LSTM of 2
# layers over 256 steps, 10,000, 17 s of make_fx on the meta device), which no family matches: stopped early.
MAX_TRACED_OPS = 2_000


class GraphError(Exception):
    """Why a reference has no graph to match (one line)."""


@dataclass
class OpNode:
    name: str
    kind: str  # "input" | "state" | "call" | "output"
    target: str = ""  # call: "aten.native_layer_norm.default", "getitem"
    args: list[Any] = field(default_factory=list)  # another node: {"node": name}
    kwargs: dict[str, Any] = field(default_factory=dict)
    shape: list[int] | None = None  # a tensor's (None: a number, a tuple of tensors, or the output)
    dtype: str | None = None  # "float32", ...
    index: int | None = None  # input: its position in forward's arguments
    state: str | None = None  # state: the parameter's or buffer's name ("ln.weight")


@dataclass
class OpGraph:
    nodes: list[OpNode]
    variant: str  # the variant whose shapes and constants the nodes hold
    # "node:arg" of a varying int -> "init[0]", "input[0].shape[1]" or ""
    follows: dict[str, str] = field(default_factory=dict)
    # parameter/buffer name -> shape, a dim that differs between variants as the init value it follows ("init[0]")
    state: dict[str, list[int | str]] = field(default_factory=dict)
    buffers: list[str] = field(default_factory=list)  # the names in ``state`` that are buffers

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> OpGraph:
        return cls([OpNode(**n) for n in raw["nodes"]], raw["variant"], dict(raw.get("follows", {})),
                   dict(raw.get("state", {})), list(raw.get("buffers", [])))

    def node(self, name: str) -> OpNode:
        return self._by_name()[name]

    def _by_name(self) -> dict[str, OpNode]:
        return {n.name: n for n in self.nodes}

    def calls(self) -> list[OpNode]:
        return [n for n in self.nodes if n.kind == "call"]

    def outputs(self) -> list[Any]:
        out = next(n for n in self.nodes if n.kind == "output")
        return out.args

    def users(self, name: str) -> list[OpNode]:
        return [n for n in self.nodes if name in refs(n)]

    def arg(self, node: OpNode, i: int) -> OpNode | None:
        """The node ``node``'s ``i``-th argument refers to, or None if it is a constant (or absent)."""
        value = node.args[i] if i < len(node.args) else None
        return self.node(value["node"]) if is_ref(value) else None


def is_ref(value: Any) -> TypeGuard[dict[str, str]]:
    return isinstance(value, dict) and set(value) == {"node"}


def refs(node: OpNode) -> set[str]:
    """The names of the nodes ``node`` reads, at any depth of its arguments."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if is_ref(value):
            found.add(value["node"])
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    walk(node.args)
    walk(node.kwargs)
    return found


# -- in a child that runs the spec ------------------------------------------------------------
def _plain(value: Any) -> Any:
    """An FX argument as JSON: nodes by name, dtypes and devices as text."""
    import torch

    if isinstance(value, torch.fx.Node):
        return {"node": value.name}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _target(node: Any) -> str:
    target = node.target
    if callable(target) and getattr(target, "__name__", "") == "getitem":
        return "getitem"
    return str(target)


def _summary(gm: Any, names: list[str]) -> list[OpNode]:
    import torch

    nodes: list[OpNode] = []
    placeholders = 0
    for node in gm.graph.nodes:
        value = node.meta.get("val")
        shape = list(value.shape) if isinstance(value, torch.Tensor) else None
        dtype = str(value.dtype).removeprefix("torch.") if isinstance(value, torch.Tensor) else None
        if node.op == "placeholder":
            at = placeholders
            placeholders += 1
            nodes.append(OpNode(node.name, "state", shape=shape, dtype=dtype, state=names[at]) if at < len(names)
                         else OpNode(node.name, "input", shape=shape, dtype=dtype, index=at - len(names)))
        elif node.op == "call_function":
            nodes.append(OpNode(node.name, "call", _target(node), _plain(list(node.args)),
                                {k: _plain(v) for k, v in node.kwargs.items()}, shape, dtype))
        elif node.op == "output":
            out = node.args[0]
            nodes.append(OpNode(node.name, "output", args=_plain(list(out) if isinstance(out, list | tuple)
                                                                 else [out])))
        else:
            raise GraphError(f"the traced graph has a {node.op} node ({node.target})")
    return nodes


def _trace_variant(problem: LoadedSpec, variant: str) -> list[OpNode]:
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx

    meta = torch.device("meta")
    model = problem.model(variant, 0, meta)
    inputs = problem.inputs(variant, 0, meta)
    state = dict((*model.named_parameters(), *model.named_buffers()))

    if any(isinstance(m, torch.nn.RNNBase) for m in model.modules()):
        raise GraphError("the reference runs a recurrent layer (nn.LSTM, nn.GRU or nn.RNN), which traces to ops "
                         "for each time step: no kernel family matches one")

    def reference(state: dict[str, Any], *args: Any) -> Any:
        with _op_budget(MAX_TRACED_OPS):
            return torch.func.functional_call(model, state, args)

    with torch.no_grad():
        gm = make_fx(reference)(state, *inputs)
    return _summary(gm, list(state))


def _op_budget(limit: int) -> Any:
    """A dispatch mode that counts the aten ops traced under it and raises a GraphError past ``limit``."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class OpBudget(TorchDispatchMode):
        seen = 0

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            self.seen += 1
            if self.seen > limit:
                raise GraphError(f"the reference traces to more than {limit:,} aten ops (a loop over time steps "
                                 "unrolls), far more than any kernel family matches")
            return func(*args, **(kwargs or {}))

    return OpBudget()


def _constants(nodes: list[OpNode]) -> dict[str, Any]:
    """"node:arg" (and "node:arg.item" inside a list) -> each integer argument of a call."""
    found: dict[str, Any] = {}
    for n in nodes:
        for i, a in enumerate(n.args):
            if isinstance(a, int) and not isinstance(a, bool):
                found[f"{n.name}:{i}"] = a
            elif isinstance(a, list):
                found |= {f"{n.name}:{i}.{j}": v for j, v in enumerate(a) if isinstance(v, int)
                          and not isinstance(v, bool)}
    return found


def _input_dims(nodes: list[OpNode]) -> dict[str, int]:
    """"input[i].shape[d]" -> that dim of forward's i-th input (a size an argument may follow: KL
    divergence's batchmean divides by the batch)."""
    return {f"input[{n.index}].shape[{d}]": size for n in nodes if n.kind == "input" and n.shape is not None
            for d, size in enumerate(n.shape)}


def trace_graph(problem: LoadedSpec) -> OpGraph:
    """The reference's aten graph at the default variant's sizes, each varying integer argument named
    by the ``get_init_inputs()`` value it follows; :class:`GraphError` where the variants trace to
    different graphs (a branch on a size) or anything fails to trace."""
    import torch

    from kernelevo.spec.settings import DEFAULT_VARIANT

    names = problem.spec.settings.variant_names()
    try:
        traced = {v: _trace_variant(problem, v) for v in names}
        _, init_values, states = variant_shapes(problem, 0)
        state = state_shapes_of(init_values, states)
    except (GraphError, VariantSizesError) as exc:
        raise GraphError(str(exc)) from None
    except Exception as exc:  # the spec's own code, traced: any error is its
        text = str(exc).strip().splitlines()
        raise GraphError(f"make_fx could not trace the reference: {type(exc).__name__}: "
                         f"{text[0][:200] if text else ''}") from None
    first = DEFAULT_VARIANT if DEFAULT_VARIANT in traced else names[0]
    nodes = traced[first]
    shape_of = [(n.kind, n.target, n.name) for n in nodes]
    if any([(n.kind, n.target, n.name) for n in other] != shape_of for other in traced.values()):
        raise GraphError("the variants trace to different graphs")
    constants = {v: _constants(t) for v, t in traced.items()}
    inits = {v: dict(init_paths(problem.init_inputs(v))) for v in names}
    dims = {v: _input_dims(t) for v, t in traced.items()}
    follows: dict[str, str] = {}
    for key in constants[first]:
        values = {v: constants[v].get(key) for v in names}
        if len(set(values.values())) == 1:
            continue
        follows[key] = next((path for path in inits[first]
                             if all(inits[v].get(path) == values[v] for v in names)), "") \
            or next((path for path in dims[first] if all(dims[v].get(path) == values[v] for v in names)), "")
    model = problem.model(first, 0, torch.device("meta"))
    return OpGraph(nodes, first, follows, state, [n for n, _ in model.named_buffers()])


__all__ = ["GraphError", "OpGraph", "OpNode", "is_ref", "refs", "trace_graph"]
