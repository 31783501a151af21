"""What ``torch.compile`` (inductor) writes for a spec's reference: captured in an isolated child on a GPU.

The spec is untrusted code, and so is what inductor makes of it: both run only in a
:class:`~kernelevo.isolation.sandbox.Sandbox` child with a hard time limit. The child compiles the
reference as ``torch.compile`` does by default (GEMMs and convolutions left to the vendor
libraries), or with GEMMs as Triton templates (``templates``: inductor's max-autotune),
with every dimension that differs between the spec's variants dynamic and the others
static, runs it once so that inductor autotunes, and reports a :class:`Capture`: the
generated module's text and what the text alone does not say (which argument of the
generated ``call`` is which input, parameter or size; the configuration each kernel's
autotuner chose, its launch grid; the sources of inductor's Triton helpers it uses).
:mod:`kernelevo.variation.seeding.inductor_seed` turns a capture into a standalone candidate.

Inductor writes C++ for CPU tensors: without a GPU there is nothing to capture. This module is the
child's side (and the records both sides share); :mod:`kernelevo.variation.seeding.capturer` starts
and asks the child.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kernelevo.variation.seeding.op_graph import GraphError, OpGraph, trace_graph
from kernelevo.variation.seeding.variant_sizes import VariantSizesError, dynamic_dims, state_shapes_of, variant_shapes

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    import torch

    from kernelevo.spec.loaded import LoadedSpec
    from kernelevo.spec.spec import Spec

CAPTURE_TIMEOUT_S = 600.0  # GEMM templates autotune a few dozen configurations
NO_GPU = "inductor writes C++, not Triton, for CPU tensors: seeds from torch.compile need a GPU"


class CaptureError(Exception):
    """Why a spec has no seed from torch.compile (one line, for the run's log and the report)."""


@dataclass
class GraphArg:
    """One argument of inductor's ``call(args)``: an input, a parameter or buffer, or a size."""

    kind: str  # "input" | "state" | "size"
    index: int | None = None  # input, or the input a size is read from: position in forward's arguments
    name: str | None = None  # state, or the state a size is read from: the parameter's or buffer's name
    dim: int | None = None  # size: which dimension


@dataclass
class KernelLaunch:
    """What inductor's launcher for one kernel does that its source does not say."""

    config: dict[str, int]  # the constexpr values autotuning chose (XBLOCK, R0_BLOCK, ...)
    num_warps: int
    num_stages: int
    grid: list[str]  # x, y, z: Python expressions in the launch arguments' names
    # arguments the call site passes after the kernel's own, which only size the grid (a GEMM
    # template's _grid_0, _grid_1, _grid_2)
    grid_args: list[str] = field(default_factory=list)
    grid_prefix: list[str] = field(default_factory=list)  # assignments the grid expressions read


@dataclass
class Capture:
    spec_name: str
    code: str  # the module inductor generated
    args: list[GraphArg]
    kernels: dict[str, KernelLaunch]
    helpers: dict[str, str]  # name -> source of each triton_helpers function the kernels use (and theirs)
    state: dict[str, list[int | str]]  # parameter/buffer name -> shape; a str reads get_init_inputs: "init[1]"
    buffers: list[str]  # the names in ``state`` that are buffers, not parameters
    output_tuple: bool  # forward returns a tuple (else one tensor)
    outputs: int
    dynamic: dict[int, list[int]]  # input position -> its dims that differ between variants
    versions: dict[str, str]
    variant: str = "default"  # the variant whose model and inputs were compiled
    input_shapes: list[list[int] | None] = field(default_factory=list)  # theirs (None: a number)
    # [input, dim] of each size meant to stay dynamic that inductor fixed at the captured value
    # (a module holding it as a Python int, as nn.LayerNorm does): the module serves that size alone
    specialized: list[list[int]] = field(default_factory=list)
    # "name dim d" of each parameter or buffer size meant to stay dynamic (it follows get_init_inputs())
    # that inductor fixed at the captured value (a convolution's channels): the module serves that size alone
    specialized_state: list[str] = field(default_factory=list)

    @property
    def fixed_sizes(self) -> list[str]:
        """Every size meant to stay dynamic that the module fixed, for people ("input 0 dim 1", ...)."""
        return [f"input {i} dim {d}" for i, d in self.specialized] + list(self.specialized_state)
    options: dict[str, Any] = field(default_factory=dict)  # inductor configuration it was compiled under
    templates: bool = True  # GEMMs as inductor's autotuned Triton templates; else as torch.compile leaves them
    # the reference's aten graph, traced in the child beside the compile, for the kernel families to match
    # (kernelevo.variation.seeding.families); None where it could not be traced, or in a capture older than it
    graph: OpGraph | None = None
    graph_error: str = ""  # why there is no graph, where one was traced for

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> Capture:
        raw = json.loads(text)
        raw["args"] = [GraphArg(**a) for a in raw["args"]]
        raw["kernels"] = {k: KernelLaunch(**v) for k, v in raw["kernels"].items()}
        raw["dynamic"] = {int(k): v for k, v in raw["dynamic"].items()}
        raw["graph"] = OpGraph.from_dict(raw["graph"]) if raw.get("graph") else None
        return cls(**raw)


# -- in the child ---------------------------------------------------------------------------
def _size_arg(source: Any, names: list[str]) -> GraphArg:
    """The size a symbolic graph input stands for, read from dynamo's source: ``L['args'][2].size()[1]``."""
    text = source.name() if callable(getattr(source, "name", None)) else str(getattr(source, "name", source))
    m = re.search(r"\[(\d+)\]\.size\(\)\[(\d+)\]$", text)
    if not m:
        raise CaptureError(f"inductor reads a size kernelevo cannot place: {text}")
    at, dim = int(m.group(1)), int(m.group(2))
    return GraphArg("size", name=names[at], dim=dim) if at < len(names) else \
        GraphArg("size", index=at - len(names), dim=dim)


def _helpers(code: str) -> dict[str, str]:
    """Sources of the triton_helpers functions the kernels call, and of those they call in turn."""
    import inspect

    from torch._inductor.runtime import triton_helpers

    jitted = {n for n in dir(triton_helpers) if hasattr(getattr(triton_helpers, n), "fn")}
    found: dict[str, str] = {}
    todo = set(re.findall(r"triton_helpers\.(\w+)", code)) - {"set_driver_to_gpu"}
    while todo:
        name = todo.pop()
        if name not in jitted:
            raise CaptureError(f"the kernels call triton_helpers.{name}, which is not a Triton function")
        found[name] = inspect.getsource(getattr(triton_helpers, name).fn)
        # helpers they call, or pass as a combine function (tl.reduce(x, dim, maximum))
        todo |= (set(re.findall(r"\b(\w+)\b", found[name])) & jitted) - set(found)
    return found


def _launches(module: Any) -> dict[str, KernelLaunch]:
    from torch._inductor.runtime.triton_heuristics import GridExpr

    found = {}
    for name, obj in vars(module).items():
        launchers = getattr(obj, "launchers", None)
        if launchers is None or not hasattr(obj, "inductor_meta"):
            continue
        if len(launchers) != 1:
            raise CaptureError(f"{name} has {len(launchers)} launchers after autotuning; expected the one chosen")
        cfg = launchers[0].config
        grid = GridExpr.from_meta(obj.inductor_meta, cfg)
        found[name] = KernelLaunch(
            config={k: int(v) for k, v in cfg.kwargs.items()}, num_warps=int(cfg.num_warps),
            num_stages=int(cfg.num_stages), grid=[str(g) for g in (grid.x_grid, grid.y_grid, grid.z_grid)],
            grid_args=list(obj.inductor_meta.get("extra_launcher_args", ())), grid_prefix=list(grid.prefix))
    return found


def capture_in_child(problem: LoadedSpec, device: torch.device, seed: int = 0, *, generic: bool = True,
                     variant: str | None = None, options: dict[str, Any] | None = None,
                     templates: bool = True) -> Capture:
    """Compile ``problem``'s reference with inductor on ``device`` and read back what it wrote.

    ``generic``: the dimensions that differ between variants are dynamic (one module serves
    them all); else every size is ``variant``'s (the default's unless named), as torch.compile
    specializes by default. ``options``: inductor configuration to compile under (dotted names,
    ``{"triton.persistent_reductions": False}``). ``templates``: GEMMs as inductor's autotuned Triton
    templates (max-autotune's GEMMs); else torch.compile's default, GEMMs and convolutions in libraries."""
    import torch
    import torch._inductor.config as inductor_config
    import triton
    from torch._inductor.codecache import PyCodeCache
    from torch._inductor.compile_fx import compile_fx
    from torch._inductor.utils import run_and_get_code
    from torch.fx.experimental import _config as fx_config

    from kernelevo.spec.settings import DEFAULT_VARIANT

    if device.type != "cuda":
        raise CaptureError(NO_GPU)
    try:
        shapes, inits, states = variant_shapes(problem, seed)
        dynamic = dynamic_dims(shapes) if generic else {}
        state_shapes = state_shapes_of(inits, states)
    except VariantSizesError as exc:
        raise CaptureError(str(exc)) from None
    variant = variant or DEFAULT_VARIANT
    model = problem.model(variant, seed, device)
    inputs = problem.inputs(variant, seed, device)
    named = dict((*model.named_parameters(), *model.named_buffers()))
    names = list(named)
    buffers = [n for n, _ in model.named_buffers()]
    for i, dims in dynamic.items():
        for d in dims:
            torch._dynamo.maybe_mark_dynamic(inputs[i], d)
    # parameters as plain tensors (same storage): dynamo holds an nn.Parameter's sizes static, and a
    # weight's static size would specialize the input dimension it must match
    flat = [named[n].detach() for n in names] + list(inputs)
    for at, n in enumerate(names):
        for d, size in enumerate(state_shapes[n]):
            if isinstance(size, str) and generic:
                torch._dynamo.maybe_mark_dynamic(flat[at], d)
    placed: list[GraphArg] = []
    fixed: set[tuple[int, int]] = set()  # (input, dim) that dynamo traced as a plain number
    fixed_state: list[str] = []  # the same of parameters' and buffers' sizes that follow get_init_inputs()
    traced_inputs: set[int] = set()
    traced_tensors: list[tuple[int, Any]] = []  # (position in flat, its traced value) of each graph input

    def place(gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Any:
        for node in gm.graph.nodes:
            if node.op != "placeholder":
                continue
            grapharg = node.meta.get("grapharg")
            example = getattr(grapharg, "example", None)
            if isinstance(example, torch.Tensor):
                at = next((i for i, t in enumerate(flat) if isinstance(t, torch.Tensor) and t is example), None)
                if at is None:  # the same storage seen through another wrapper
                    at = next((i for i, t in enumerate(flat) if isinstance(t, torch.Tensor)
                               and t.data_ptr() == example.data_ptr() and t.shape == example.shape), None)
                if at is None:
                    raise CaptureError(f"graph input {node.name} is no input or parameter of the reference")
                placed.append(GraphArg("state", name=names[at]) if at < len(names)
                              else GraphArg("input", index=at - len(names)))
                traced = node.meta.get("example_value")
                if traced is not None:
                    traced_tensors.append((at, traced))
            else:
                placed.append(_size_arg(grapharg.source, names))
        compiled_graph = compile_fx(gm, example_inputs)
        # after inductor's lowering, whose guards can fix a size too: a convolution's output channels,
        # traced as a symbol, came back as the number 64 in the generic module's kernels and buffers
        for at, traced in traced_tensors:
            if at >= len(names):
                traced_inputs.add(at - len(names))
                fixed.update((at - len(names), d) for d, size in enumerate(traced.shape) if _fixed(size))
            elif generic:
                fixed_state.extend(f"{names[at]} dim {d}" for d, size in enumerate(traced.shape)
                                   if isinstance(state_shapes[names[at]][d], str) and _fixed(size))
        return compiled_graph

    def reference(*args: Any) -> Any:
        state = dict(zip(names, args[:len(names)], strict=True))
        return torch.func.functional_call(model, state, tuple(args[len(names):]))

    fx_config.use_duck_shape = False  # equal sizes keep their own symbols: a square default stays generic
    torch._dynamo.config.force_parameter_static_shapes = False  # a weight's size follows get_init_inputs()
    torch._dynamo.reset()
    compiled = torch.compile(reference, backend=place, fullgraph=True, dynamic=None if generic else False)
    missing = [name for name in options or {} if not _has_option(inductor_config, name)]
    if missing:
        raise CaptureError(f"this torch's inductor has no option {', '.join(missing)}")
    try:
        gemms = {"max_autotune_gemm": True, "max_autotune_gemm_backends": "TRITON"} if templates else {}
        with inductor_config.patch({**gemms, **(options or {})}), torch.no_grad():
            result, codes = run_and_get_code(compiled, *flat)
    except CaptureError:
        raise
    except Exception as exc:
        text = str(exc).strip().splitlines()
        raise CaptureError(f"torch.compile failed: {type(exc).__name__}: {text[0][:300] if text else ''}") from None
    if len(codes) != 1:
        raise CaptureError(f"inductor wrote {len(codes)} modules (graph breaks); a seed needs one")
    code = codes[0]
    modules = PyCodeCache.modules if isinstance(PyCodeCache.modules, list) else list(PyCodeCache.modules.values())
    module = next((m for m in modules if m.__file__ and Path(m.__file__).read_text() == code), None)
    if module is None:
        raise CaptureError("inductor's module was not found among those it loaded")
    outputs = result if isinstance(result, tuple | list) else (result,)
    graph, graph_error = _graph(problem)
    # without dynamo's traced shapes, a dimension with no size of its own counts as fixed: a false
    # alarm costs a capture per variant, a missed one a seed that fails the other variants
    sized = {(a.index, a.dim) for a in placed if a.kind == "size" and a.name is None}
    return Capture(
        spec_name=problem.spec.name, code=code, args=placed, kernels=_launches(module), helpers=_helpers(code),
        state=state_shapes, buffers=buffers, output_tuple=isinstance(result, tuple | list), outputs=len(outputs),
        dynamic=dynamic, versions={"torch": torch.__version__, "triton": triton.__version__,
                                   "gpu": torch.cuda.get_device_name(device)},
        variant=variant, input_shapes=[list(x.shape) if isinstance(x, torch.Tensor) else None for x in inputs],
        specialized=[[i, d] for i, dims in dynamic.items() for d in dims if (i, d) in fixed
                     or (i not in traced_inputs and (i, d) not in sized)], specialized_state=fixed_state,
        options=dict(options or {}),
        templates=templates, graph=graph, graph_error=graph_error)


def _graph(problem: LoadedSpec) -> tuple[OpGraph | None, str]:
    """The reference's traced graph (kernelevo.variation.seeding.op_graph), or why there is none: a capture
    never fails for it."""
    try:
        return trace_graph(problem), ""
    except GraphError as exc:
        return None, str(exc)


def _has_option(config: Any, dotted: str) -> bool:
    node = config
    for part in dotted.split("."):
        if not hasattr(node, part):
            return False
        node = getattr(node, part)
    return True


def _fixed(size: Any) -> bool:
    """Whether dynamo traced a dimension as a number: a plain int, or a symbol its guards later set
    to one (``nn.LayerNorm``'s ``normalized_shape`` does, through ``F.layer_norm``)."""
    return isinstance(size, int) or size.node.maybe_as_int() is not None


class CaptureHandler:
    """Sandbox handler: loads the spec, then captures what inductor writes for it."""

    def __init__(self, arg: tuple[Spec, str], conn: Connection) -> None:
        from kernelevo.spec.loaded import LoadedSpec
        from kernelevo.utils.devices import pick_device

        spec, device = arg
        self.device = pick_device(device)
        self.problem = LoadedSpec(spec)

    def handle(self, request: tuple[int, bool, str | None, dict[str, Any], bool]) -> Capture | str:
        seed, generic, variant, options, templates = request
        try:
            return capture_in_child(self.problem, self.device, seed=seed, generic=generic, variant=variant,
                                    options=options, templates=templates)
        except CaptureError as exc:
            return str(exc)


__all__ = ["CAPTURE_TIMEOUT_S", "NO_GPU", "Capture", "CaptureError", "CaptureHandler", "GraphArg", "KernelLaunch"]
