"""``kernelevo run``: a run in the database, started or resumed from a terminal (listing and importing runs:
:mod:`kernelevo.cli.runs`; both open the database through :func:`database`).

    kernelevo run SPEC [--budget ...] [--model ...]     a new run (its id is printed first)
    kernelevo run --resume RUN_ID [--budget ...]        continue a run: after Ctrl-C, a crash, a killed driver
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import logging
import os
import shlex
import socket
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from kernelevo.cli.checks import (
    RUN_FLAGS,
    check_out_dir,
    check_run_config,
    load_config_file,
    remote_gpus,
    validation_message,
)
from kernelevo.evaluation.common.library_policy import library_option
from kernelevo.records.run import RunStatus
from kernelevo.records.run_config import Budget, LLMConfig, RunConfig
from kernelevo.settings import Settings
from kernelevo.storage.database import Database, DatabaseMissing, DatabaseUnusable, open_database

if TYPE_CHECKING:
    from kernelevo.spec import Spec, SpecReport

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command Ctrl-C ended


def database(args: argparse.Namespace, *, write: bool = True, create: bool | None = None) -> Database:
    """The database the command works on: ``--db`` (a SQLite file), ``KERNELEVO_DATABASE_URL``, or the default.

    Every command opens it here. One that cannot be used raises :class:`DatabaseUnusable` naming how it was
    given (``--db PATH: ...``), before anything is written to it or beside it. ``write``: the command writes
    (a read-only database is refused). ``create``: a SQLite file that does not exist is made (by default when
    the command writes, or it is the default database; :class:`DatabaseMissing` otherwise: a mistyped
    ``--db`` is not made)."""
    flag = getattr(args, "db", None)
    settings = Settings()
    default = not flag and not settings.database_url
    try:
        return open_database(settings.resolved_database_url(flag), write=write, make_folder=default,
                             create=(write or default) if create is None else create)
    except DatabaseUnusable as exc:
        named = f"--db {flag}" if flag else (f"KERNELEVO_DATABASE_URL ({exc.where})" if settings.database_url
                                            else f"the database {exc.where}")
        raise type(exc)(named, exc.reason) from None


def fail(message: str) -> int:
    # soft_wrap: one line stays one line, however narrow the terminal (a log reader greps it)
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return EXIT_BAD_INPUT


MODEL_KEYS = {"api_base": "api_base", "base": "api_base", "api_key_env": "api_key_env", "key_env": "api_key_env",
              "max_tokens": "max_tokens", "temperature": "temperature", "price": "price"}


def parse_model(text: str) -> dict[str, Any]:
    """``provider/model[,key=value...]`` (the --model flag) as LLMConfig fields."""
    name, *options = [part.strip() for part in text.split(",")]
    if not name or "=" in name:
        raise ValueError(f"--model {text!r}: start with the model, e.g. openai/gpt-4o-mini")
    fields: dict[str, Any] = {"model": name}
    for option in options:
        key, _, value = option.partition("=")
        if key not in MODEL_KEYS or not value:
            raise ValueError(f"--model {text!r}: {option!r} is not one of api_base=URL, api_key_env=VAR, "
                             "price=IN/OUT, max_tokens=N, temperature=T")
        if MODEL_KEYS[key] == "price":
            prices = value.split("/")
            try:
                fields["input_usd_per_mtok"], fields["output_usd_per_mtok"] = (float(p) for p in (prices * 2)[:2])
            except ValueError:
                raise ValueError(f"--model {text!r}: price takes dollars per million tokens, IN/OUT "
                                 "(e.g. price=0.15/0.60)") from None
        else:
            fields[MODEL_KEYS[key]] = value
    return fields


def llm_models(args: argparse.Namespace, current: list[Any]) -> list[Any] | None:
    """The run's models after the command line: each flag overrides only what it names.

    ``--model`` (once or more) replaces the models, keeping a configured model's settings when
    it names the same model; ``--api-base``, ``--api-key-env``, ``--max-tokens`` and
    ``--temperature`` apply to every model (to those the config file gives, when no --model).
    None: the command line names nothing about models."""
    shared = {k: v for k, v in (("api_base", args.api_base), ("api_key_env", args.api_key_env),
                                ("max_tokens", args.max_tokens), ("temperature", args.temperature)) if v is not None}
    if not args.model and not shared:
        return None
    if args.model:
        kept = {m.model: m.model_dump() for m in current}
        named = [parse_model(t) for t in args.model]
        base = [{**kept.get(f["model"], {}), **f} for f in named]
        own = [set(f) for f in named]  # a model's own option (--model x,api_base=...) wins over the shared flag
    elif current:
        base, own = [m.model_dump() for m in current], [set() for _ in current]
    else:
        flags = ", ".join(f"--{k.replace('_', '-')}" for k in shared)
        raise ValueError(f"{flags} set(s) a model's options, but no model is given: add --model PROVIDER/MODEL")
    models = []
    for m, o in zip(base, own, strict=True):
        try:
            models.append(LLMConfig(**{**m, **{k: v for k, v in shared.items() if k not in o}}))
        except ValidationError as exc:
            raise ValueError(validation_message(exc, where=f"--model {m.get('model')}: ")) from None
    return models


def config_updates(args: argparse.Namespace, current: RunConfig | None = None) -> dict[str, Any]:
    """The run settings the command line names (only those: a resumed run keeps the rest)."""
    updates: dict[str, Any] = {}
    models = llm_models(args, (current or RunConfig()).llm_models())
    if models is not None:
        updates["models"], updates["llm"] = [m.model_dump() for m in models], None
    if args.offline_fallback:
        updates["offline_fallback"] = True
    if args.budget is not None:  # an empty --budget is a mistake, not the default
        updates["budget"] = Budget.parse(args.budget).model_dump()
    for flag in ("workers", "in_flight", "descriptors", "islands", "island_in_driver", "migration", "seed", "seed_from",
                 "pool", "weight"):
        if getattr(args, flag, None) is not None:
            updates[flag] = getattr(args, flag)
    if getattr(args, "migrate_every", None) is not None:
        updates["migration_every"] = args.migrate_every
    if args.targets:
        updates["targets"] = [t.strip() for t in args.targets.split(",") if t.strip()]
    if args.no_ray:
        updates["ray"] = False
    return updates


def _new_config(args: argparse.Namespace) -> RunConfig:
    config = load_config_file(args.config) if args.config else RunConfig()
    merged = {**config.model_dump(), **config_updates(args, config)}
    if args.device:
        merged["evaluation"] = {**merged["evaluation"], "device": args.device}
    if args.library is not None:
        merged["evaluation"] = {**merged["evaluation"], "library": library_option(args.library)}
    return _validated(merged)


def _validated(settings: dict[str, Any]) -> RunConfig:
    """The run's settings after the command line's flags; ValueError naming the flag (or field) and the problem."""
    try:
        config = RunConfig.model_validate(settings)
    except ValidationError as exc:
        raise ValueError(validation_message(exc, flags=RUN_FLAGS)) from None
    check_run_config(config)
    return config


def settings_lines(config: RunConfig) -> list[str]:
    """The effective settings, printed at the start (they are stored with the run)."""
    budget = ", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
                       for k, v in config.budget.model_dump().items() if v is not None) or "none"
    lines = [f"budget: {budget}"]
    for m in config.llm_models():
        where = f" at {m.api_base}" if m.api_base else ""
        key = f", key ${m.api_key_env}" if m.api_key_env else ""
        price = (f", ${m.input_usd_per_mtok or 0:g}/${m.output_usd_per_mtok or 0:g} per M tokens"
                 if m.input_usd_per_mtok is not None or m.output_usd_per_mtok is not None else "")
        lines.append(f"model: {m.model}{where} (max_tokens {m.max_tokens}, temperature {m.temperature:g}{key}{price})")
    library = config.evaluation.library
    lines.append("library: " + ("the spec's policy (default: gemm, conv, attention, rnn)" if library is None
                                else ", ".join(library) or "pure (no library calls)"))
    if config.ray and config.pool == "shared":
        lines.append(f"evaluators: the Ray cluster's shared pool, weight {config.weight:g}")
    if not config.llm_models():
        lines.append("model: none (the template operator only)")
    elif config.offline_fallback:
        lines.append("if every model fails: go on with the template operator")
    return lines


def _cuda_can_run(config: RunConfig) -> bool:
    """Whether a CUDA spec's kernels can run: a GPU here, or a Ray cluster's workers that may have one."""
    from kernelevo.evaluation.judge.capacity import uses_gpu

    if config.evaluation.device == "cpu":
        return False
    return uses_gpu(config.evaluation) or (config.ray and bool(os.environ.get("RAY_ADDRESS")))


def _command() -> str:
    """How the user invoked kernelevo (``.venv/bin/kernelevo`` from ``make demo``), to print commands they can
    paste."""
    invoked = sys.argv[0]
    return invoked if Path(invoked).name == "kernelevo" else "kernelevo"


def _db_flag(args: argparse.Namespace) -> str:
    return f" --db {shlex.quote(args.db)}" if getattr(args, "db", None) else ""


def run(args: argparse.Namespace, console: Console) -> int:
    """``kernelevo run``: every argument is checked -- the settings, the spec run in an isolated child, the
    models' test calls -- before the database is opened for writing and the run's row is made."""
    from kernelevo.spec import SpecError, read_spec
    from kernelevo.storage.runs import RunBusy, RunNotFound
    from kernelevo.variation.llm.models import PreflightError

    if (args.spec is None) == (args.resume is None):
        return fail("give a spec to start a run, or --resume RUN_ID to continue one (kernelevo runs lists them)")
    if args.spec is not None and not Path(args.spec).is_file():
        what = "is a directory: give the spec's Python file" if Path(args.spec).is_dir() else "was not found"
        return fail(f"spec {args.spec!r} {what} (a KernelBench-format Python file, e.g. examples/gelu/spec.py)")
    updates: dict[str, Any] = {}  # a resumed run's changed settings, stored once its driver holds the lease
    try:
        check_out_dir("--out", args.out)
        check_out_dir("--export-to", args.export_to)
        if args.resume is None:
            # a database there already is checked first (it may be another program's, or read-only); a new one
            # is made only once the run can start
            with contextlib.suppress(DatabaseMissing):
                database(args, create=False).dispose()
            config = _new_config(args)
            spec = read_spec(args.spec)
            if spec.settings.language == "cuda" and not _cuda_can_run(config):
                return fail(f"{spec.name} is a CUDA spec: its kernels need a GPU to run, and this run's evaluators "
                            f"have none. `{_command()} eval {args.spec} KERNEL.py` checks and compiles CUDA "
                            "kernels for sm_90 here; run the search on a GPU machine or a Ray cluster with GPUs")
            # The spec runs in an isolated child as the run's judge will run it (a get_inputs that raises, a
            # reference that is nondeterministic), while every model answers a test call.
            report = asyncio.run(_ready_to_start(config, spec))
            for found in report.precision if report is not None else []:
                if found.note:  # the tolerance would reject kernels as good as the reference: say so first
                    console.print(f"warning: {found.note}", style="yellow", highlight=False)
            from kernelevo.driver import new_run  # (seconds of imports: after the quick checks)

            db = database(args)  # only now: a run that cannot start leaves no database behind
            run_id = new_run(db, spec, config, owner=f"{getpass.getuser()}@{socket.gethostname()}", out=args.out)
        else:
            db = database(args)
            current = _stored(db, args.resume)
            updates = config_updates(args, current)
            if args.device:
                updates["evaluation"] = {**current.evaluation.model_dump(), "device": args.device}
            if args.library is not None:
                updates["evaluation"] = {**updates.get("evaluation", current.evaluation.model_dump()),
                                         "library": library_option(args.library)}
            config = _validated({**current.model_dump(), **updates})
            asyncio.run(_ready_to_start(config, None))
            run_id = args.resume
    except PreflightError as exc:
        return fail(str(exc))
    except (SpecError, ValueError, OSError, RunNotFound, RunBusy) as exc:
        return fail(str(exc))
    from kernelevo.driver import RunSetupError, run_search
    from kernelevo.search.display import LiveDisplay, LogDisplay, summary_rows

    for line in settings_lines(config):
        console.print(line, highlight=False, soft_wrap=True)
    console.print(f"run {run_id} in {db.describe()}", highlight=False)
    interactive = console.is_terminal and not args.plain
    if not interactive:
        logging.getLogger("kernelevo").setLevel(logging.INFO)
    display: LiveDisplay | LogDisplay = LiveDisplay(console) if interactive else LogDisplay()
    try:
        outcome = asyncio.run(run_search(db, run_id, on_start=display.attach, on_event=display.event,
                                         export_to=args.export_to, config_updates=updates))
    except (SpecError, RunSetupError, RunBusy) as exc:
        display.close()
        return fail(str(exc))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C twice (or once, while it started)
        display.close()
        return _interrupted(args, db, run_id)
    display.close()
    console.print(f"[bold]stopped:[/] {outcome.reason}")
    table = Table(title=f"kernelevo run {run_id}: {outcome.loop.spec.name}", show_header=False)
    for key, value in summary_rows(outcome.progress, outcome.loop.config.budget):
        table.add_row(key, value)
    console.print(table)
    if outcome.loop.llm is not None:
        console.print(model_table(outcome.loop.llm.table()))
    for path in outcome.exported:
        console.print(f"wrote {path}")
    console.print(f"continue it with: {_command()} run{_db_flag(args)} --resume {run_id}", highlight=False)
    settings = Settings()
    console.print(f"browse it:        {_command()} serve{_db_flag(args)}, then open "
                  f"http://{settings.api_host}:{settings.api_port}/#/runs/{run_id}", highlight=False)
    if outcome.status == RunStatus.FAILED:
        return EXIT_REJECTED
    return EXIT_OK if outcome.state.correct_count() else EXIT_REJECTED


async def _ready_to_start(config: RunConfig, spec: Spec | None) -> SpecReport | None:
    """Check ``spec`` in an isolated child (a new run's; a resumed run's spec was checked when it started) while
    every model answers a test call; the spec's problem first (SpecError), else the models' (PreflightError).
    Returns the spec's report (None on a resume)."""
    from kernelevo.spec import check_spec
    from kernelevo.variation.llm.models import preflight

    checks: list[Awaitable[object]] = [preflight(config.llm_models())]
    if spec is not None:  # on this machine: on a Ray cluster's GPUs it is checked again as its judges start
        device = "cpu" if remote_gpus(config) else config.evaluation.device
        checks.insert(0, asyncio.to_thread(check_spec, spec, device="cuda" if device.startswith("cuda") else device))
    outcomes = await asyncio.gather(*checks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    return cast("SpecReport", outcomes[0]) if spec is not None else None


def _stored(db: Database, run_id: int) -> RunConfig:
    """A run's stored settings (RunNotFound; RunBusy while another driver drives it, before the models' test
    calls; ValueError if they no longer validate)."""
    from kernelevo.storage.runs import check_not_driven, get_run

    with db.session() as session:
        row = get_run(session, run_id)
        check_not_driven(row)
        settings = row.config
    try:
        return RunConfig.model_validate(settings)
    except ValidationError as exc:
        raise ValueError(validation_message(exc, where=f"run {run_id}'s stored settings: ")) from None


def _interrupted(args: argparse.Namespace, db: Database, run_id: int) -> int:
    """One line for a run stopped at once: what it kept and how to go on."""
    from kernelevo.storage.runs import get_run, status_of

    with db.session() as session:
        row = get_run(session, run_id)
        status, evaluations = status_of(row).value, row.evaluations
    Console(stderr=True).print(f"stopped at once: run {run_id} is {status}, with its {evaluations} finished "
                               f"evaluations kept; continue it with: {_command()} run{_db_flag(args)} --resume "
                               f"{run_id}", highlight=False, soft_wrap=True)
    return EXIT_INTERRUPTED


def model_table(rows: list[dict[str, Any]]) -> Table:
    """Per model: calls, tokens, dollars, kernels and improvements (the bandit's record)."""
    table = Table(title="models")
    for column in ("model", "calls", "failed", "tokens", "dollars", "kernels", "improvements", "status"):
        table.add_column(column, justify="left" if column in ("model", "status") else "right",
                         no_wrap=column == "status", overflow="fold" if column == "model" else "ellipsis")
    for row in rows:
        dollars = f"{row['cost_usd']:.4f}" if row["cost_known"] else "unknown"
        # the kind only: the whole reason is in the log and the stop line
        status = f"dropped: {str(row['disabled']).split(':')[0]}" if row["disabled"] else "in use"
        table.add_row(str(row["model"]), str(row["calls"]), str(row["failed"]), f"{row['tokens']:,}", dollars,
                      str(row["kernels"]), str(row["improvements"]), status)
    return table
