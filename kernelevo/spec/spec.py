"""The :class:`Spec` record: a reference operator's source and settings, read without running it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from kernelevo.spec.errors import SpecError
from kernelevo.spec.names import check_name, stem_name
from kernelevo.spec.settings import DEFAULT_VARIANT, SMALL_VARIANT, SpecSettings, parse_settings


@dataclass(frozen=True)
class Spec:
    """A PyTorch reference operator in the KernelBench format, plus kernelevo's settings.

    Building a Spec never executes its code; :func:`kernelevo.spec.check_spec` does, in
    an isolated child.
    """

    name: str
    source: str
    settings: SpecSettings = field(default_factory=SpecSettings)
    path: Path | None = None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()

    @property
    def short_hash(self) -> str:
        return self.sha256[:12]

    def timing_variant(self, *, gpu: bool) -> str:
        """The variant timed: ``default`` on a GPU; on CPU ``small`` (or the first CPU variant)."""
        if gpu:
            return DEFAULT_VARIANT
        cpu = self.settings.cpu_variant_names()
        return SMALL_VARIANT if SMALL_VARIANT in cpu else cpu[0]

    def correctness_variants(self, *, gpu: bool) -> list[str]:
        """Variants checked for correctness, the timed one last (small ones fail fast)."""
        names = self.settings.variant_names() if gpu else self.settings.cpu_variant_names()
        timed = self.timing_variant(gpu=gpu)
        return [v for v in names if v != timed] + [timed]

    def seed_sources(self) -> list[tuple[str, str]]:
        """(name, source) of each seed kernel; paths are relative to the spec file."""
        seeds: list[tuple[str, str]] = []
        for entry in self.settings.seeds:
            if "\n" in entry:  # an inline kernel
                seeds.append((f"{self.name}-seed{len(seeds)}", entry))
                continue
            if self.path is None:
                raise SpecError(f"seed {entry!r} is a path, but this spec was given as text, not as a file")
            seed_path = (self.path.parent / entry).resolve()
            if not seed_path.is_file():
                raise SpecError(f"seed kernel {entry!r} not found next to {self.path.name}")
            seeds.append((seed_path.stem, seed_path.read_text()))
        return seeds


def read_spec(spec: str | Path, *, name: str | None = None) -> Spec:
    """A :class:`Spec` from a file path or from source text; reads settings, runs nothing.

    ``name`` must follow :data:`kernelevo.spec.names.NAME_RULE` (it becomes a file name); without
    it the name comes from the file (made valid) or from the source's hash."""
    path: Path | None = None
    if "\n" not in str(spec) and Path(spec).is_dir():
        raise SpecError(f"spec {str(spec)!r} is a directory: give the spec's Python file (for a directory of "
                        "KernelBench problems and generated kernels: kernelevo eval --kernelbench PROBLEMS KERNELS)")
    if isinstance(spec, Path) or ("\n" not in spec and spec.endswith(".py")):
        path = Path(spec)
        if not path.is_file():
            raise SpecError(f"spec file {str(path)!r} not found")
        source = path.read_text()
        # a file's stem (spec.py: its folder's) made a valid name: 1_Square_matrix_multiplication_.py keeps its name
        default_name = stem_name(path.stem if path.stem != "spec" else path.resolve().parent.name)
    else:
        source = str(spec)
        default_name = "spec-" + hashlib.sha256(source.encode()).hexdigest()[:8]
    settings = parse_settings(source, filename=str(path) if path else "<spec>")
    return Spec(name=check_name(name) if name else default_name, source=source, settings=settings,
                path=path.resolve() if path else None)


__all__ = ["DEFAULT_VARIANT", "SMALL_VARIANT", "Spec", "read_spec"]
