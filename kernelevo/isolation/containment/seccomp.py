"""A seccomp filter for sandboxed children: no network sockets, no namespaces, no tracing.

Written as classic BPF with :mod:`ctypes` (no dependency). It needs no privilege (only
no_new_privs), is inherited by every process the child starts and by the threads it already
has (``SECCOMP_FILTER_FLAG_TSYNC``), and cannot be removed. It refuses with ``EPERM``:

- ``socket`` and ``socketpair`` of any family but ``AF_UNIX``: the child's channel to its parent is
  a Unix socket pair made before it started, torch shares CPU tensors through files in /dev/shm
  and a Unix socket of its own; nothing a child does needs IP, netlink or a raw socket;
- ``io_uring`` (it can open sockets without the ``socket`` call);
- ``unshare``, ``setns`` and ``clone`` with a namespace flag (a user namespace would let it build
  a network or mount namespace of its own, and widens what it can ask of the kernel); ``clone3``
  answers ``ENOSYS``, whose flags a filter cannot read, so the C library falls back to ``clone``;
- ``ptrace`` and ``process_vm_readv``/``writev``: a candidate must not read or change its judge;
- the kernel keyring (``keyctl``, ``add_key``, ``request_key``): keys in the session keyring a
  child inherits are its to use whatever its user.

System calls of another ABI (32-bit calls from a 64-bit process, x32) are refused outright.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
from dataclasses import dataclass

_AF_UNIX = 1
_NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
_X32_SYSCALL_BIT = 0x40000000

# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (little-endian: low half first)
_NR, _ARCH, _ARG0 = 0, 4, 16

_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000

_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
_SECCOMP_SET_MODE_FILTER, _SECCOMP_FILTER_FLAG_TSYNC = 1, 1


@dataclass(frozen=True)
class _Arch:
    audit: int  # AUDIT_ARCH_*
    seccomp: int  # the seccomp system call
    socket_calls: tuple[int, ...]  # socket, socketpair
    clone: int
    clone3: int
    refused: tuple[int, ...]


_ARCHES = {
    "x86_64": _Arch(0xC000003E, 317, (41, 53), 56, 435,
                    (425, 426, 427,  # io_uring_setup, _enter, _register
                     272, 308,  # unshare, setns
                     101, 310, 311,  # ptrace, process_vm_readv, process_vm_writev
                     250, 248, 249)),  # keyctl, add_key, request_key
    "aarch64": _Arch(0xC00000B7, 277, (198, 199), 220, 435,
                     (425, 426, 427, 97, 268, 117, 270, 271, 219, 217, 218)),
}


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


_Insn = tuple[int, str | int, str | int, int]  # code, jump if true, jump if false, k; a jump names a label, or 0


def _program(arch: _Arch, *, x32: bool) -> list[str | _Insn]:
    """The filter: instructions, and labels (strings) that jumps name."""
    deny, allow = "deny", "allow"
    prog: list[str | _Insn] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 0, deny, arch.audit),
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if x32:
        prog.append((_JGE_K, deny, 0, _X32_SYSCALL_BIT))
    prog += [(_JEQ_K, "family", 0, nr) for nr in arch.socket_calls]
    prog += [(_JEQ_K, "clone", 0, arch.clone), (_JEQ_K, "enosys", 0, arch.clone3)]
    prog += [(_JEQ_K, deny, 0, nr) for nr in arch.refused]
    prog += [
        (_RET_K, 0, 0, _RET_ALLOW),
        "family",
        (_LD_W_ABS, 0, 0, _ARG0),
        (_JEQ_K, allow, deny, _AF_UNIX),
        "clone",
        (_LD_W_ABS, 0, 0, _ARG0),
        (_JSET_K, deny, allow, _NAMESPACE_FLAGS),
        "enosys",
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),
        "deny",
        (_RET_K, 0, 0, _RET_ERRNO | errno.EPERM),
        "allow",
        (_RET_K, 0, 0, _RET_ALLOW),
    ]
    return prog


def _assemble(prog: list[str | _Insn]) -> list[tuple[int, int, int, int]]:
    """Labels resolved into relative jumps (classic BPF jumps forward only), and dropped."""
    labels: dict[str, int] = {}
    body: list[_Insn] = []
    for item in prog:
        if isinstance(item, str):
            labels[item] = len(body)
        else:
            body.append(item)

    def offset(at: int, target: str | int) -> int:
        return labels[target] - at - 1 if isinstance(target, str) else target

    return [(code, offset(i, jt), offset(i, jf), k) for i, (code, jt, jf, k) in enumerate(body)]


def install() -> str | None:
    """Install the filter in this process (all its threads); None once installed, else why not.

    Needs no_new_privs set first (or CAP_SYS_ADMIN).
    """
    machine = platform.machine()
    arch = _ARCHES.get(machine)
    if arch is None:
        return f"no filter written for {machine}"
    insns = _assemble(_program(arch, x32=machine == "x86_64"))
    filters = (_Filter * len(insns))(*(_Filter(*insn) for insn in insns))
    program = _Program(len(insns), filters)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(arch.seccomp, _SECCOMP_SET_MODE_FILTER, _SECCOMP_FILTER_FLAG_TSYNC, ctypes.byref(program)) == 0:
        return None
    first = os.strerror(ctypes.get_errno())
    # a kernel without the seccomp system call (before 3.17): the prctl, for this thread only
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) == 0:
        return None
    return f"seccomp: {first}; prctl(PR_SET_SECCOMP): {os.strerror(ctypes.get_errno())}"
