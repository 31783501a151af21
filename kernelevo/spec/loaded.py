"""A spec brought to life: its module executed, variants applied, inputs and models made.

This runs only inside isolated children (the judge, the candidate's child, the spec
probe): it executes the spec's code. The judge and the candidate's child each build the
same inputs from the same seed, so inputs never have to travel between them and the
candidate never sees the judge's memory.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator, Sequence
from typing import Any

import torch

from kernelevo.spec.errors import SpecError
from kernelevo.spec.settings import DEFAULT_VARIANT
from kernelevo.spec.spec import Spec

REQUIRED = ("Model", "get_inputs", "get_init_inputs")


def load_module(source: str, name: str, filename: str) -> types.ModuleType:
    """Execute ``source`` as a fresh module registered as ``name``; errors name the line."""
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    try:
        code = compile(source, filename, "exec")
        exec(code, module.__dict__)
    except SyntaxError as exc:
        raise SpecError(f"{filename}:{exc.lineno}: syntax error: {exc.msg}") from None
    except Exception as exc:
        raise SpecError(f"{filename}{_line_in(exc, filename)}: raised {_one_line(exc)} at import") from None
    return module


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _line_in(exc: BaseException, filename: str) -> str:
    """':LINE' of the deepest frame of ``exc`` inside ``filename``, or ''."""
    tb, line = exc.__traceback__, ""
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = f":{tb.tb_lineno}"
        tb = tb.tb_next
    return line


def _at_line(exc: BaseException, filename: str) -> str:
    """' (at line LINE of the spec)' for the deepest frame of ``exc`` inside ``filename``, or ''."""
    line = _line_in(exc, filename)
    return f" (at line {line[1:]} of the spec)" if line else ""


class LoadedSpec:
    """The executed reference module of a :class:`Spec`."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.filename = str(spec.path) if spec.path else f"<spec {spec.name}>"
        self.module = load_module(spec.source, f"kernelevo_spec_{spec.short_hash}", self.filename)
        missing = [n for n in REQUIRED if not hasattr(self.module, n)]
        if missing:
            raise SpecError(
                f"spec defines no {', '.join(missing)} (the KernelBench format needs Model, "
                "get_inputs and get_init_inputs)"
            )
        if not (isinstance(self.module.Model, type) and issubclass(self.module.Model, torch.nn.Module)):
            raise SpecError("spec's Model must be a subclass of torch.nn.Module")
        self.dtype = getattr(torch, spec.settings.dtype) if spec.settings.dtype else None

    @contextlib.contextmanager
    def variant(self, name: str) -> Iterator[None]:
        """Apply the variant's overrides of module globals for the duration of the block."""
        if name == DEFAULT_VARIANT:
            yield
            return
        if name not in self.spec.settings.variants:
            raise SpecError(f"unknown variant {name!r}; the spec has {', '.join(self.spec.settings.variant_names())}")
        overrides = self.spec.settings.variants[name]
        unknown = [k for k in overrides if k not in self.module.__dict__]
        if unknown:
            raise SpecError(f"variant {name!r} overrides {', '.join(unknown)}, which the spec does not define")
        saved = {k: self.module.__dict__[k] for k in overrides}
        self.module.__dict__.update(overrides)
        try:
            yield
        finally:
            self.module.__dict__.update(saved)

    def _call(self, fn_name: str) -> Any:
        try:
            return getattr(self.module, fn_name)()
        except SpecError:
            raise
        except Exception as exc:
            raise SpecError(f"{fn_name}() raised {_one_line(exc)}{_at_line(exc, self.filename)}") from None

    def init_inputs(self, variant: str) -> list[Any]:
        with self.variant(variant):
            args = self._call("get_init_inputs")
        if not isinstance(args, list | tuple):
            raise SpecError(f"get_init_inputs() returned {type(args).__name__}, expected a list")
        return list(args)

    def inputs(self, variant: str, seed: int, device: torch.device) -> list[Any]:
        """Fresh inputs for ``variant``, drawn from ``seed`` directly on ``device``."""
        with self.variant(variant), torch.random.fork_rng(devices=_rng_devices(device)):
            torch.manual_seed(seed)
            with torch.device(device):
                values = self._call("get_inputs")
        if not isinstance(values, list | tuple):
            raise SpecError(f"get_inputs() returned {type(values).__name__}, expected a list of tensors")
        out: list[Any] = []
        for i, value in enumerate(values):
            if isinstance(value, torch.Tensor):
                value = value.to(device)
                if self.dtype is not None and value.is_floating_point():
                    value = value.to(self.dtype)
                out.append(value.contiguous())
            elif isinstance(value, bool | int | float):
                out.append(value)
            else:
                raise SpecError(
                    f"get_inputs()[{i}] is {type(value).__name__}; inputs must be tensors or numbers"
                )
        if not any(isinstance(v, torch.Tensor) for v in out):
            raise SpecError("get_inputs() returned no tensor")
        return out

    def model(self, variant: str, seed: int, device: torch.device, cls: type | None = None) -> torch.nn.Module:
        """``Model`` (or ``cls``) built KernelBench-style: same seed, on CPU, then moved.

        On the meta device it is built there directly: sizing a spec allocates nothing.
        """
        built_on = device if device.type == "meta" else torch.device("cpu")
        return self.placed(self.built(variant, seed, cls, on=built_on), device)

    def built(self, variant: str, seed: int, cls: type | None = None, *,
              on: torch.device | None = None) -> torch.nn.Module:
        """What :meth:`model` builds, before it is moved to the device and given the spec's dtype."""
        cls = cls or self.module.Model
        init = self.init_inputs(variant)
        with self.variant(variant), torch.random.fork_rng(devices=[]), torch.device(on or "cpu"):
            torch.manual_seed(seed)
            try:
                return cls(*init)
            except Exception as exc:
                raise SpecError(f"{cls.__name__}(*get_init_inputs()) raised {_one_line(exc)}") from None

    def placed(self, model: torch.nn.Module, device: torch.device) -> torch.nn.Module:
        """A :meth:`built` model on ``device``, in the spec's dtype."""
        model = model.to(device)
        if self.dtype is not None:
            model = model.to(self.dtype)
        return model

    def forward(self, model: torch.nn.Module, variant: str, inputs: Sequence[Any]) -> list[torch.Tensor]:
        """Run the reference ``model`` and return its outputs as a list of tensors."""
        with self.variant(variant), torch.no_grad():
            try:
                result = model(*inputs)
            except Exception as exc:
                raise SpecError(f"Model.forward raised {_one_line(exc)}{_at_line(exc, self.filename)}") from None
        return as_tensor_list(result, "Model.forward")


def as_tensor_list(result: Any, what: str) -> list[torch.Tensor]:
    """``result`` as a list of tensors; a spec error if it is anything else."""
    items = list(result) if isinstance(result, list | tuple) else [result]
    for i, item in enumerate(items):
        if not isinstance(item, torch.Tensor):
            where = f"[{i}]" if isinstance(result, list | tuple) else ""
            raise SpecError(f"{what} returned {type(item).__name__}{where}; expected a tensor or a tuple of tensors")
    return items


def _rng_devices(device: torch.device) -> list[int]:
    return [device.index or 0] if device.type == "cuda" else []
