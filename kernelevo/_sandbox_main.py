"""``python -m kernelevo._sandbox_main FD PARENT_PID``: the first code a sandbox child runs.

A module of its own, so that :mod:`kernelevo.sandbox` is imported under its real name in
the child and the messages it defines pickle the same on both sides.
"""

import sys

from kernelevo.sandbox_child import child_main

if __name__ == "__main__":
    child_main(int(sys.argv[1]), int(sys.argv[2]))
