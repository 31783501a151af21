"""The ``kernelevo`` command line.

    kernelevo run SPEC [--model M] [--budget evals=200,minutes=30]   a new run, in the database
    kernelevo run --resume RUN_ID [--budget ...]      continue a run
    kernelevo runs                                    the runs in the database
    kernelevo import PATH                             a run directory or exported archives, into the database
    kernelevo eval SPEC KERNEL [KERNEL ...] [--json]   judge kernels against a spec, in one warm judge
    kernelevo eval --kernelbench PROBLEMS KERNELS      judge KernelBench generations against their problems
    kernelevo spec SPEC [--json]          check a spec and describe its variants
    kernelevo serve [--host H --port P]   the REST API (OpenAPI at /docs); starts runs queued through it
    kernelevo token create NAME | list | revoke ID   API tokens
    kernelevo pool status [--json] | stop [--force]  the Ray cluster's shared evaluator pool

The database is a SQLite file in the user's data directory, ``--db PATH``, or
``KERNELEVO_DATABASE_URL`` (PostgreSQL for a cluster).

Exit status: 0 for success (a finished run, a correct kernel, a valid spec), 1 for a
rejected kernel or a run that found no correct kernel, 2 for bad input (a missing file,
a broken spec, a configuration that cannot work, a database that cannot be used), 3 for a
failure kernelevo did not expect (a bug, or its environment: Ray that would not start; the
traceback follows one line naming it), 130 for a command Ctrl-C ended (a run stopped at once
by a second Ctrl-C is left interrupted, to resume). Bad input is one line on stderr naming
the argument, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from pathlib import Path

from rich.console import Console

from kernelevo import __version__

LIBRARY_HELP = ("vendor-library families a kernel may hand to torch: default (the spec's setting, else gemm, conv, "
                "attention and rnn), pure (none), or a list such as gemm,conv")

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT, EXIT_UNEXPECTED = 0, 1, 2, 3


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
    ev.add_argument("--library", default=None, metavar="FAMILIES", help=LIBRARY_HELP)
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

    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=None, metavar="PATH",
                    help="a SQLite database file (default: KERNELEVO_DATABASE_URL, else the user's data directory)")

    run = sub.add_parser("run", parents=[db], help="search for faster kernels for a spec (or continue a run)")
    run.add_argument("spec", nargs="?", help="the spec: a KernelBench-format Python file with seed kernels")
    run.add_argument("--resume", type=int, default=None, metavar="RUN_ID",
                     help="continue this run (after Ctrl-C, a crash or a killed driver); flags given override "
                          "its settings, e.g. a larger --budget")
    run.add_argument("--model", action="append", default=None, metavar="MODEL[,KEY=VALUE...]",
                     help="an LLM through litellm, e.g. openai/gpt-4o-mini (default: none, the template operator "
                     "only). Give it several times for several models (a bandit picks one per call by improvements "
                     "per dollar); each may carry its own api_base=URL, api_key_env=VAR, price=IN/OUT (dollars per "
                     "million tokens), max_tokens=N, temperature=T, e.g. "
                     "--model openai/qwen2.5-coder,api_base=http://127.0.0.1:8000/v1,price=0/0")
    run.add_argument("--api-base", default=None, help="base URL of an OpenAI-compatible server (every model "
                     "that names none)")
    run.add_argument("--api-key-env", default=None, help="environment variable holding the API key")
    run.add_argument("--max-tokens", type=int, default=None, help="the longest reply (every model)")
    run.add_argument("--temperature", type=float, default=None, help="sampling temperature (every model)")
    run.add_argument("--offline-fallback", action="store_true",
                     help="if every model fails for good, go on with the template operator instead of stopping")
    run.add_argument("--budget", default=None, help="evals=N,minutes=M,tokens=T,dollars=D (default evals=200)")
    run.add_argument("--out", default=None, help="where the run's exports go (default runs/<spec>-<run id>)")
    run.add_argument("--config", default=None, help="a TOML or JSON file with the run's settings")
    run.add_argument("--workers", type=int, default=None,
                     help="evaluator actors per target (default: one per GPU; 1 on a machine without GPUs)")
    run.add_argument("--targets", default=None, help="accelerator types to evaluate on, e.g. H100,H200 "
                     "(default: any GPU); each gets its own archive and baselines")
    run.add_argument("--no-ray", action="store_true", help="evaluate in this process instead of on Ray actors")
    run.add_argument("--pool", choices=("per-run", "shared"), default=None,
                     help="per-run (default): this run's own evaluator actors; shared: the Ray cluster's one pool, "
                          "shared with every other run by weighted fair share (attach with RAY_ADDRESS)")
    run.add_argument("--weight", type=float, default=None,
                     help="the run's share of a shared pool, relative to the other runs' (default 1)")
    run.add_argument("--in-flight", type=int, default=None, help="candidates being made or evaluated at once")
    run.add_argument("--descriptors", default=None, help="levels (default), metadata, or names: memory,warps")
    run.add_argument("--islands", type=int, default=None,
                     help="islands of the search (default 1); on Ray each is an actor of its own (1 CPU), anywhere in "
                          "the cluster, with its own operators, LLM client and meta-prompts")
    run.add_argument("--island-in-driver", action=argparse.BooleanOptionalAction, default=None,
                     help="on Ray, island 0 in the driver's process rather than an actor (default: where this "
                          "host is the cluster and has no more cores than islands)")
    run.add_argument("--migration", choices=("ring", "random"), default=None,
                     help="where an island's best elite migrates: the next island (ring, default) or one at random")
    run.add_argument("--migrate-every", type=int, default=None, metavar="M",
                     help="evaluations between migrations of the islands' best elites (default 40)")
    run.add_argument("--seed", type=int, default=None)
    run.add_argument("--seed-from", choices=("auto", "compile", "spec"), default=None,
                     help="first kernels: auto (torch.compile's Triton when the spec has no seed; default), "
                          "compile (also beside the spec's seeds), spec (only the spec's)")
    run.add_argument("--device", default=None, help="auto (default), cuda, cuda:N or cpu")
    run.add_argument("--library", default=None, metavar="FAMILIES", help=LIBRARY_HELP)
    run.add_argument("--export-to", default=None, help="also export the elites here (e.g. archives/)")
    run.add_argument("--plain", action="store_true", help="progress lines instead of the live display")

    rs = sub.add_parser("runs", parents=[db], help="list the runs in the database")
    rs.add_argument("--status", default=None, help="only runs with this status (queued, running, finished, ...)")
    rs.add_argument("--stop-kind", default=None, metavar="KIND",
                    help="only runs that stopped this way (budget_time, exhausted, llm_failed, ctrl_c, ...)")
    rs.add_argument("--limit", type=int, default=50)
    rs.add_argument("--json", action="store_true", help="every field of each run, as JSON")

    im = sub.add_parser("import", parents=[db], help="import a run directory or exported archives (archives/)")
    im.add_argument("path", help="a run directory (run.json and its .jsonl files) or a folder of archive.json files")
    im.add_argument("--spec", action="append", default=None,
                    help="the spec file the imported run was made from (by default looked up by its hash in the "
                         "database and under examples/); may be given several times")

    sv = sub.add_parser("serve", parents=[db], help="serve the REST API (and start the runs queued through it)")
    sv.add_argument("--host", default=None, help="address to bind (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=int, default=None, help="port (default 8321)")
    sv.add_argument("--no-launch", action="store_true",
                    help="start no runs: runs submitted here wait for another server (or kernelevo run --resume)")
    sv.add_argument("--unsafe-local", action="store_true",
                    help="start even where sandboxed children cannot have every protection (another user, no "
                         "network, confined writes, seccomp): for a server only its own user reaches")

    tk = sub.add_parser("token", parents=[db], help="API tokens: create NAME, list, revoke ID")
    tk.add_argument("action", choices=["create", "list", "revoke"])
    tk.add_argument("name", nargs="?", help="create: the token's name; revoke: its id")

    pl = sub.add_parser("pool", help="the Ray cluster's shared evaluator pool: status, or stop it (frees its GPUs)")
    pl.add_argument("action", choices=["status", "stop"])
    pl.add_argument("--address", default=None, metavar="HOST:PORT",
                    help="the Ray cluster (default: RAY_ADDRESS; 'auto' finds one started on this machine)")
    pl.add_argument("--json", action="store_true", help="status: the snapshot as JSON (what GET /api/pool returns)")
    pl.add_argument("--force", action="store_true",
                    help="stop: even while runs use the pool (their waiting candidates get errors, and a run still "
                         "going starts a new pool at its next candidate)")

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
    from pydantic import ValidationError

    from kernelevo.cli.checks import validation_message
    from kernelevo.storage.database import DatabaseUnusable

    try:
        return _command(args, console)
    except DatabaseUnusable as exc:  # every command opens its database through cli.run.database
        return _fail(console, str(exc))
    except ValidationError as exc:  # settings from the environment (KERNELEVO_*), and anything else typed
        return _fail(console, validation_message(exc))
    except KeyboardInterrupt:  # Ctrl-C before anything was written (a run's own is handled by cli.run)
        Console(stderr=True).print(f"interrupted: kernelevo {args.command} stopped", highlight=False)
        return 130
    except Exception as exc:  # Python's own exit status for a traceback, 1, would read as "rejected"
        import traceback

        traceback.print_exc()
        Console(stderr=True).print(f"[bold red]error:[/] kernelevo {args.command} failed unexpectedly: "
                                   f"{type(exc).__name__}: {exc}", highlight=False, soft_wrap=True)
        return EXIT_UNEXPECTED


def _command(args: argparse.Namespace, console: Console) -> int:
    if args.command in ("serve", "token"):
        from kernelevo.cli import service as service_cli

        return {"serve": service_cli.serve, "token": service_cli.token}[args.command](args, console)
    if args.command in ("run", "runs", "import"):
        from kernelevo.cli import run as run_cli
        from kernelevo.cli import runs as runs_cli

        command = {"run": run_cli.run, "runs": runs_cli.runs, "import": runs_cli.import_}[args.command]
        return command(args, console)
    if args.command == "pool":
        from kernelevo.cli.pool import pool

        return pool(args, console)
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
    from kernelevo.cli.checks import device_problem
    from kernelevo.cli.evaluate import eval_kernelbench, eval_kernels
    from kernelevo.evaluation import EvalOptions
    from kernelevo.evaluation.common.library_policy import library_option
    from kernelevo.spec import SpecError, read_spec

    problem = device_problem(args.device, remote_gpus=bool(os.environ.get("RAY_ADDRESS")) and not args.no_ray)
    if problem:
        return _fail(console, problem)
    baselines = args.baselines.split(",") if args.baselines else None
    try:
        library = library_option(args.library) if args.library is not None else None
    except ValueError as exc:
        return _fail(console, str(exc))
    options = EvalOptions(device=args.device, baselines=baselines, static_checks=not args.no_static_checks,
                          rebaseline=args.rebaseline, library=library)
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


def _spec(args: argparse.Namespace, console: Console) -> int:
    from kernelevo.cli.checks import device_problem
    from kernelevo.cli.report import print_spec_report
    from kernelevo.spec import SpecError, load_spec

    problem = device_problem(args.device)
    if problem:
        return _fail(console, problem)
    try:
        spec, report = load_spec(args.spec, device=args.device)
    except SpecError as exc:
        return _fail(console, str(exc))
    if args.json:
        print(json.dumps({"spec": spec.name, "sha256": spec.sha256, "report": report.model_dump()}, indent=2))
    else:
        print_spec_report(console, spec, report)
    return EXIT_OK
