// A run: live progress from its event stream, a scatter of every evaluation, its archive as heatmaps,
// what each operator and meta-prompt produced. Every number comes from the REST API.

import { CPU_NOTE, api, badge, el, errorBox, fill, num, pct, roof, speed } from "./util.js";
import { runActions } from "./actions.js";
import { lineChart } from "./chart.js";
import { heatmap } from "./heatmap.js";
import { follow } from "./live.js";
import { scatter } from "./scatter.js";

const ARCHIVE_EVERY_MS = 1000;  // a busy run refreshes its archive at most this often
const POINTS_EVERY_MS = 3000;  // and its scatter (only the evaluations after the last it has)
const STATS_EVERY_MS = 5000;
const MAX_POINTS = 1200;

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function coverage(summary) {
  const parts = Object.values(summary.coverage || {});
  const filled = parts.reduce((s, c) => s + c.filled, 0), cells = parts.reduce((s, c) => s + c.cells, 0);
  return cells ? filled / cells : null;
}

const cpu = () => el("span", { class: "cpu", title: CPU_NOTE }, "CPU run");
// The one correct rate the run page shows (tile and operators): correct evaluations over evaluations. A
// candidate still waiting for its evaluation when the run stopped is neither.
const correctRate = (correct, evaluations) => (evaluations ? correct / evaluations : null);
const gpu = (format) => (s, key) => (s.interpreted ? cpu() : format(s[key], s));

const TILES = [
  ["evaluations", "Evaluations", (s) => num(s.evaluations)],
  ["correct", "Correct", (s) => `${pct(correctRate(s.correct, s.evaluations))} (${num(s.correct)})`],
  ["best_speedup_eager", "Best vs eager", gpu(speed)],
  ["best_speedup_compile", "Best vs torch.compile", gpu(speed)],
  ["best_roofline", "Roofline fraction", gpu((x, s) => roof(x, s.best_roofline_floor))],
  ["coverage", "Archive coverage", (s) => pct(coverage(s))],
  ["evaluations_per_min", "Evaluations / min", (s) => (s.evaluations_per_min ?? null) === null ? "–"
    : s.evaluations_per_min.toFixed(1)],
  ["busy", "Evaluators busy", (s) => (s.busy === undefined ? "–" : `${pct(s.busy)} of ${s.workers ?? "?"}`)],
  ["tokens", "LLM tokens", (s) => num(s.tokens)],
  ["dollars", "LLM cost", (s) => `$${(s.dollars || 0).toFixed(2)}`],
  ["elapsed_s", "Elapsed", (s) => duration(s.elapsed_s)],
];

function tiles(summary) {
  return el("div", { class: "tiles" }, TILES.map(([key, label, value]) => el("div", { class: "tile", dataset: { tile: key } },
    el("div", { class: "label" }, label), el("div", { class: "value" }, value(summary, key)))));
}

function charts(series, interpreted) {
  // x: the run's own elapsed time (a resumed run's earlier sessions included), the same on every clock
  const at = (pick) => series.map((d) => [d.elapsed_s ?? 0, pick(d)]).filter((p) => p[1] !== null && p[1] !== undefined);
  return el("div", { class: "charts" },
    lineChart(interpreted ? [] : at((d) => d.best_speedup_eager), { label: "Best speedup over eager", unit: "×",
      name: "speedup", empty: interpreted ? "CPU run: interpreted times are not GPU speedups" : "no correct kernel yet",
      floor: 0, minSpan: 0.1 }),
    lineChart(at((d) => { const c = coverage(d); return c === null ? null : 100 * c; }),
      { label: "Archive coverage", unit: "% of cells", name: "coverage", floor: 0, ceiling: 100, minSpan: 5 }),
    lineChart(at((d) => d.evaluations_per_min), { label: "Evaluations per minute", unit: "1/min", name: "rate",
      floor: 0, minSpan: 2 }),
    // 0 to 100 always: a run whose evaluators stay busy is a flat line at the top, not noise blown up
    lineChart(at((d) => (d.busy === undefined ? null : 100 * d.busy)), { label: "Evaluators busy", unit: "% of time",
      name: "busy", range: [0, 100], format: (y) => y.toFixed(0) }));
}

function operatorTable(stats) {
  if (!stats.operators.length) return el("div", { class: "empty" }, "No candidates yet.");
  const perEntry = (o) => (o.archive_entries && o.tokens ? num(Math.round(o.tokens / o.archive_entries)) : "–");
  return el("div", { class: "scroll" }, el("table", { class: "operators" },
    el("thead", {}, el("tr", {}, ["Operator", "Candidates", "Evaluated", "Correct", "Archive entries",
      "Failed to produce", "Tokens", "Tokens per entry", "Cost"].map((h, k) => el("th", { class: k ? "num" : null,
      scope: "col", title: h === "Correct" ? "correct evaluations over evaluations, as the Correct tile" : null }, h)))),
    el("tbody", {}, stats.operators.map((o) => el("tr", { dataset: { operator: o.operator } },
      el("td", {}, o.operator), el("td", { class: "num" }, num(o.candidates)),
      el("td", { class: "num" }, num(o.evaluated)),
      el("td", { class: "num" }, `${num(o.correct)} (${pct(correctRate(o.correct, o.evaluated))})`),
      el("td", { class: "num" }, num(o.archive_entries)), el("td", { class: "num" }, num(o.failures)),
      el("td", { class: "num" }, num(o.tokens)), el("td", { class: "num" }, perEntry(o)),
      el("td", { class: "num" }, `$${o.dollars.toFixed(2)}`))))));
}

