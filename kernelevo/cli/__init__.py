"""The ``kernelevo`` command: its parser and entry point (:mod:`.main`), one module per group of
subcommands (:mod:`.run`, :mod:`.eval`, :mod:`.service`, :mod:`.pool`), the checks every argument
passes before anything is written (:mod:`.checks`) and the tables they print (:mod:`.report`)."""

from kernelevo.cli.main import main

__all__ = ["main"]
