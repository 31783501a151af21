"""Isolation: the child processes that run a spec's or a kernel's code, and what contains them.

The parent's side (:mod:`~kernelevo.isolation.sandbox`, the fork server :mod:`~kernelevo.isolation.zygote`)
runs in whichever process starts children; the child's side (``python -m kernelevo.isolation``,
:mod:`~kernelevo.isolation.child`, :mod:`~kernelevo.isolation.containment`) runs in each child before
its handler imports anything untrusted. Nothing here imports the rest of the package but its utilities.
"""
