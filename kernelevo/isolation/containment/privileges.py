"""Credentials, capabilities, no_new_privs and the network namespace of a child, with :mod:`ctypes`."""

from __future__ import annotations

import contextlib
import ctypes
import os

_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_PR_SET_SECUREBITS = 28
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
# uid 0 gains no capability on execve, none may be raised as ambient, KEEP_CAPS stays off; each locked
_SECUREBITS = (1 << 0) | (1 << 1) | (1 << 5) | (1 << 6) | (1 << 7)
_CAPABILITY_VERSION_3 = 0x20080522
_CLONE_NEWNET = 0x40000000


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _failed(what: str) -> str:
    return f"{what}: {os.strerror(ctypes.get_errno())}"


def status_field(name: str) -> str:
    """A field of /proc/self/status ("" when absent)."""
    with contextlib.suppress(OSError), open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key == name:
                return value.strip()
    return ""


def new_network_namespace() -> str | None:
    """Move this process into a network namespace of its own (only a loopback, down); None, or why not."""
    if _libc().unshare(_CLONE_NEWNET) != 0:
        return _failed("unshare(CLONE_NEWNET)")
    return None


def _drop_bounding_set() -> str | None:
    libc = _libc()
    last = 40
    with contextlib.suppress(OSError, ValueError), open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            return _failed(f"dropping capability {cap} from the bounding set")
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)  # fails only where ambient caps do not exist
    return None


def switch_user(uid: int, gid: int, groups: tuple[int, ...]) -> str | None:
    """Become ``uid``:``gid`` with only ``groups`` besides, for good (every capability goes); None, or why not."""
    try:
        failure = _drop_bounding_set()
        if failure:
            return failure
        os.setgroups(list(groups))
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    except OSError as exc:
        return f"switching to uid {uid}: {exc.strerror}"
    if os.getresuid() != (uid, uid, uid) or int(status_field("CapEff") or "0", 16):
        return f"still uid {os.getresuid()} with capabilities {status_field('CapEff')} after switching"
    return None


def drop_capabilities() -> str | None:
    """Keep uid 0 but drop every capability, for good (what uid 0 can do then is what its files' modes allow)."""
    libc = _libc()
    if libc.prctl(_PR_SET_SECUREBITS, _SECUREBITS, 0, 0, 0) != 0:
        return _failed("PR_SET_SECUREBITS")
    failure = _drop_bounding_set()
    if failure:
        return failure
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()  # all zero: no effective, permitted or inheritable capability
    if libc.capset(ctypes.byref(header), data) != 0:
        return _failed("capset")
    return None


def set_no_new_privs() -> str | None:
    """No execve may raise this process's privileges again (setuid files, file capabilities); None, or why not."""
    if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return _failed("PR_SET_NO_NEW_PRIVS")
    return None
