"""``python -m kernelevo.cli``: the ``kernelevo`` command."""

import sys

from kernelevo.cli.main import main

sys.exit(main())
