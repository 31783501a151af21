"""What a person sees of a running search: a live panel in a terminal, progress lines in a log."""

from __future__ import annotations

import logging
import time
from collections import deque

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table

from kernelevo.search.loop import SearchLoop
from kernelevo.search.state import SearchState

log = logging.getLogger("kernelevo.progress")


def _best_line(state: SearchState) -> str:
    parts = []
    for hardware in state.hardware_types():
        best = state.best(hardware)
        if best is None:
            continue
        candidate = best[1]
        result = state.result_of(candidate.id, hardware)
        if result is None:
            continue
        if result.interpreted:
            ratio = result.kernel.median_ms / result.eager.median_ms if result.kernel and result.eager else 0
            parts.append(f"{hardware}: #{candidate.id} (interpreted: {ratio:.0f}x the CPU eager time; not a GPU speed)")
        else:
            eager = f"{result.speedup_eager:.2f}x eager" if result.speedup_eager else "-"
            comp = f"{result.speedup_compile:.2f}x torch.compile" if result.speedup_compile else "torch.compile: -"
            fraction = result.roofline.fraction if result.roofline else None
            roof = f", {fraction:.0%} of roofline" if fraction else ""
            parts.append(f"{hardware}: #{candidate.id} {eager}, {comp}{roof}")
    return "; ".join(parts) or "no correct kernel yet"


def summary_rows(loop: SearchLoop) -> list[tuple[str, str]]:
    state, budget = loop.state, loop.config.budget
    n, correct = state.evaluated_count(), state.correct_count()
    elapsed = loop.elapsed_s()
    rate = n / elapsed * 60 if elapsed > 0 else 0.0
    busy = loop.busy_fraction()
    coverage = ", ".join(f"{hw}: {sum(len(a) for (_, h), a in state.archives.items() if h == hw)}/"
                         f"{next(a for (_, h), a in state.archives.items() if h == hw).cells} cells"
                         for hw in state.hardware_types()) or "empty"
    usage = state.usage
    cost = f"${usage.cost_usd:.4f}" + ("" if usage.cost_known else " (some prices unknown, counted as 0)")
    return [
        ("evaluations", f"{n}" + (f" / {budget.evaluations}" if budget.evaluations else "") + f"  ({rate:.1f}/min)"),
        ("correct", f"{correct} ({correct / n:.0%})" if n else "0"),
        ("best", _best_line(state)),
        ("archive", coverage),
        ("LLM", f"{usage.calls} calls, {usage.tokens:,} tokens, {cost}" if usage.calls else "none (template operator)"),
        ("time", f"{elapsed / 60:.1f} min, evaluators busy {busy:.0%}"),
    ]


def operator_table(state: SearchState) -> Table:
    table = Table(title="operators", expand=False)
    for column in ("operator", "tries", "into archive", "recent rate"):
        table.add_column(column)
    for name, stats in state.bandit.stats.items():
        table.add_row(name, str(stats.tries), str(stats.successes), f"{stats.recent_rate:.0%}")
    return table


def render(loop: SearchLoop, recent: deque[str]) -> Group:
    stats = Table.grid(padding=(0, 2))
    stats.add_column(style="bold")
    stats.add_column()
    for key, value in summary_rows(loop):
        stats.add_row(key, value)
    return Group(Panel(stats, title=f"kernelevo run: {loop.spec.name}"), operator_table(loop.state),
                 Panel("\n".join(recent) or "-", title="latest"))


class LiveDisplay:
    """A rich live panel, refreshed on every event."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.loop: SearchLoop | None = None
        self.recent: deque[str] = deque(maxlen=6)
        self.live: Live | None = None

    def attach(self, loop: SearchLoop) -> None:
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
        self.loop: SearchLoop | None = None
        self.every_s = every_s
        self.last = time.monotonic()

    def attach(self, loop: SearchLoop) -> None:
        self.loop = loop

    def event(self, kind: str) -> None:
        if self.loop is None or kind != "evaluation":
            return
        log.info(_latest(self.loop.state))
        if time.monotonic() - self.last >= self.every_s:
            self.last = time.monotonic()
            log.info(" | ".join(f"{k}: {v}" for k, v in summary_rows(self.loop)))

    def close(self) -> None:
        if self.loop is not None:
            log.info(" | ".join(f"{k}: {v}" for k, v in summary_rows(self.loop)))


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