function promptTable(runId, stats) {
  if (!stats.prompts.some((p) => p.uses)) {
    return el("p", { class: "muted" }, "No meta-prompt used yet: only LLM operators use them (this run has made no " +
      "LLM call).");
  }
  const top = [...stats.prompts].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity)).slice(0, 8);
  return el("div", {}, el("table", { class: "prompts" },
    el("thead", {}, el("tr", {}, ["Prompt", "Fitness", "Uses", "Candidates", "Best kernel"].map(
      (h, k) => el("th", { class: k ? "num" : null, scope: "col" }, h)))),
    el("tbody", {}, top.map((p) => el("tr", {},
      el("td", {}, el("a", { href: `#/runs/${runId}/prompts` }, `#${p.number}`)),
      el("td", { class: "num" }, p.fitness === null ? "–" : p.fitness.toFixed(3)),
      el("td", { class: "num" }, num(p.uses)), el("td", { class: "num" }, num(p.candidates)),
      el("td", { class: "num" }, p.best_candidate_number === null ? "–"
        : el("a", { href: `#/runs/${runId}/candidates/${p.best_candidate_number}` }, `#${p.best_candidate_number}`)))))),
  el("p", {}, el("a", { href: `#/runs/${runId}/prompts` }, `All ${stats.prompts.length} meta-prompts`)));
}

// compare: the "compare with run #" form, made once: the header is redrawn as the run's status changes, and
// a number being typed into it must survive that
function header(info, summary, onChange, message, compare) {
  const best = Object.values(summary.best || {}).sort((a, b) => b.objective - a.objective)[0];
  return el("div", { class: "run-head" },
    el("div", { class: "title-row" },
      el("h1", {}, `Run #${info.id} · ${info.spec_name} `, badge(info.status)),
      el("span", { class: "actions" }, runActions(info, {
        onDone: onChange, onError: (e) => fill(message, errorBox(e.message)) }))),
    el("p", { class: "muted" },
      [info.hardware ? `on ${info.hardware}` : "no evaluation yet", `owner ${info.owner}`,
        `created ${new Date(info.created_at).toLocaleString()}`].join(" · "),
      best ? [" · ", el("a", { href: `#/runs/${info.id}/candidates/${best.candidate}` }, "the best kernel")] : null,
      " · ", el("a", { href: `#/runs/${info.id}/evaluations` }, "every evaluation"),
      " · ", el("a", { href: `#/runs/${info.id}/rejected` }, "rejected"),
      " · ", el("a", { href: `#/runs/${info.id}/prompts` }, "meta-prompts"), " · ", compare),
    info.interpreted ? el("p", { class: "notice cpu" }, `${CPU_NOTE}. Colours and rankings compare kernels ` +
      "with each other; no figure here is a GPU speedup.") : null,
    info.status === "failed" ? errorBox(`run failed: ${info.stop_reason || "no reason recorded"}`)
      : info.stop_reason ? el("p", { class: "muted" }, `${info.status === "finished" ? "Finished" : "Stopped"}: ` +
        info.stop_reason) : null,
    info.status === "queued" ? el("p", { class: "notice" }, `Queued: ${info.queue_position ?? "?"} run(s) ahead, ` +
      "waiting for a free GPU.") : null,
    message);
}

// "Compare with run #N": the other run's number, then the comparison page.
function compareForm(info) {
  const input = el("input", { type: "number", min: 1, class: "run-number", "aria-label": "the run to compare with",
    placeholder: "run #" });
  return el("form", { class: "inline", onsubmit: (event) => {
    event.preventDefault();
    const other = Number(input.value);
    if (other >= 1 && other !== info.id) location.hash = `#/compare/runs/${info.id}/${other}`;
  } }, el("label", {}, "compare with ", input), " ", el("button", { class: "secondary small-button" }, "Compare"));
}

// The scatter's panel: drawn at once, its points loaded when it comes into view (a long run has thousands).
function scatterPanel(runId, plot) {
  return el("section", { class: "panel" }, el("div", { class: "title-row" },
    el("h3", {}, "Every evaluation"),
    el("span", {}, el("a", { href: `#/runs/${runId}/evaluations` }, "as a list, to filter, compare and export"), " · ",
      el("a", { href: `#/runs/${runId}/rejected` }, "the rejected ones by stage and reason"))), plot.element);
}

