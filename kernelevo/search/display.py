"""What a person sees of a running search: a live panel in a terminal, progress lines in a log."""

from __future__ import annotations

import logging
import time
from collections import deque

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table

from kernelevo.records.progress import Progress
from kernelevo.records.run_config import Budget
from kernelevo.search.progress import snapshot
from kernelevo.search.scheduler import Scheduler
from kernelevo.search.state import SearchState

log = logging.getLogger("kernelevo.progress")


def _best_line(progress: Progress) -> str:
    parts = []
    for hardware, best in progress.best.items():
        library = f"; library: {best.library}" if best.library else ""
        if best.interpreted:
            parts.append(f"{hardware}: #{best.candidate} (interpreted on the CPU: not a GPU speed){library}")
            continue
        eager = f"{best.speedup_eager:.2f}x eager" if best.speedup_eager else "-"
        comp = f"{best.speedup_compile:.2f}x torch.compile" if best.speedup_compile else "torch.compile: -"
        floor = f" ({best.roofline_floor})" if best.roofline_floor else ""
        roof = f", {best.roofline:.0%} of roofline{floor}" if best.roofline else ""
        parts.append(f"{hardware}: #{best.candidate} {eager}, {comp}{roof}{library}")
    return "; ".join(parts) or "no correct kernel yet"


def summary_rows(progress: Progress, budget: Budget | None = None) -> list[tuple[str, str]]:
    """The rows a person reads, from a progress snapshot (:func:`kernelevo.search.progress.snapshot`)."""
    n, correct = progress.evaluations, progress.correct
    coverage = ", ".join(f"{hw}: {c.filled}/{c.cells} cells" for hw, c in progress.coverage.items())
    limit = f" / {budget.evaluations}" if budget is not None and budget.evaluations else ""
    calls, tokens, dollars = progress.calls, progress.tokens, progress.dollars
    return [
        ("evaluations", f"{n}{limit}  ({progress.evaluations_per_min:.1f}/min this session)"),
        ("correct", f"{correct} ({correct / n:.0%})" if n else "0"),
        ("best", _best_line(progress)),
        ("archive", coverage or "empty"),
        ("LLM", f"{calls} calls, {tokens:,} tokens, ${dollars:.4f}" if calls else "none (template operator)"),
        ("time", f"{progress.elapsed_s / 60:.1f} min, evaluators busy {progress.busy:.0%}"),
    ]


def operator_table(state: SearchState) -> Table:
    table = Table(title="operators", expand=False)
    for column in ("operator", "tries", "into archive", "recent rate"):
        table.add_column(column)
    for name, stats in state.bandit.stats.items():
        table.add_row(name, str(stats.tries), str(stats.successes), f"{stats.recent_rate:.0%}")
    return table


def render(loop: Scheduler, recent: deque[str]) -> Group:
    stats = Table.grid(padding=(0, 2))
    stats.add_column(style="bold")
    stats.add_column()
    for key, value in summary_rows(snapshot(loop), loop.config.budget):
        stats.add_row(key, value)
    return Group(Panel(stats, title=f"kernelevo run: {loop.spec.name}"), operator_table(loop.state),
                 Panel("\n".join(recent) or "-", title="latest"))


class LiveDisplay:
    """A rich live panel, refreshed on every event."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.loop: Scheduler | None = None
        self.recent: deque[str] = deque(maxlen=6)
        self.live: Live | None = None

    def attach(self, loop: Scheduler) -> None:
        self.loop = loop
        self.live = Live(render(loop, self.recent), console=self.console, refresh_per_second=4, transient=False)
        self.live.start()

    def event(self, kind: str) -> None:
        if self.loop is None or self.live is None:
            return
        if kind == "evaluation":
            self.recent.append(_latest(self.loop.state))
        self.live.update(render(self.loop, self.recent))

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()


class LogDisplay:
    """Progress lines for logs (``ray job logs``, CI): one per evaluation, a summary every minute."""

    def __init__(self, every_s: float = 60.0) -> None:
        self.loop: Scheduler | None = None
        self.every_s = every_s
        self.last = time.monotonic()

    def attach(self, loop: Scheduler) -> None:
        self.loop = loop

    def event(self, kind: str) -> None:
        if self.loop is None or kind != "evaluation":
            return
        log.info(_latest(self.loop.state))
        if time.monotonic() - self.last >= self.every_s:
            self.last = time.monotonic()
            log.info(" | ".join(f"{k}: {v}" for k, v in summary_rows(snapshot(self.loop), self.loop.config.budget)))

    def close(self) -> None:
        if self.loop is not None:
            log.info(" | ".join(f"{k}: {v}" for k, v in summary_rows(snapshot(self.loop), self.loop.config.budget)))


def _latest(state: SearchState) -> str:
    e = state.last
    if e is None:
        return "-"
    cid = e.candidate_id
    candidate = state.candidates[cid]
    what = f"#{cid} {candidate.operator}" + (f" ({candidate.note})" if candidate.note else "")
    if not e.correct:
        return f"{what}: rejected, {e.result.error}"
    return f"{what}: {e.archive_status}, {e.result.headline()}"
