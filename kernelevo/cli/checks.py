"""The command line's checks of what it is given, before anything is written: each problem as one line.

A run's settings are checked whole (a typed :class:`~kernelevo.records.run_config.RunConfig`),
and what pydantic says of them is turned into one line naming the flag (or the config file's
field) and the problem, e.g. ``--workers 0: input should be greater than or equal to 1``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kernelevo.records.run_config import RunConfig

# A run setting's field path -> the flag that sets it (what is not here is named by its path)
RUN_FLAGS = {
    "workers": "--workers", "in_flight": "--in-flight", "islands": "--islands", "seed": "--seed",
    "migration": "--migration", "migration_every": "--migrate-every", "island_in_driver": "--island-in-driver",
    "seed_from": "--seed-from", "descriptors": "--descriptors", "targets": "--targets", "budget": "--budget",
    "evaluation.device": "--device", "ray": "--no-ray", "offline_fallback": "--offline-fallback",
    "models": "--model", "llm": "--model", "pool": "--pool", "weight": "--weight",
}
# Settings read from the environment (kernelevo.settings.Settings) are named by their variable
SETTINGS_TITLE = "Settings"
DEVICE = re.compile(r"auto|cpu|cuda(:\d+)?")


def validation_message(exc: ValidationError, *, flags: Mapping[str, str] | None = None, where: str = "") -> str:
    """A pydantic error as one line: the field -- the flag that set it where ``flags`` names one, a setting's
    environment variable, else its path -- and the problem; ``where`` (a file, say) goes first."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    path = ".".join(str(p) for p in first["loc"])
    problem = str(first["msg"]).removeprefix("Value error, ")
    problem = problem[:1].lower() + problem[1:]
    given = first.get("input")
    scalar = isinstance(given, str | int | float | bool)
    flag, below = _flag_for(path, flags or {})
    if exc.title == SETTINGS_TITLE and path:
        name = f"KERNELEVO_{path.split('.')[0].upper()}"
        head = f"{name}={given}" if scalar else name
    elif flag:
        value = f"{below}={given}" if below else given  # --budget minutes=-1
        head = f"{flag} {value}" if scalar and flag not in ("--no-ray", "--offline-fallback") else flag
    else:
        head = path or exc.title
        problem += f" (got {given!r})" if scalar else ""
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return f"{where}{head}: {problem}{more}"


def _flag_for(path: str, flags: Mapping[str, str]) -> tuple[str | None, str]:
    """The flag of ``path``, or of the nearest field above it and the path below that field
    (``budget.minutes`` -> ``("--budget", "minutes")``); ``(None, "")`` if none."""
    parts = path.split(".")
    for n in range(len(parts), 0, -1):
        flag = flags.get(".".join(parts[:n]))
        if flag:
            return flag, ".".join(parts[n:])
    return None, ""


def device_problem(device: str, *, remote_gpus: bool = False) -> str | None:
    """Why ``--device`` cannot work here, or None. ``remote_gpus``: the evaluators run on a Ray cluster
    (``RAY_ADDRESS``), whose GPUs this machine cannot see."""
    from kernelevo.utils.devices import visible_gpus

    if not DEVICE.fullmatch(device):
        return f"--device {device}: use auto, cpu, cuda or cuda:N"
    if not device.startswith("cuda") or remote_gpus:
        return None
    gpus = visible_gpus()
    if gpus == 0:
        return (f"--device {device}: this machine has no GPU that torch can use; use --device cpu (Triton's "
                "interpreter, slow) or auto, or run where there is one")
    index = int(device.partition(":")[2] or 0)
    if index >= gpus:
        return f"--device {device}: this machine has {gpus} GPU{'s' if gpus > 1 else ''} (cuda:0 to cuda:{gpus - 1})"
    return None


def remote_gpus(config: RunConfig) -> bool:
    """Whether the run's evaluators are on a Ray cluster (``RAY_ADDRESS``), not on this machine."""
    return config.ray and bool(os.environ.get("RAY_ADDRESS"))


def check_run_config(config: RunConfig) -> None:
    """What the typed settings cannot tell alone: the descriptors exist, the device is here. ValueError."""
    from kernelevo.archive.descriptors import descriptor_set

    try:
        descriptor_set(config.descriptors)
    except ValueError as exc:
        raise ValueError(f"--descriptors {config.descriptors}: {exc}") from None
    problem = device_problem(config.evaluation.device, remote_gpus=remote_gpus(config))
    if problem:
        raise ValueError(problem)


def check_out_dir(flag: str, value: str | None) -> None:
    """A folder the run writes to (``--out``, ``--export-to``) must not be a file. ValueError."""
    if value is not None and Path(value).exists() and not Path(value).is_dir():
        raise ValueError(f"{flag} {value}: is a file; give a folder (made if it does not exist)")


def load_config_file(path: str) -> RunConfig:
    """``--config``: a TOML or JSON file of run settings; ValueError names the file and the field."""
    import json
    import tomllib

    file = Path(path)
    if not file.is_file():
        raise ValueError(f"--config {path}: {'is a folder' if file.is_dir() else 'not found'}")
    try:
        text = file.read_text()
        data: Any = tomllib.loads(text) if file.suffix == ".toml" else json.loads(text)
        return RunConfig.model_validate(data)
    except ValidationError as exc:
        raise ValueError(validation_message(exc, where=f"--config {path}: ")) from None
    except (ValueError, OSError, UnicodeDecodeError) as exc:
        kind = "TOML" if file.suffix == ".toml" else "JSON"
        raise ValueError(f"--config {path}: not valid {kind} ({exc})") from None
