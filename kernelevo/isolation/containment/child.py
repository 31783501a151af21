"""Containment in the child: applied right after it starts (or is forked), before any untrusted code.

:func:`enter` is the first thing a started child does with its setup (see
:func:`kernelevo.isolation.child.child_main`), in this order:

1. resource limits (core dumps, file size, address space), as before;
2. as root, a network namespace of its own (only a loopback, down: no network at all);
3. the user: the sandbox user the parent chose, every capability dropped with it; where none was
   chosen, uid 0 keeps no capability (a developer's own uid stays as it is);
4. the environment: no secret; home, temporary and cache folders in its scratch folder;
5. no_new_privs: nothing it executes can raise its privileges again;
6. Landlock: it writes only beneath its scratch folder, the shared folders the parent names, and
   the devices CUDA and torch write (a fork server defers this to each child it forks);
7. seccomp: no socket but Unix ones, no namespace, no tracing, no keyring.

Each step that this system does not allow is skipped and said in :func:`report` (which the child
sends its parent with its "ready"), never fatal: the other steps still hold. :func:`enter_forked`
gives a child forked by a fork server its own folders and write rules, and :func:`confine_candidate`
narrows a child's writes once more, just before a candidate's code is executed, to its scratch
folder and that candidate's own caches.
"""

from __future__ import annotations

import contextlib
import os
import resource
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kernelevo.isolation.containment import landlock, seccomp
from kernelevo.isolation.containment.environment import point_at_scratch, secrets_left
from kernelevo.isolation.containment.privileges import (
    drop_capabilities,
    new_network_namespace,
    set_no_new_privs,
    status_field,
    switch_user,
)
from kernelevo.isolation.containment.records import PROTECTIONS, Plan, Protection, Report

DEFERRED = "deferred"  # a fork server's writes: each child it forks confines its own


@dataclass
class _State:
    """This process's containment, once entered (a forked child inherits its fork server's)."""

    plan: Plan
    scratch: str
    user: Protection
    limits: str
    netns: str | None  # None: made here; else why not (the namespace may still be an inherited one)
    no_new_privs: str | None
    landlock: str | None  # None: in force; DEFERRED; else why not
    seccomp: str | None  # None: installed here; else why not
    candidate_confined: bool = False


_STATE: _State | None = None


def current() -> tuple[Plan, Protection] | None:
    """This process's plan and user protection, when it is itself a contained child (else None)."""
    return (_STATE.plan, _STATE.user) if _STATE is not None else None


def enter(plan: Plan, scratch: str, limits: Any) -> None:
    """Contain this process (a started child) as ``plan`` says.

    A step this system does not allow, or that fails in a way not foreseen, is noted for the
    report and the next step taken: it never costs the child its start.
    """
    global _STATE
    limits_how = _apply_limits(limits)
    netns = _safely(new_network_namespace) if os.geteuid() == 0 else "not root: the parent's namespace"
    try:
        user = _become_user(plan)
    except Exception as exc:
        user = Protection("user", False, f"uid {os.getuid()} kept: {type(exc).__name__}: {exc}")
    _safely(point_at_scratch, scratch, user=plan.user_name if plan.uid is not None and user.on else "")
    no_new_privs = _safely(set_no_new_privs)
    if not plan.confine_writes:
        writes: str | None = DEFERRED
    else:
        writes = _safely(landlock.restrict_writes, _writable(plan, scratch))
    filtered = _safely(seccomp.install) if no_new_privs is None else "needs no_new_privs"
    _STATE = _State(plan, scratch, user, limits_how, netns, no_new_privs, writes, filtered)


def enter_forked(scratch: str) -> None:
    """In a child just forked by a fork server: its own folders, and its writes confined to them."""
    state = _STATE
    if state is None:  # a fork server that was not contained itself: nothing to inherit
        return
    _safely(point_at_scratch, scratch)
    state.scratch = scratch
    state.landlock = _safely(landlock.restrict_writes, _writable(state.plan, scratch))


def _safely(step: Callable[..., str | None], *args: Any, **kwargs: Any) -> str | None:
    """``step``'s own answer (None: done; else why not), or the exception it raised, as words."""
    try:
        return step(*args, **kwargs)
    except Exception as exc:
        return f"{getattr(step, '__name__', 'a step')}: {type(exc).__name__}: {exc}"


