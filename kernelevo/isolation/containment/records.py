"""What a parent asks of a child's containment (:class:`Plan`), and what the child has (:class:`Report`)."""

from __future__ import annotations

from dataclasses import dataclass

# Every protection a child of kernelevo's sandbox should have, in the order they are reported.
PROTECTIONS = ("user", "network", "environment", "filesystem", "no_new_privs", "seccomp", "limits")


@dataclass(frozen=True)
class Protection:
    """One protection of a child: in force or not, and how (or why not), in a few words."""

    name: str  # one of PROTECTIONS
    on: bool
    how: str

    def __str__(self) -> str:
        return f"{self.name}: {self.how}"


@dataclass(frozen=True)
class Report:
    """The protections a child has, read in the child itself after its containment."""

    protections: tuple[Protection, ...]

    def missing(self) -> tuple[Protection, ...]:
        return tuple(p for p in self.protections if not p.on)

    def get(self, name: str) -> Protection:
        return next(p for p in self.protections if p.name == name)

    def __str__(self) -> str:
        return "; ".join(f"{p.name} {'on' if p.on else 'OFF'} ({p.how})" for p in self.protections)


@dataclass(frozen=True)
class Plan:
    """What the parent asks of one child's containment (built by :func:`kernelevo.isolation.containment.plan`).

    ``uid`` set: the child switches to that user (``gid``, supplementary ``groups``). Unset: it
    keeps its user, and ``user`` says what that means (the parent's own protection when the parent
    is itself a contained child; else off, with why).
    """

    uid: int | None = None
    gid: int | None = None
    groups: tuple[int, ...] = ()  # the groups owning the GPU's device files, where the user needs them
    user_name: str = ""
    user: Protection | None = None  # the user protection when no switch is asked for
    writable: tuple[str, ...] = ()  # folders the child may write beneath, besides its scratch folder
    confine_writes: bool = True  # False: a fork server, whose forked children confine themselves
    starts_children: bool = False  # True: it starts GPU children, who write their own /proc entries
