"""The environment a sandboxed child gets: an allow-list of what it needs, never a secret.

A child runs a spec's code or an LLM's kernel. It needs the dynamic linker's and Python's
paths, the locale, CUDA's, NVIDIA's, Triton's and torch's settings, and folders of its own to
write caches in; it never needs the database's URL (which carries its password), an API key,
or a token. The inherited environment is filtered through the allow-list; what a caller passes
explicitly is kept, unless it looks like a secret; and the child itself removes anything that
looks like a secret again, and points every cache and temporary folder at its scratch folder
(:func:`point_at_scratch`), so that a forked child, which inherits its fork server's
environment, gets its own folders too.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Mapping

_PASSED = frozenset({
    "PATH", "LANG", "LANGUAGE", "TZ", "TERM", "LD_LIBRARY_PATH",
    "PYTHONPATH", "PYTHONHOME", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED",
    "PYTHONWARNINGS", "PYTHONFAULTHANDLER", "PYTHONNOUSERSITE", "VIRTUAL_ENV", "CONDA_PREFIX",
    "CC", "CXX", "MAX_JOBS", "CUBLAS_WORKSPACE_CONFIG",
})
_PASSED_PREFIXES = ("LC_", "CUDA_", "NVIDIA_", "NVCC_", "CUDNN_", "TRITON_", "TORCHINDUCTOR_", "TORCH_", "PYTORCH_",
                    "CUPY_", "OMP_", "MKL_")
# Where a process writes: an inherited value points where the parent writes, so it is dropped, and
# the child points these at its own scratch folder (a caller may still pass one explicitly: the
# evaluator hands candidate children the Triton cache they share).
SCRATCH_PLACES = frozenset({
    "HOME", "TMPDIR", "TMP", "TEMP", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR",
    "TRITON_HOME", "TRITON_CACHE_DIR", "TRITON_DUMP_DIR", "TRITON_OVERRIDE_DIR", "TORCHINDUCTOR_CACHE_DIR",
    "TORCH_EXTENSIONS_DIR", "CUPY_CACHE_DIR", "KERNELEVO_CACHE_DIR",
})
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|PRIVATE|DATABASE_URL|_DSN", re.IGNORECASE)
_URL_WITH_PASSWORD = re.compile(r"^[a-z][a-z0-9+.-]*://[^/@\s]*:[^/@\s]*@", re.IGNORECASE)


def is_secret(name: str, value: str) -> bool:
    """A variable no child may see: a name that says key, token, secret, password, credential or
    database URL, or a URL with a password in it (whatever its name)."""
    return bool(_SECRET_NAME.search(name) or _URL_WITH_PASSWORD.match(value))


def _passed(name: str) -> bool:
    return name not in SCRATCH_PLACES and (name in _PASSED or name.startswith(_PASSED_PREFIXES))


def child_environment(explicit: Mapping[str, str], *, inherit: bool,
                      parent: Mapping[str, str] | None = None) -> dict[str, str]:
    """A child's environment: ``parent``'s (this process's by default) through the allow-list when
    ``inherit``, then ``explicit``; no secret of either survives."""
    base = os.environ if parent is None else parent
    inherited = {k: v for k, v in base.items() if _passed(k)} if inherit else {}
    return {k: v for k, v in {**inherited, **explicit}.items() if not is_secret(k, v)}


def point_at_scratch(scratch: str, *, user: str = "") -> None:
    """In the child: no secret left in ``os.environ``; home, temporary and cache folders in ``scratch``.

    Triton (``~/.triton``), CUDA (``~/.nv``), inductor (``$TMPDIR/torchinductor_<user>``), torch's
    extensions and CuPy's kernels write beneath these. Python's :mod:`tempfile` caches the folder it
    found first: it is told to look again (a forked child inherits its fork server's).
    """
    for name in [k for k, v in os.environ.items() if is_secret(k, v)]:
        del os.environ[name]
    tmp, cache = os.path.join(scratch, "tmp"), os.path.join(scratch, ".cache")
    for folder in (tmp, cache):
        with contextlib.suppress(OSError):  # a scratch folder it cannot write: it says so at its first write
            os.makedirs(folder, exist_ok=True)
    os.environ.update({"HOME": scratch, "TMPDIR": tmp, "TMP": tmp, "TEMP": tmp, "XDG_CACHE_HOME": cache,
                       "XDG_CONFIG_HOME": os.path.join(scratch, ".config")})
    if user:  # getpass.getuser() reads these before the password database
        os.environ.update({"USER": user, "LOGNAME": user})
    tempfile.tempdir = None


def secrets_left() -> list[str]:
    """Names of variables in this process's environment that look like secrets."""
    return sorted(k for k, v in os.environ.items() if is_secret(k, v))
