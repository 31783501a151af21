"""Containment from the parent's side: the user children run as, the folders they may write, what they lack.

The sandbox user is ``$KERNELEVO_SANDBOX_USER``, else ``kernelevo-sandbox`` where that user
exists, else ``nobody``. Only a parent running as root can start children as another user; it
does so only where that user can run this Python (its interpreter, standard library and
packages must be readable by it: a Python under ``/root`` is not) and open the GPU's device
files (their group is added where they are not open to all). Elsewhere children keep the
parent's user, and say so (:func:`note`).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import pwd
import stat
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kernelevo.isolation.containment import child
from kernelevo.isolation.containment.records import Plan, Protection, Report

log = logging.getLogger(__name__)

SANDBOX_USER_ENV = "KERNELEVO_SANDBOX_USER"
SANDBOX_CACHE_ENV = "KERNELEVO_SANDBOX_CACHE_DIR"
_DEFAULT_USERS = ("kernelevo-sandbox", "nobody")
# Where children running as the sandbox user keep what outlives them (Triton's runtime helpers,
# load_inline's builds) when the parent's cache is out of their reach (/root/.cache)
_SYSTEM_CACHE = "/var/cache/kernelevo-sandbox"
_R, _W, _X = 4, 2, 1


@dataclass(frozen=True)
class SandboxUser:
    name: str
    uid: int
    gid: int
    groups: tuple[int, ...]  # supplementary: the groups owning the GPU's device files, where needed

    @property
    def gids(self) -> frozenset[int]:
        return frozenset((self.gid, *self.groups))


def sandbox_user() -> tuple[SandboxUser | None, str]:
    """The user this process starts children as, or None and why children keep this process's user."""
    if os.geteuid() != 0:
        return None, (f"uid {os.geteuid()} kept, the user that started kernelevo (only root can start "
                      "children as another user)")
    return _resolve(os.environ.get(SANDBOX_USER_ENV, ""), os.environ.get("PYTHONPATH", ""), tempfile.gettempdir())


@functools.cache
def _resolve(wanted: str, python_path: str, temp: str) -> tuple[SandboxUser | None, str]:
    """The sandbox user named ``wanted`` (else the first of the defaults), if it can run this Python
    (``python_path`` too: children inherit it) and reach ``temp``, where children's folders go."""
    names = [wanted] if wanted else list(_DEFAULT_USERS)
    entry = None
    for name in names:
        try:
            entry = pwd.getpwnam(name)
            break
        except KeyError:
            continue
    if entry is None:
        return None, f"uid 0 kept: no user named {' or '.join(names)} (set {SANDBOX_USER_ENV})"
    if entry.pw_uid == 0:
        return None, f"uid 0 kept: the sandbox user {entry.pw_name} is root"
    groups, why = _device_groups(entry.pw_uid, entry.pw_gid)
    if why:
        return None, f"uid 0 kept: {entry.pw_name} {why}"
    user = SandboxUser(entry.pw_name, entry.pw_uid, entry.pw_gid, groups)
    for path in [*_python_paths(), *_existing(python_path)]:
        if not reachable(path, user.uid, user.gids):
            return None, (f"uid 0 kept: {user.name} cannot read {path} (this Python environment must be "
                          "readable by the sandbox user)")
    if not reachable(temp, user.uid, user.gids, bits=_X):
        return None, f"uid 0 kept: {user.name} cannot reach {temp}, where children's folders go"
    return user, ""


def _device_groups(uid: int, gid: int) -> tuple[tuple[int, ...], str]:
    """Groups ``uid`` needs to read and write the GPU's device files, or why it cannot."""
    groups: set[int] = set()
    for name in sorted(os.listdir("/dev")) if os.path.isdir("/dev") else []:
        if not name.startswith("nvidia"):
            continue
        try:
            st = os.stat(os.path.join("/dev", name))
        except OSError:  # a dangling entry: nothing to open
            continue
        if not stat.S_ISCHR(st.st_mode) or _allows(st, uid, {gid}, _R | _W):
            continue
        if (st.st_mode >> 3) & 6 == 6 and st.st_gid != 0:
            groups.add(st.st_gid)
        else:
            return (), f"could not open /dev/{name} (mode {stat.S_IMODE(st.st_mode):o}, group {st.st_gid})"
    return tuple(sorted(groups)), ""


def _python_paths() -> list[str]:
    """What a child must read to start: the interpreter, the standard library, kernelevo, torch."""
    import kernelevo

    paths = [os.path.realpath(sys.executable), os.path.dirname(os.__file__), os.path.dirname(kernelevo.__file__)]
    found = importlib.util.find_spec("torch")
    if found is not None and found.origin:
        paths.append(os.path.dirname(found.origin))
    return paths


def _existing(path_list: str) -> list[str]:
    return [p for p in path_list.split(os.pathsep) if p and os.path.exists(p)]


def _allows(st: os.stat_result, uid: int, gids: Iterable[int], bits: int) -> bool:
    if st.st_uid == uid:
        return (st.st_mode >> 6) & bits == bits
    if st.st_gid in set(gids):
        return (st.st_mode >> 3) & bits == bits
    return st.st_mode & bits == bits


