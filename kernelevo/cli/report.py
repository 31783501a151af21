"""What a person watching a terminal sees: an evaluation's verdict, a spec's variants."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kernelevo.records.result import CudaBuild, ErrorKind, EvalResult, Timing, floor_name
from kernelevo.spec.probe import SpecReport
from kernelevo.spec.spec import Spec


def _ms(t: Timing | None) -> str:
    return "-" if t is None else f"{t.median_ms:.4g}"


def verdict_line(result: EvalResult) -> Text:
    if result.ok:
        text = Text("CORRECT", style="bold green")
        if result.interpreted:
            text.append("  (Triton interpreter on CPU: timings are not GPU speeds)", style="yellow")
        return text
    if result.error == ErrorKind.NEEDS_GPU:  # not the kernel's fault: compiled, not run
        return Text("COMPILED, NOT RUN", style="bold yellow") + Text("  CUDA kernels need a GPU", style="yellow")
    text = Text("REJECTED", style="bold red")
    text.append(f"  {result.error} at the {result.stage} stage", style="red")
    return text


def print_result(console: Console, result: EvalResult, *, spec_name: str, kernel_name: str) -> None:
    """The verdict first, then why (a rejection) or how fast (a correct kernel)."""
    console.print(Text(f"{kernel_name} against {spec_name}: ", style="bold") + verdict_line(result))
    for widened in result.tolerances:
        console.print(f"tolerance: {widened.summary()}", highlight=False)
    if not result.ok:
        console.print(result.message, highlight=False, markup=False, soft_wrap=True)
    else:
        console.print(f"checked variants: {', '.join(result.variants_checked)}; timed: {result.timed_variant}")
        console.print(_timings(result))
        if result.roofline and result.roofline.fraction is not None:
            r = result.roofline
            console.print(f"roofline: {r.floor_kind()} floor {r.floor_ms:.4g} ms ({r.terms()}), "
                          f"reached {r.fraction:.0%}", highlight=False)
        if result.kernel is not None and result.kernel.host_launch_ms is not None:
            console.print(f"host launch: {result.kernel.host_launch_ms * 1e3:.1f} us per call (the GPU was kept "
                          "busy meanwhile: it is not in the times above)", highlight=False)
        if result.compile_baseline_error:
            console.print(f"torch.compile baseline failed: {result.compile_baseline_error}", style="yellow")
    if result.library is not None and result.library.calls:
        console.print(library_line(result), highlight=False)
    if result.kernels:
        console.print(_kernels(result))
    for build in result.cuda:
        console.print(_build_line(build), style="dim", highlight=False)
    if result.memory is not None:
        console.print(memory_line(result), style="dim", highlight=False)
    _print_output(console, result)
    console.print(_costs(result), style="dim")


OUTPUT_LINES = 20  # of what the candidate's children printed, the lines a terminal shows (the result keeps 4 KiB)


def _print_output(console: Console, result: EvalResult) -> None:
    """The end of what the candidate printed, in its judge's child and in its CPU compile, if anything."""
    precompiled = result.precompiled.output if result.precompiled else ""
    for where, printed in (("while judged", result.output), ("while compiled ahead", precompiled)):
        lines = printed.rstrip("\n").splitlines()
        if not lines:
            continue
        shown = lines[-OUTPUT_LINES:]
        more = f", its last {len(shown)} of {len(lines)} lines" if len(shown) < len(lines) else ""
        console.print(f"the candidate printed {where}{more}:", style="bold")
        console.print("\n".join(shown), style="dim", highlight=False, markup=False, soft_wrap=True)


def _build_line(build: CudaBuild) -> str:
    how = "cached" if build.cached else (f"{build.compile_s:.1f} s" if build.compile_s is not None else "")
    kept = [name for name, text in (("PTX", build.ptx), ("SASS", build.sass)) if text]
    return (f"{build.form} {build.name} for {build.arch} by {build.compiler}" + (f", {how}" if how else "")
            + (f"; {' and '.join(kept)} kept (--json shows them)" if kept else "")
            + (f"; {build.error.splitlines()[0]}" if build.error else ""))


def library_line(result: EvalResult) -> str:
    """The library calls a forward made through torch, and their share of its GPU time."""
    use = result.library
    if use is None or not use.calls:
        return "library calls: none"
    calls = "; ".join(c.signature + (f" x{c.count}" if c.count > 1 else "") for c in use.calls)
    share = (f" ({use.library_ms:.4g} ms, {use.gpu_share:.0%} of the GPU time)"
             if use.gpu_share is not None and use.library_ms is not None else "")
    return f"library calls{share}: {calls}"


def library_share(result: EvalResult) -> str:
    """The results table's column: the library's share of the GPU time, "-" with no library call."""
    use = result.library
    if use is None or not use.calls:
        return "-"
    return f"{use.gpu_share:.0%}" if use.gpu_share is not None else "yes"


