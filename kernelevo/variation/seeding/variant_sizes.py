"""What differs between a spec's variants, for a capture that must keep exactly those sizes dynamic.

Read on the meta device (nothing is allocated): each variant's input shapes, init inputs and
parameter shapes; which input dimensions differ between variants; and each parameter's shape
with a dimension that differs written as the ``get_init_inputs()`` value it follows
(``"init[1]"``), so that the seed creates its parameters at any variant's sizes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kernelevo.spec.loaded import LoadedSpec


class VariantSizesError(ValueError):
    """Variants that differ in a way no dynamic dimension can express (a number, a rank, a parameter)."""


def variant_shapes(problem: LoadedSpec, seed: int) -> tuple[dict[str, list[Any]], dict[str, list[Any]],
                                                           dict[str, dict[str, tuple[int, ...]]]]:
    import torch

    meta = torch.device("meta")
    names = problem.spec.settings.variant_names()
    inputs = {v: [tuple(x.shape) if isinstance(x, torch.Tensor) else x for x in problem.inputs(v, seed, meta)]
              for v in names}
    inits = {v: problem.init_inputs(v) for v in names}
    states = {}
    for v in names:
        model = problem.model(v, seed, meta)
        states[v] = {n: tuple(t.shape) for n, t in (*model.named_parameters(), *model.named_buffers())}
    return inputs, inits, states


def dynamic_dims(inputs: dict[str, list[Any]]) -> dict[int, list[int]]:
    rows = list(inputs.values())
    found: dict[int, list[int]] = {}
    for i, first in enumerate(rows[0]):
        if not isinstance(first, tuple):
            if any(r[i] != first for r in rows):
                raise VariantSizesError(f"input {i} is a number that differs between variants; inductor would "
                                   "specialize the kernel on one value")
            continue
        if any(len(r[i]) != len(first) for r in rows):
            raise VariantSizesError(f"input {i} has a different number of dimensions in different variants")
        dims = [d for d in range(len(first)) if any(r[i][d] != first[d] for r in rows)]
        if dims:
            found[i] = dims
    return found


def init_paths(init: list[Any]) -> list[tuple[str, Any]]:
    """(expression, value) of each integer in get_init_inputs(), also inside tuples and lists."""
    found = []
    for i, value in enumerate(init):
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            found.append((f"init[{i}]", value))
        elif isinstance(value, list | tuple):
            found += [(f"init[{i}][{j}]", v) for j, v in enumerate(value) if isinstance(v, int)
                      and not isinstance(v, bool)]
    return found


def state_shapes_of(inits: dict[str, list[Any]], states: dict[str, dict[str, tuple[int, ...]]]
                  ) -> dict[str, list[int | str]]:
    """Each parameter's shape, a dimension that differs between variants written as the init input it equals."""
    variants = list(states)
    first = states[variants[0]]
    shapes: dict[str, list[int | str]] = {}
    for name, shape in first.items():
        if any(name not in states[v] or len(states[v][name]) != len(shape) for v in variants):
            raise VariantSizesError(f"parameter {name} differs in rank or presence between variants")
        dims: list[int | str] = []
        for d, size in enumerate(shape):
            sizes = {v: states[v][name][d] for v in variants}
            if len(set(sizes.values())) == 1:
                dims.append(size)
                continue
            match = _follows(inits, sizes)
            if match is None:
                raise VariantSizesError(f"parameter {name}'s dim {d} follows none of get_init_inputs()'s values "
                                        "(nor a whole multiple of one)")
            dims.append(match)
        shapes[name] = dims
    return shapes


def _follows(inits: dict[str, list[Any]], sizes: dict[str, int]) -> str | None:
    """The init input ``sizes`` equals in every variant (``"init[1]"``), or is one whole multiple of
    (an LSTM's ``4 * hidden_size`` rows: ``"4 * init[1]"``); None if neither."""
    variants = list(sizes)
    values = {v: dict(init_paths(inits[v])) for v in variants}
    exprs = [e for e, _ in init_paths(inits[variants[0]])]
    exact = next((e for e in exprs if all(values[v].get(e) == sizes[v] for v in variants)), None)
    if exact is not None:
        return exact
    for e in exprs:
        first = values[variants[0]].get(e)
        if not first or sizes[variants[0]] % first:
            continue
        factor = sizes[variants[0]] // first
        if all(values[v].get(e) and values[v][e] * factor == sizes[v] for v in variants):
            return f"{factor} * {e}"
    return None


__all__ = ["VariantSizesError", "dynamic_dims", "init_paths", "state_shapes_of", "variant_shapes"]