export async function runView(root, runId, page) {
  const [first, archive, progress, stats] = await Promise.all([api(`/api/runs/${runId}`),
    api(`/api/runs/${runId}/archive`), api(`/api/runs/${runId}/progress?points=300`),
    api(`/api/runs/${runId}/operators`)]);
  if (!page.alive()) return;
  let info = first, latest = progress.length ? progress[progress.length - 1].data : {};
  let series = progress.map((e) => e.data);
  let currentArchive = archive, currentStats = stats;
  const choices = {};  // per hardware: the axes chosen and the cell selected, kept across live redraws
  const message = el("div", { role: "status" });
  const parts = { head: el("div"), tiles: el("div"), charts: el("div"), archive: el("div"), stats: el("div") };
  const plot = scatter(), compare = compareForm(first);
  const summary = () => ({ ...info, ...latest, interpreted: info.interpreted || Boolean(latest.interpreted) });

  const draw = {
    head: () => fill(parts.head, header(info, summary(), (changed) => { info = changed; draw.head(); },
      message, compare)),
    tiles: () => fill(parts.tiles, tiles(summary())),
    charts: () => fill(parts.charts, charts(series, summary().interpreted)),
    archive: () => {
      const focused = document.activeElement?.dataset?.cell;
      const focusedIn = document.activeElement?.closest?.("[data-hardware]")?.dataset.hardware;
      const found = currentArchive.hardware;
      fill(parts.archive, found.length ? el("div", {}, found.map((hw) => {
        choices[hw.hardware] ||= { x: 0, y: hw.descriptors.length > 1 ? 1 : null, selected: null };
        return heatmap(hw, choices[hw.hardware]);
      })) : el("div", { class: "empty" }, "No elites yet: the archive fills as kernels are judged correct."));
      if (focused) parts.archive.querySelector(`[data-hardware="${focusedIn}"] [data-cell="${focused}"]`)?.focus();
    },
    stats: () => fill(parts.stats, el("h2", {}, "Operators"), operatorTable(currentStats),
      el("h2", {}, "Meta-prompts"), promptTable(runId, currentStats)),
  };

  document.title = `Run #${runId} · kernelevo`;
  fill(root, parts.head, parts.tiles, el("h2", {}, "Progress"), parts.charts, scatterPanel(runId, plot),
    el("h2", {}, "Archive"), parts.archive, parts.stats);
  Object.values(draw).forEach((f) => f());
  // The scatter's points (a long run's tens of thousands) load when it comes into view, not before: the page
  // answers at once, and a reader who never scrolls to it never waits for them. Then it follows the run.
  let plotted = false;
  const morePoints = async () => {
    if (plotted) plot.add(await api(`/api/runs/${runId}/evaluations/points?after=${plot.count()}`));
  };
  const inView = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    inView.disconnect();
    plotted = true;
    morePoints().catch((error) => {
      if (page.alive()) fill(message, errorBox(`the scatter: ${error.message}`));
    });
  });
  inView.observe(plot.element);

  // Live: each progress event updates the tiles and charts at once; the archive and the statistics
  // follow, no more often than ARCHIVE_EVERY_MS and STATS_EVERY_MS.
  const later = { archive: null, stats: null, points: null };
  const refresh = (what, every, load) => {
    if (later[what]) return;
    later[what] = setTimeout(async () => {
      try {
        await load();
        if (page.alive()) draw[what]?.();  // the scatter draws itself as points arrive
      } catch (error) {
        fill(message, errorBox(error.message));
      }
      later[what] = null;
    }, every);
  };
  const lastId = progress.length ? progress[progress.length - 1].id : 0;
  const stop = follow(`/api/runs/${runId}/events?after=${lastId}`, (kind, data) => {
    if (kind === "progress") {
      latest = data;
      series.push(data);
      if (message.dataset.retrying) { fill(message); delete message.dataset.retrying; }
      if (series.length > MAX_POINTS) series = series.filter((_, k) => k % 2 === 0 || k === series.length - 1);
      draw.tiles();
      draw.charts();
      refresh("archive", ARCHIVE_EVERY_MS, async () => { currentArchive = await api(`/api/runs/${runId}/archive`); });
      refresh("stats", STATS_EVERY_MS, async () => { currentStats = await api(`/api/runs/${runId}/operators`); });
      refresh("points", POINTS_EVERY_MS, morePoints);
    } else if (kind === "status") {
      const changed = data.status !== info.status;
      info = data;
      draw.head();
      if (changed) draw.tiles();
    }
  }, { after: lastId, onError: (error) => {
    message.dataset.retrying = "1";
    fill(message, errorBox(`${error.message}; retrying`));
  } });
  const redrawHead = () => draw.head();
  window.addEventListener("kernelevo-token", redrawHead);
  page.onLeave(() => {
    stop();
    plot.stop();
    inView.disconnect();
    Object.values(later).forEach((t) => t && clearTimeout(t));
    window.removeEventListener("kernelevo-token", redrawHead);
  });
}