def confine_candidate() -> None:
    """Just before a candidate's code runs: writes only to the scratch folder, the Triton cache this
    candidate's kernels go to (``TRITON_CACHE_DIR``) and load_inline's build folder.

    The shared folders a child could write until now (the Triton cache of its judge's runtime
    helpers, the folder of every candidate's cache) become read-only to the candidate, so it cannot
    plant a Triton binary another candidate's evaluation would load. load_inline's build folder stays
    writable: its builds are kept across candidates by their sources' hash, on purpose (a minute of
    nvcc each), so a candidate could plant a build there for sources it foresees. Landlock binds the
    threads started from here on (the candidate's code runs on this one); once per process; nothing
    outside a contained child, or where Landlock is not in force.
    """
    state = _STATE
    if state is None or state.landlock is not None or state.candidate_confined:
        return
    from kernelevo.utils.paths import cache_dir

    paths = [state.scratch, *_safely_devices()]
    triton_cache = os.environ.get("TRITON_CACHE_DIR")
    if triton_cache:
        paths.append(triton_cache)
    extensions = cache_dir() / "cuda-extensions"  # load_inline's builds, kept across candidates
    with contextlib.suppress(OSError):
        extensions.mkdir(parents=True, exist_ok=True)
        paths.append(str(extensions))
    state.candidate_confined = _safely(landlock.restrict_writes, paths) is None


def _writable(plan: Plan, scratch: str) -> list[str]:
    # a parent of GPU children may write beneath /proc: its children inherit its rules, and CUDA writes each
    # one's own entries as it starts (each child's own layer keeps it to its own)
    return [scratch, *plan.writable, *_safely_devices(), *(["/proc"] if plan.starts_children else [])]


def _safely_devices() -> list[str]:
    try:
        return landlock.device_paths()
    except OSError:  # no /dev to read: no device is writable
        return []


def _apply_limits(limits: Any) -> str:
    """The resource limits (a :class:`kernelevo.isolation.sandbox.Limits`), as words for the report."""
    parts = []
    if not limits.core_dumps:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        parts.append("no core dumps")
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_bytes, limits.file_size_bytes))
    parts.append(f"files up to {limits.file_size_bytes / 2**30:g} GiB")
    if limits.address_space_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (limits.address_space_bytes, limits.address_space_bytes))
        parts.append(f"address space {limits.address_space_bytes / 2**30:g} GiB")
    return ", ".join(parts)


def _capabilities_gone() -> bool:
    return not int(status_field("CapEff") or "0", 16) and not int(status_field("CapBnd") or "0", 16)


def _become_user(plan: Plan) -> Protection:
    """Switch to the plan's user, or keep this one (uid 0 without a capability); what that gives."""
    if plan.uid is not None and plan.gid is not None:
        failure = switch_user(plan.uid, plan.gid, plan.groups)
        if failure is None:
            return Protection("user", True, f"uid {plan.uid} ({plan.user_name})")
        kept = f"{failure}; uid {os.getuid()} kept"
    elif plan.user is not None and plan.user.on:  # the parent is a contained child: its user is ours
        return plan.user
    else:
        kept = plan.user.how if plan.user is not None else f"uid {os.getuid()} kept"
    if os.geteuid() == 0 and not _capabilities_gone():
        dropped = drop_capabilities()
        kept += ", every capability dropped" if dropped is None else f" ({dropped})"
    return Protection("user", False, kept)


def _interfaces() -> list[str] | None:
    """The network interfaces this process's network namespace has (/proc/net/dev), None if unreadable."""
    try:
        with open("/proc/net/dev") as dev:
            return [line.split(":")[0].strip() for line in dev.readlines()[2:] if ":" in line]
    except OSError:
        return None


def report() -> Report:
    """The protections in force in this process, read from the kernel where it says."""
    state = _STATE
    if state is None:
        return Report(tuple(Protection(name, False, "not a contained child") for name in PROTECTIONS))
    interfaces = _interfaces()
    isolated = interfaces is not None and set(interfaces) <= {"lo"}
    filtered = state.seccomp is None and status_field("Seccomp") == "2"
    network_how = [("a network namespace of its own, without network" if isolated
                    else f"the host's network namespace ({state.netns})")]
    if filtered:
        network_how.append("no socket but Unix ones (seccomp)")
    if state.landlock is None and landlock.abi()[0] >= 4:
        network_how.append("no TCP (Landlock)")
    secrets = secrets_left()
    folders = len(state.plan.writable)
    if state.landlock is None:
        writes = "Landlock: writes only in its scratch folder" + (f", {folders} shared folder(s)" if folders else "")
    elif state.landlock == DEFERRED:
        writes = "each child it forks confines its own writes (it runs no untrusted code)"
    else:
        writes = f"Landlock not available: {state.landlock}"
    nnp = status_field("NoNewPrivs") == "1"
    return Report((
        state.user,
        Protection("network", isolated or filtered, "; ".join(network_how)),
        Protection("environment", not secrets, f"secrets left: {', '.join(secrets)}" if secrets
                   else "no secret; home, temporary and cache folders in its scratch folder"),
        Protection("filesystem", state.landlock in (None, DEFERRED), writes),
        Protection("no_new_privs", nnp, "set" if nnp else state.no_new_privs or "not set"),
        Protection("seccomp", filtered, "sockets, namespaces, tracing and keyrings refused" if filtered
                   else state.seccomp or f"Seccomp mode {status_field('Seccomp')}"),
        Protection("limits", True, state.limits),
    ))
