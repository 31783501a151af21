"""The ``kernelevo`` command line.

    kernelevo run SPEC [--model M] [--budget evals=200,minutes=30] [--out DIR] [--resume]
    kernelevo eval SPEC KERNEL [KERNEL ...] [--json]   judge kernels against a spec, in one warm judge
    kernelevo eval --kernelbench PROBLEMS KERNELS      judge KernelBench generations against their problems
    kernelevo spec SPEC [--json]          check a spec and describe its variants

Exit status: 0 for success (a finished run, a correct kernel, a valid spec), 1 for a
rejected kernel or a run that found no correct kernel, 2 for bad input (a missing file,
a broken spec, a configuration that cannot work).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from kernelevo import __version__

if TYPE_CHECKING:
    from kernelevo.search.config import RunConfig

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kernelevo", description="Faster GPU kernels by quality-diversity search.")
    parser.add_argument("--version", action="version", version=f"kernelevo {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log diagnostics to stderr")
    sub = parser.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("eval", help="judge kernels against a spec (or KernelBench generations)")
    ev.add_argument("spec", help="the spec: a KernelBench-format Python file (with --kernelbench: the problems "
                    "directory, holding level{L}/{P}_{Name}.py)")
    ev.add_argument("kernels", nargs="+", help="candidates: Python files defining ModelNew (with --kernelbench: "
                    "the directory of level_{L}_problem_{P}_sample_{S}_kernel.py files)")
    ev.add_argument("--json", action="store_true", help="print the full result(s) as JSON")
    ev.add_argument("--device", default="auto", help="auto (default), cuda, cuda:N or cpu")
    ev.add_argument("--baselines", default=None, help="comma-separated: eager,compile (default: both on GPU)")
    ev.add_argument("--rebaseline", action="store_true",
                    help="time the eager and torch.compile baselines again instead of reading them from the cache")
    ev.add_argument("--no-static-checks", action="store_true", help="skip the static checks (for debugging)")
    ev.add_argument("--keep-warm", type=float, default=None, metavar="MINUTES",
                    help="judge on a warm evaluator that outlives this command (started if there is none) and "
                         "exits after MINUTES without a request; it holds the judge's GPU memory meanwhile")
    kb = ev.add_argument_group("KernelBench layout")
    kb.add_argument("--kernelbench", action="store_true", help="pair problem files with generated kernels by level "
                    "and problem id, judge them all, write JSON lines and a summary; resumes")
    kb.add_argument("--out", default=None, help="the JSON-lines records (default: KERNELS/kernelevo-results.jsonl)")
    kb.add_argument("--level", type=int, default=None, help="only this KernelBench level")
    kb.add_argument("--no-ray", action="store_true", help="judge in this process instead of on Ray, one GPU")
    kb.add_argument("--workers", type=int, default=None, help="evaluator actors (default: one per GPU)")

    run = sub.add_parser("run", help="search for faster kernels for a spec")
    run.add_argument("spec", help="the spec: a KernelBench-format Python file with seed kernels")
    run.add_argument("--model", default=None, help="an LLM through litellm, e.g. openai/gpt-4o-mini "
                     "(default: none, the template operator only)")
    run.add_argument("--api-base", default=None, help="base URL of an OpenAI-compatible server")
    run.add_argument("--api-key-env", default=None, help="environment variable holding the API key")
    run.add_argument("--budget", default=None, help="evals=N,minutes=M,tokens=T,dollars=D (default evals=200)")
    run.add_argument("--out", default=None, help="run directory (default runs/<spec>)")
    run.add_argument("--resume", action="store_true", help="continue the run in --out")
    run.add_argument("--config", default=None, help="a TOML or JSON file with the run's settings")
    run.add_argument("--workers", type=int, default=None,
                     help="evaluator actors per target (default: one per GPU; 1 on a machine without GPUs)")
    run.add_argument("--targets", default=None, help="accelerator types to evaluate on, e.g. H100,H200 "
                     "(default: any GPU); each gets its own archive and baselines")
    run.add_argument("--no-ray", action="store_true", help="evaluate in this process instead of on Ray actors")
    run.add_argument("--in-flight", type=int, default=None, help="candidates being made or evaluated at once")
    run.add_argument("--descriptors", default=None, help="levels (default), metadata, or names: memory,warps")
    run.add_argument("--islands", type=int, default=None)
    run.add_argument("--seed", type=int, default=None)
    run.add_argument("--device", default=None, help="auto (default), cuda, cuda:N or cpu")
    run.add_argument("--export-to", default=None, help="also export the elites here (e.g. archives/)")
    run.add_argument("--plain", action="store_true", help="progress lines instead of the live display")

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
    if args.command == "run":
        return _run(args, console)
    if args.command == "eval":
        return _eval(args, console)
    if args.command == "spec":
        return _spec(args, console)
    return EXIT_BAD_INPUT


def _fail(console: Console, message: str) -> int:
    # soft_wrap: one line stays one line, however narrow the terminal (a log reader greps it)
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return EXIT_BAD_INPUT


def _eval(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.eval_cli import eval_kernelbench, eval_kernels
    from kernelevo.evaluation import EvalOptions
    from kernelevo.spec import SpecError, read_spec

    baselines = args.baselines.split(",") if args.baselines else None
    options = EvalOptions(device=args.device, baselines=baselines, static_checks=not args.no_static_checks,
                          rebaseline=args.rebaseline)
    if args.kernelbench:
        if len(args.kernels) != 1:
            return _fail(console, "--kernelbench takes two directories: PROBLEMS KERNELS")
        problems, kernels_dir = Path(args.spec), Path(args.kernels[0])
        for path in (problems, kernels_dir):
            if not path.is_dir():
                return _fail(console, f"--kernelbench: {str(path)!r} is not a directory")
        out = Path(args.out) if args.out else kernels_dir / "kernelevo-results.jsonl"
        return eval_kernelbench(problems, kernels_dir, out, options, console, ray=not args.no_ray,
                                workers=args.workers, level=args.level)
    kernels = [Path(k) for k in args.kernels]
    missing = [str(k) for k in kernels if not k.is_file()]
    if missing:
        return _fail(console, f"kernel file {missing[0]!r} not found")
    try:
        spec = read_spec(args.spec)
    except SpecError as exc:
        return _fail(console, str(exc))
    if args.keep_warm is not None and args.keep_warm <= 0:
        return _fail(console, f"--keep-warm takes minutes above 0, not {args.keep_warm:g}")
    return eval_kernels(spec, kernels, options, console, as_json=args.json, keep_warm_minutes=args.keep_warm)


def _run_config(args: argparse.Namespace) -> RunConfig:
    from kernelevo.search.config import Budget, RunConfig
    from kernelevo.variation.llm import LLMConfig

    config = RunConfig.load(args.config) if args.config else RunConfig()
    updates: dict[str, object] = {}
    if args.model:
        llm = {"model": args.model, "api_base": args.api_base, "api_key_env": args.api_key_env}
        updates["llm"] = LLMConfig(**{k: v for k, v in llm.items() if v is not None})
    if args.budget:
        updates["budget"] = Budget.parse(args.budget)
    for flag, field in (("workers", "workers"), ("in_flight", "in_flight"), ("descriptors", "descriptors"),
                        ("islands", "islands"), ("seed", "seed")):
        if getattr(args, flag) is not None:
            updates[field] = getattr(args, flag)
    if args.targets:
        updates["targets"] = [t.strip() for t in args.targets.split(",") if t.strip()]
    if args.no_ray:
        updates["ray"] = False
    if args.device:
        updates["evaluation"] = config.evaluation.model_copy(update={"device": args.device})
    return RunConfig.model_validate({**config.model_dump(), **{k: v.model_dump() if hasattr(v, "model_dump") else v
                                                                 for k, v in updates.items()}})


def _run(args: argparse.Namespace, console: Console) -> int:
    import asyncio

    from pydantic import ValidationError

    from kernelevo.search.display import LiveDisplay, LogDisplay, summary_rows
    from kernelevo.search.run import RunSetupError, run_search
    from kernelevo.search.store import RunMismatch
    from kernelevo.spec import SpecError, read_spec

    try:
        spec = read_spec(args.spec)
        config = _run_config(args)
    except (SpecError, ValueError, ValidationError, OSError) as exc:
        return _fail(console, str(exc).splitlines()[0] if isinstance(exc, ValidationError) else str(exc))
    out = args.out or f"runs/{spec.name}"
    interactive = console.is_terminal and not args.plain
    if not interactive:
        logging.getLogger("kernelevo").setLevel(logging.INFO)
    display: LiveDisplay | LogDisplay = LiveDisplay(console) if interactive else LogDisplay()
    try:
        outcome = asyncio.run(run_search(spec, config, out, resume=args.resume, on_start=display.attach,
                                         on_event=display.event, export_to=args.export_to))
    except (SpecError, RunSetupError, RunMismatch, FileExistsError) as exc:
        display.close()
        return _fail(console, str(exc))
    display.close()
    console.print(f"[bold]stopped:[/] {outcome.reason}")
    table = Table(title=f"kernelevo run {spec.name}: summary", show_header=False)
    for key, value in summary_rows(outcome.loop):
        table.add_row(key, value)
    console.print(table)
    for path in outcome.exported:
        console.print(f"wrote {path}")
    return EXIT_OK if outcome.state.correct_count() else EXIT_REJECTED


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
