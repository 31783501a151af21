"""The evaluation reads on SQLite and on PostgreSQL: numbers in the run, the parts of a stored result read out of
its JSON by the database (baseline medians, library calls), filters, points, rejection counts, comparisons."""

from __future__ import annotations

from collections import Counter
from typing import Any

from varied_run import LIBRARY, varied_result, write_varied_run

from kernelevo.records.result import floor_name
from kernelevo.storage import evaluations as stored
from kernelevo.storage.compare import compare_kernels, compare_runs
from kernelevo.storage.evaluations import Filters
from kernelevo.storage.queries import archive, candidate_by_number
from kernelevo.storage.runs import get_run, run_info

SIZE = 60


def test_every_evaluation_reads_back_on_either_database(any_db: Any) -> None:
    written = write_varied_run(any_db, SIZE)
    other = write_varied_run(any_db, 30, shift=7, config={"budget": {"evaluations": 30}})
    run = written["run_id"]
    truth = [varied_result(k) for k in range(SIZE)]
    with any_db.session() as session:
        items, total = stored.evaluations(session, run)
        assert total == SIZE and [i.number for i in items] == list(range(1, SIZE + 1))
        assert [(i.correct, i.error) for i in items] == [(r.ok, r.error) for r in truth]
        assert all(i.eager_ms == 0.357 and i.compile_ms == 0.357 for i in items if i.correct)
        assert {i.candidate_number for i in items if i.library} == set(written["library"])
        first = items[written["library"][0]].library
        assert first is not None and first.gpu_share == 0.83 and first.ops() == "mm x2"
        assert first.calls[0].signature == LIBRARY["calls"][0]["signature"]  # type: ignore[index]
        # each fraction beside the floor it is of, as the recorder stored it
        assert [(i.roofline, i.roofline_floor) for i in items] == [
            (r.roofline.fraction, floor_name(r.roofline)) if r.roofline else (None, None) for r in truth]
        assert {i.roofline_floor for i in items} == {"read", "copy", None}
        elites = archive(session, run)
        assert elites and all(e.roofline_floor == floor_name(truth[e.candidate_number].roofline) for e in elites)
        assert run_info(session, get_run(session, run)).best_roofline_floor == "copy"  # the progress snapshot's

        page, total = stored.evaluations(session, run, Filters(correct=False), sort="-number", limit=3, offset=1)
        rejected = [k for k, r in enumerate(truth) if not r.ok]
        assert total == len(rejected) and [i.candidate_number for i in page] == rejected[::-1][1:4]
        assert stored.count(session, run, Filters(stage="static", error="syntax_error")) == sum(
            r.error == "syntax_error" for r in truth)
        assert stored.count(session, other["run_id"]) == 30  # each run's own

        points = stored.points(session, run, after=SIZE - 5)
        assert points.candidate_number == list(range(SIZE - 5, SIZE))
        reasons = stored.rejected_reasons(session, run)
        assert {(r.stage, r.reason): r.count for r in reasons} == dict(
            Counter((str(r.stage), str(r.error)) for r in truth if not r.ok))

        a, b = (candidate_by_number(session, run, n) for n in (2, 4))
        assert a is not None and b is not None
        kernels = compare_kernels(session, a, b)
        assert kernels.timings[0].speedup == truth[2].kernel.median_ms / truth[4].kernel.median_ms  # type: ignore[union-attr]
        assert [s.evaluations[0].roofline_floor for s in (kernels.a, kernels.b)] == ["read", "copy"]
        runs = compare_runs(session, get_run(session, run), get_run(session, other["run_id"]))
        assert [d.key for d in runs.config] == ["budget.evaluations"]
        assert runs.a.evaluations == SIZE and runs.b.evaluations == 30
        best = runs.a.best[0]
        assert best.roofline_floor == floor_name(truth[best.candidate_number].roofline) is not None
