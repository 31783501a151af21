"""``kernelevo eval``: one spec and its kernels in one warm judge, or a KernelBench directory of them.

    kernelevo eval SPEC K1.py [K2.py ...]              one table; exit 1 if any kernel is rejected
    kernelevo eval SPEC K.py --keep-warm 10             the judge stays warm 10 minutes for the next command
    kernelevo eval --kernelbench PROBLEMS KERNELS       every generated kernel against its problem,
                                                        over every GPU (Ray), records in JSON lines
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kernelevo.cli.report import print_result, results_table
from kernelevo.evaluation import EvalOptions, EvalResult, Evaluator
from kernelevo.evaluation.judge.batch import (
    BatchSummary,
    RecordFile,
    batch_file_summary,
    judge_locally,
    read_work,
    record_for,
    summarize,
    write_summary,
)
from kernelevo.evaluation.judge.kernelbench import Item, pair
from kernelevo.evaluation.judge.warm import judge_all, judge_warm
from kernelevo.spec import Spec, SpecError

EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT = 0, 1, 2


def sized_for(options: EvalOptions, kernels: int) -> EvalOptions:
    """Options for judging ``kernels`` kernels: no more children and compiles ahead than there is work for.

    A single kernel is compiled by its own child: a precompiler would only start another
    torch process while the judge starts.
    """
    if kernels <= 1:
        return options.model_copy(update={"precompile": False, "spare_children": 1})
    return options.model_copy(update={"precompile_ahead": min(options.ahead(), kernels - 1),
                                      "spare_children": min(options.spares(gpu=True), kernels)})


def eval_kernels(spec: Spec, kernels: list[Path], options: EvalOptions, console: Console, *, as_json: bool,
                 keep_warm_minutes: float | None = None) -> int:
    """Judge ``kernels`` against ``spec`` in one warm judge (or the warm evaluator); the exit status."""
    sources = [k.read_text() for k in kernels]
    try:
        if keep_warm_minutes:
            with console.status(f"evaluating {len(kernels)} kernel(s) against {spec.name} on the warm evaluator ...",
                                spinner="dots"):
                results = judge_warm(spec, sources, sized_for(options, 1), idle_minutes=keep_warm_minutes)
        else:
            results = _judge_here(spec, sources, sized_for(options, len(kernels)), console)
    except SpecError as exc:
        Console(stderr=True).print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        return EXIT_BAD_INPUT
    if as_json:
        if len(kernels) == 1:
            print(results[0].model_dump_json(indent=2))
        else:
            print(json.dumps([{"kernel": str(k), "result": r.model_dump(mode="json")}
                              for k, r in zip(kernels, results, strict=True)], indent=2))
    elif len(kernels) == 1:
        print_result(console, results[0], spec_name=spec.name, kernel_name=kernels[0].name)
    else:
        console.print(results_table([(k.name, r) for k, r in zip(kernels, results, strict=True)],
                                    title=f"{len(kernels)} kernels against {spec.name}"))
    if any(r.error is not None and r.error.value == "spec_error" for r in results):
        return EXIT_BAD_INPUT
    return EXIT_OK if all(r.ok for r in results) else EXIT_REJECTED


def _judge_here(spec: Spec, sources: list[str], options: EvalOptions, console: Console) -> list[EvalResult]:
    evaluator = Evaluator(spec, options)
    try:
        with console.status(f"starting the judge for {spec.name} ...", spinner="dots"):
            evaluator.start()
        with console.status(f"evaluating {len(sources)} kernel(s) against {spec.name} ...", spinner="dots"):
            return judge_all(evaluator, sources)
    finally:
        evaluator.close()


def eval_kernelbench(problems_dir: Path, kernels_dir: Path, out: Path, options: EvalOptions, console: Console, *,
                     ray: bool, workers: int | None, level: int | None) -> int:
    """Judge KernelBench generations against their problems; records to ``out``, resumable; the exit status."""
    layout = pair(problems_dir, kernels_dir, level=level)
    for path in layout.unmatched:
        console.print(f"[yellow]no problem for[/] {path} (its level and problem id match no file under "
                      f"{problems_dir})", highlight=False)
    if not layout.items:
        Console(stderr=True).print(f"[bold red]error:[/] no kernel named level_L_problem_P_sample_S_kernel.py under "
                                   f"{kernels_dir} matches a problem level{{L}}/{{P}}_Name.py under {problems_dir}",
                                   highlight=False, soft_wrap=True)
        return EXIT_BAD_INPUT
    records = RecordFile(out)
    works = read_work(layout.items)
    problems = len(works)
    for work in works:  # what an interrupted batch judged already is not judged again
        work.items = [item for item in work.items if not records.done(item, work.spec)]
    works = [w for w in works if w.items]
    pending = sum(len(w.items) for w in works)
    if pending < len(layout.items):
        console.print(f"resuming: {len(layout.items) - pending} kernel(s) already judged in {out}")
    started = time.perf_counter()
    with _progress(console) as progress:
        task = progress.add_task("judging", total=pending)

        def on_result(item: Item, spec: Spec | None, result: EvalResult) -> None:
            records.append(record_for(item, spec, result))
            progress.advance(task)
            if not console.is_terminal:
                console.print(f"{item.key}: {result.headline()}", highlight=False, markup=False, soft_wrap=True)

        if ray:
            from kernelevo.distributed.batch import judge_on_ray

            asyncio.run(judge_on_ray(works, options, on_result, workers=workers))
        else:
            judge_locally(works, options, on_result)
    wall = time.perf_counter() - started
    keys = {item.key for item in layout.items}
    summary = summarize([r for k, r in records.records.items() if k in keys], wall_s=wall if pending else None,
                        judged=pending)
    write_summary(batch_file_summary(out), summary)
    console.print(summary_table(summary, title=f"{len(layout.items)} kernels, {problems} problems"))
    console.print(f"records: {out}\nsummary: {batch_file_summary(out)}", highlight=False)
    return EXIT_OK if summary.correct == summary.kernels else EXIT_REJECTED


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, disable=not console.is_terminal)


def summary_table(summary: BatchSummary, *, title: str) -> Table:
    table = Table(title=title, show_header=False)
    table.add_row("correct", f"{summary.correct} of {summary.kernels} ({summary.correct_rate:.1%})")
    if summary.interpreted:
        table.add_row("speedups", "none: judged in Triton's CPU interpreter (timings are not GPU speeds)")
    else:
        for name, value in (("geomean vs eager", summary.geomean_speedup_eager),
                            ("geomean vs torch.compile", summary.geomean_speedup_compile)):
            table.add_row(name, "-" if value is None else f"{value:.3f}x")
        for base, fast in (("eager", summary.fast_p_eager), ("torch.compile", summary.fast_p_compile)):
            table.add_row(f"fast_p vs {base}", ", ".join(f"p={p}: {v:.1%}" for p, v in fast.items()))
    if summary.rejected_by:
        table.add_row("rejected", ", ".join(f"{k} {n}" for k, n in summary.rejected_by.items()))
    if summary.kernels_per_min is not None and summary.wall_s is not None:
        table.add_row("rate", f"{summary.kernels_per_min:.1f} kernels/min ({summary.wall_s:.0f} s)")
    return table