def reachable(path: str, uid: int, gids: Iterable[int], *, bits: int = _R) -> bool:
    """Whether ``uid`` (with ``gids``) can reach ``path`` through its folders and has ``bits`` on it
    (by the mode bits alone: ACLs and other security modules are not read)."""
    gids = frozenset(gids)
    target = Path(os.path.realpath(path))
    try:
        for folder in reversed(target.parents):
            if not _allows(os.stat(folder), uid, gids, _X):
                return False
        return _allows(os.stat(target), uid, gids, bits)
    except OSError:
        return False


def plan(scratch: str, writable: Iterable[str] | None = None, *, confine_writes: bool = True,
         env: Mapping[str, str] | None = None, starts_children: bool = False) -> Plan:
    """The containment of a child working in ``scratch`` that may also write beneath ``writable``.

    ``writable`` None: what this process may write, when it is itself a contained child (a
    judge's children share its folders), else nothing. ``env``: the child's environment (its
    ``PYTHONPATH`` must be readable by the sandbox user too).
    """
    own = child.current()
    if own is not None:  # a contained child starting its own: they share its user and folders
        own_plan, own_user = own
        folders = own_plan.writable if writable is None else tuple(writable)
        return Plan(user=own_user, writable=folders, confine_writes=confine_writes, starts_children=starts_children)
    folders = tuple(writable or ())
    user, why = sandbox_user()
    if user is None:
        return Plan(user=Protection("user", False, why), writable=folders, confine_writes=confine_writes,
                    starts_children=starts_children)
    python_path = _existing((env or {}).get("PYTHONPATH", ""))
    for path, bits in [(os.path.dirname(scratch), _X), *((f, _W | _X) for f in folders),
                       *((p, _R) for p in python_path)]:
        if not reachable(path, user.uid, user.gids, bits=bits):
            return Plan(user=Protection("user", False, f"uid 0 kept: {user.name} cannot reach {path}"),
                        writable=folders, confine_writes=confine_writes, starts_children=starts_children)
    return Plan(uid=user.uid, gid=user.gid, groups=user.groups, user_name=user.name, writable=folders,
                confine_writes=confine_writes, starts_children=starts_children)


def give_to(path: str | Path, plan: Plan) -> None:
    """Make ``path`` (a folder this process made for a child) the child's own, when the child switches user."""
    if plan.uid is not None and plan.gid is not None and os.geteuid() == 0:
        os.chown(path, plan.uid, plan.gid)


def unreachable(path: str, plan: Plan) -> str | None:
    """Why a child of ``plan`` could not work in ``path`` (its folders are closed to the child's user), or None."""
    if plan.uid is None or plan.gid is None:
        return None
    if reachable(os.path.dirname(path), plan.uid, (plan.gid, *plan.groups), bits=_X):
        return None
    return f"the sandbox user {plan.user_name} cannot reach {path}"


def give_to_sandbox(path: str | Path) -> None:
    """Make ``path`` (a folder children share) writable by the sandbox user, where children switch to it
    (a folder out of that user's reach stays this process's: a child handed it keeps this user, see :func:`plan`)."""
    user, _ = sandbox_user()
    if user is not None and reachable(os.path.dirname(os.path.abspath(path)), user.uid, user.gids, bits=_X):
        os.chown(path, user.uid, user.gid)


def shared_cache() -> Path | None:
    """A folder that outlives processes, where sandboxed children keep what they share (Triton's runtime
    helpers, load_inline's builds): this user's cache folder, or, where children switch user, one
    of the sandbox user's own (``$KERNELEVO_SANDBOX_CACHE_DIR``, else /var/cache/kernelevo-sandbox).
    None where that cannot be made: children then keep those in their own folders.
    """
    from kernelevo.utils.paths import cache_dir

    user, _ = sandbox_user()
    folder = cache_dir() if user is None else Path(os.environ.get(SANDBOX_CACHE_ENV) or _SYSTEM_CACHE)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)  # a folder a child is to write must exist
        if user is None:
            return folder
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode):
            raise NotADirectoryError(f"{folder} is not a folder")
        if st.st_uid != user.uid:  # made for another sandbox user: everything in it becomes this one's
            for root, dirs, files in os.walk(folder):
                for name in (*dirs, *files):
                    os.lchown(os.path.join(root, name), user.uid, user.gid)
            os.chown(folder, user.uid, user.gid)
        os.chmod(folder, 0o700)
    except OSError as exc:
        log.warning("no shared cache for sandboxed children (%s): each keeps its own", exc)
        return None
    return folder


_NAMES = {"user": "an unprivileged user", "network": "network isolation", "environment": "a clean environment",
          "filesystem": "confined writes", "no_new_privs": "no_new_privs", "seccomp": "the seccomp filter",
          "limits": "resource limits"}
_NOTED: set[str] = set()


def note(report: Report, who: str) -> None:
    """Warn, once per process, of each protection a child lacks (one this process, itself a contained
    child, lacks too was said by its own parent)."""
    own = child.report() if child.current() is not None else None
    for missing in report.missing():
        key = str(missing)
        if key in _NOTED or (own is not None and not own.get(missing.name).on):
            continue
        _NOTED.add(key)
        log.warning("sandboxed children (%s, first) run without %s: %s", who, _NAMES.get(missing.name, missing.name),
                    missing.how)


def noted(report: Report) -> None:
    """Take the protections ``report`` lacks as said: its caller says them, so no child of this process warns."""
    _NOTED.update(str(p) for p in report.missing())
