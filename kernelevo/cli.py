"""The ``kernelevo`` command line.

    kernelevo eval SPEC KERNEL [--json]   judge one kernel against a spec
    kernelevo spec SPEC [--json]          check a spec and describe its variants

Exit status: 0 for a correct kernel (or a valid spec), 1 for a rejected kernel, 2 for
bad input (a missing file, a broken spec).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from rich.console import Console

from kernelevo import __version__

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kernelevo", description="Faster GPU kernels by quality-diversity search.")
    parser.add_argument("--version", action="version", version=f"kernelevo {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log diagnostics to stderr")
    sub = parser.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("eval", help="judge one kernel against a spec")
    ev.add_argument("spec", help="the spec: a KernelBench-format Python file")
    ev.add_argument("kernel", help="the candidate: a Python file defining ModelNew")
    ev.add_argument("--json", action="store_true", help="print the full result as JSON")
    ev.add_argument("--device", default="auto", help="auto (default), cuda, cuda:N or cpu")
    ev.add_argument("--baselines", default=None, help="comma-separated: eager,compile (default: both on GPU)")
    ev.add_argument("--no-static-checks", action="store_true", help="skip the static checks (for debugging)")

    sp = sub.add_parser("spec", help="check a spec in an isolated child and describe its variants")
    sp.add_argument("spec")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--device", default="auto")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    console = Console(stderr=False)
    if args.command == "eval":
        return _eval(args, console)
    if args.command == "spec":
        return _spec(args, console)
    return EXIT_BAD_INPUT


def _fail(console: Console, message: str) -> int:
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False)
    return EXIT_BAD_INPUT


def _eval(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.evaluation import EvalOptions, evaluate
    from kernelevo.report import print_result
    from kernelevo.spec import SpecError, read_spec

    kernel = Path(args.kernel)
    if not kernel.is_file():
        return _fail(console, f"kernel file {args.kernel!r} not found")
    try:
        spec = read_spec(args.spec)
    except SpecError as exc:
        return _fail(console, str(exc))
    baselines = args.baselines.split(",") if args.baselines else None
    options = EvalOptions(device=args.device, baselines=baselines, static_checks=not args.no_static_checks)
    with console.status(f"evaluating {kernel.name} against {spec.name} ...", spinner="dots"):
        result = evaluate(spec, kernel.read_text(), options)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        print_result(console, result, spec_name=spec.name, kernel_name=kernel.name)
    if result.error is not None and result.error.value == "spec_error":
        return EXIT_BAD_INPUT
    return EXIT_OK if result.ok else EXIT_REJECTED


def _spec(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.report import print_spec_report
    from kernelevo.spec import SpecError, load_spec

    try:
        spec, report = load_spec(args.spec, device=args.device)
    except SpecError as exc:
        return _fail(console, str(exc))
    if args.json:
        print(json.dumps({"spec": spec.name, "sha256": spec.sha256, "report": report.model_dump()}, indent=2))
    else:
        print_spec_report(console, spec, report)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
