"""Containment of every child that runs a spec's or a kernel's code.

Spec checks, seeding captures, judges (which run a spec's reference), candidate children,
precompilers and ahead-of-time compilers all start through :class:`kernelevo.isolation.sandbox.Sandbox`
or the fork server (:mod:`kernelevo.isolation.zygote`), and each is contained here, in the child, before
it imports anything untrusted: an unprivileged user, no network, an environment without a
secret, writes only to its own scratch folder (and the shared caches it is handed), no_new_privs,
a seccomp filter, and resource limits (:mod:`kernelevo.isolation.containment.child`). The parent chooses
the user and the folders (:mod:`kernelevo.isolation.containment.parent`); each child reads back what it
got from the kernel and sends it with its "ready" (:class:`Report`); what this system does not
allow is said once, and ``kernelevo serve`` refuses to start without it
(:func:`kernelevo.isolation.probe.probe`).
"""

from kernelevo.isolation.containment.child import confine_candidate, enter, enter_forked, report
from kernelevo.isolation.containment.environment import child_environment, is_secret
from kernelevo.isolation.containment.parent import (
    give_to,
    give_to_sandbox,
    note,
    noted,
    plan,
    sandbox_user,
    shared_cache,
    unreachable,
)
from kernelevo.isolation.containment.records import PROTECTIONS, Plan, Protection, Report

__all__ = ["PROTECTIONS", "Plan", "Protection", "Report", "child_environment", "confine_candidate", "enter",
           "enter_forked", "give_to", "give_to_sandbox", "is_secret", "note", "noted", "plan", "report",
           "sandbox_user", "shared_cache", "unreachable"]
