"""Landlock (Linux 5.13 and later): a process confines its own writes, without privileges.

Used through its three system calls with :mod:`ctypes` (no dependency). A ruleset names the
access rights it *handles*; each is then denied everywhere except beneath the folders (or at
the files) a rule allows it for. Only writing is handled here (making, removing, writing,
truncating, renaming across folders), never reading, executing or a device's ioctls: a child may
read its Python, torch and CUDA wherever they are installed, and write only its own folders.

A ruleset, once applied, holds for the process and every process it starts, and a later one can
only narrow it (layers intersect). Landlock also keeps a confined process from tracing or
reading the memory of a process less confined than itself (its judge, its parent), and, with
ABI 6, from signalling one or reaching its abstract Unix sockets; with ABI 4, from binding or
connecting TCP sockets.
"""

from __future__ import annotations

import ctypes
import functools
import os
import stat
from collections.abc import Iterable

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every architecture
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

WRITE_FILE = 1 << 1
REMOVE_DIR, REMOVE_FILE = 1 << 4, 1 << 5
MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = (1 << n for n in range(6, 13))
REFER = 1 << 13  # ABI 2: renames and links across folders (denied outright unless handled)
TRUNCATE = 1 << 14  # ABI 3
_WRITES_V1 = (WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO
              | MAKE_BLOCK | MAKE_SYM)
_FILE_RIGHTS = WRITE_FILE | TRUNCATE  # the handled rights a rule on a file (not a folder) may allow
_NET_BIND_TCP, _NET_CONNECT_TCP = 1, 2  # ABI 4
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1, 2  # ABI 6

# Devices a child writes: CUDA's (read and written), the null and random ones, and POSIX shared memory
# (torch shares CPU tensors through files in /dev/shm). Nothing else of /dev: a child that kept uid 0
# must not write a disk.
DEVICE_FILES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
DEVICE_FOLDERS = ("/dev/shm", "/dev/nvidia-caps")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # the kernel's struct is packed: 12 bytes
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _error(what: str) -> str:
    return f"{what}: {os.strerror(ctypes.get_errno())}"


@functools.cache
def abi() -> tuple[int, str]:
    """Landlock's ABI version here (0 without it), and why not when 0."""
    try:
        version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    except (OSError, AttributeError) as exc:
        return 0, f"no system call: {exc}"
    if version < 0:
        return 0, _error("landlock_create_ruleset")
    return int(version), ""


def _writes(version: int) -> int:
    return _WRITES_V1 | (REFER if version >= 2 else 0) | (TRUNCATE if version >= 3 else 0)


def device_paths() -> list[str]:
    """The device files and folders beneath /dev a child may write (those that exist here), and the
    process's own /proc entries: CUDA writes there as it starts (its threads' names), and fails to
    find the GPU where it cannot (cudaGetDeviceCount's error 304, seen on an H200 host)."""
    paths = [p for p in (*DEVICE_FILES, *DEVICE_FOLDERS) if os.path.exists(p)]
    with os.scandir("/dev") as entries:
        paths += sorted(e.path for e in entries if e.name.startswith("nvidia") and not e.is_dir())
    own = os.path.realpath("/proc/self")  # /proc/<pid>: this process's, not another's
    if own != "/proc/self" and os.path.isdir(own):
        paths.append(own)
    return paths


def restrict_writes(paths: Iterable[str]) -> str | None:
    """Let this thread (and what it starts) write only beneath ``paths`` (folders) or to them (files).

    Paths that do not exist are left out. Returns None once applied, else why it was not (nothing
    is then changed). Call it before starting threads: Landlock binds the calling thread.
    """
    version, why = abi()
    if version == 0:
        return why
    libc = _libc()
    handled = _writes(version)
    attr = _RulesetAttr(handled, (_NET_BIND_TCP | _NET_CONNECT_TCP) if version >= 4 else 0,
                        (_SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL) if version >= 6 else 0)
    size = 24 if version >= 6 else 16 if version >= 4 else 8  # the struct as this ABI knows it
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return _error("landlock_create_ruleset")
    try:
        for path in dict.fromkeys(paths):  # in order, once each
            failure = _allow(libc, int(ruleset), path, handled)
            if failure:
                return failure
        if libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
            return _error("landlock_restrict_self")
    finally:
        os.close(ruleset)
    return None


def _allow(libc: ctypes.CDLL, ruleset: int, path: str, handled: int) -> str | None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return None  # gone (or never made): nothing to allow
    try:
        folder = stat.S_ISDIR(os.fstat(fd).st_mode)
        rule = _PathBeneathAttr(handled if folder else handled & _FILE_RIGHTS, fd)
        if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule),
                        ctypes.c_uint32(0)) < 0:
            return _error(f"landlock_add_rule {path}")
    finally:
        os.close(fd)
    return None