def memory_line(result: EvalResult) -> str:
    m = result.memory
    assert m is not None

    def gib(n: int | None) -> str:
        return "-" if n is None else f"{n / 2**30:.2f}"

    return (f"GPU memory (GiB): live data {gib(m.live_data_bytes)}; peak judge {gib(m.judge_peak_bytes)}, "
            f"child {gib(m.child_peak_bytes)} (limit {gib(m.child_limit_bytes)} of {gib(m.device_bytes)})")


def _timings(result: EvalResult) -> Table:
    table = Table(title="timings (median of repeated calls, L2 flushed)" if not result.interpreted else "timings")
    for column in ("", "median ms", "IQR ms", "reps", "speedup"):
        table.add_column(column, justify="right" if column else "left")
    rows = [
        ("kernel", result.kernel, None),
        ("eager", result.eager, result.speedup_eager),
        ("torch.compile", result.compiled, result.speedup_compile),
    ]
    for name, timing, speedup in rows:
        if timing is None:
            continue
        label = name + (" (interpreted)" if timing.interpreted else "")
        table.add_row(label, _ms(timing), f"{timing.iqr_ms:.3g}", str(timing.repetitions),
                      "-" if speedup is None else f"{speedup:.2f}x")
    return table


def _kernels(result: EvalResult) -> Table:
    table = Table(title="compiled kernels")
    for column in ("kernel", "launches", "registers", "spills", "shared bytes", "warps", "stages", "from"):
        table.add_column(column)
    for k in result.kernels:
        cells = [k.launches, k.registers, k.spills, k.shared_bytes, k.num_warps, k.num_stages]
        table.add_row(k.name, *("-" if c is None else str(c) for c in cells), k.source if not k.error else "error")
    return table


def _costs(result: EvalResult) -> str:
    c = result.costs
    start = ""
    if c.judge_start_s:
        baselines = "cached" if result.baselines_cached else f"{c.baselines_s:.2f}"
        start = f"judge start {c.judge_start_s:.2f} s and baselines {baselines}, then "
    return (f"evaluation cost: {start}{c.total_s:.2f} s (child start {c.child_start_s:.2f}, static {c.static_s:.3f}, "
            f"compile {c.compile_s:.2f}, correctness {c.correctness_s:.2f}, timing {c.timing_s:.2f})")


def results_table(rows: list[tuple[str, EvalResult]], *, title: str) -> Table:
    """One row per kernel: verdict, reason, time and speedups."""
    interpreted = any(r.interpreted for _, r in rows)
    table = Table(title=title, caption="interpreted on the CPU: times are not GPU speeds" if interpreted else None)
    for column in ("kernel", "verdict", "median ms", "vs eager", "vs compile", "roofline", "library"):
        left = column in ("kernel", "verdict")
        table.add_column(column, justify="left" if left else "right", overflow="fold" if left else "ellipsis",
                         no_wrap=column == "verdict")  # a reason is one word a reader greps for
    for name, r in rows:
        verdict = Text("correct", style="green") if r.ok else Text(str(r.error), style="red")
        speed = [r.speedup_eager, r.speedup_compile]
        table.add_row(name, verdict, _ms(r.kernel) if r.ok else "-",
                      *("-" if x is None else f"{x:.2f}x" for x in speed), roofline_cell(r), library_share(r))
    return table


def roofline_cell(result: EvalResult) -> str:
    """The fraction of the roofline reached and which floor applies, e.g. ``"98% (read)"``; "-" when unknown."""
    r = result.roofline
    return roofline_text(r.fraction if r else None, floor_name(r))


def roofline_text(fraction: float | None, floor: str | None) -> str:
    """A roofline fraction and the floor it is of, e.g. ``"98% (read)"``: the fraction alone where the floor is
    unknown (a run stored before floors were), "-" without a fraction."""
    if fraction is None:
        return "-"
    return f"{fraction:.0%} ({floor})" if floor else f"{fraction:.0%}"


def print_spec_report(console: Console, spec: Spec, report: SpecReport) -> None:
    heading = Text(f"spec {spec.name} ", style="bold") + Text(f"sha256 {spec.short_hash}  checked on {report.device}")
    console.print(heading)
    table = Table()
    for column in ("variant", "inputs", "outputs", "min bytes", "FLOPs"):
        table.add_column(column)
    for v in report.variants:
        table.add_row(
            v.name,
            ", ".join(f"{t.dtype}{t.shape}" for t in v.inputs),
            ", ".join(f"{t.dtype}{t.shape}" for t in v.outputs),
            f"{v.min_bytes:,}",
            f"{v.flops:,}",
        )
    console.print(table)
    for p in report.precision:
        measured = (f"{p.worst_ratio:.3g}x the tolerance at worst" if p.worst_ratio is not None else "not measured")
        if p.tf32_ratio is not None:
            measured += f", {p.tf32_ratio:.3g}x with its {p.in_tf32()} in TF32"
        console.print(f"reference vs float64, variant {p.variant}: {measured} (atol {p.atol:g}, rtol {p.rtol:g}"
                      + (", the spec's" if p.tolerance_set else ", the default") + ")")
        if p.note:
            console.print(Text("warning: " + p.note, style="yellow"))
