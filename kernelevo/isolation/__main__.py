"""``python -m kernelevo.isolation FD PARENT_PID``: the first code a sandbox child runs.

The package's ``__main__``, a module of its own, so that :mod:`kernelevo.isolation.sandbox` is imported
under its real name in the child and the messages it defines pickle the same on both sides.
"""

import sys

from kernelevo.isolation.child import child_main

if __name__ == "__main__":
    child_main(int(sys.argv[1]), int(sys.argv[2]))
