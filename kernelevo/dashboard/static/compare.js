// Side by side: two kernels (their timings on each hardware type, the library calls they made, the diff
// from A to B and both sources) and two runs (their settings, results, rejections and best-so-far curves).

import { CPU_NOTE, api, badge, el, fill, ms, num, pct, roof, speed } from "./util.js";
import { diffView, highlighted } from "./code.js";
import { stepChart } from "./chart.js";

const A_COLOUR = "#2457a6", B_COLOUR = "#d95f02";
const spread = (t) => (t ? `±${(100 * t.iqr_ms / t.median_ms / 2).toFixed(1)}%` : "–");

function sideTable(rows, heads, name) {
  return el("div", { class: "scroll" }, el("table", { class: `side-by-side ${name}` },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, ""), heads.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.filter(Boolean).map(([label, a, b, field]) => el("tr", field ? { dataset: { field } } : {},
      el("th", { scope: "row" }, label), el("td", { dataset: { side: "a" } }, a ?? "–"),
      el("td", { dataset: { side: "b" } }, b ?? "–"))))));
}

// What B's time is against A's, in words: faster or slower, and whether beyond the two timings' noise.
function verdictLine(t) {
  if (!t) return null;
  const faster = t.speedup >= 1, factor = faster ? t.speedup : 1 / t.speedup;
  return el("p", { class: "verdict", dataset: { hardware: t.hardware } },
    el("strong", {}, `B is ${factor.toFixed(2)}× ${faster ? "faster" : "slower"} than A`),
    ` (${ms(t.a_ms)} against ${ms(t.b_ms)}; `,
    t.beyond_noise ? "beyond the noise: the middle halves of their timings do not overlap)"
      : "within the noise: the middle halves of their timings overlap)",
    t.interpreted ? [" · ", el("span", { class: "cpu" }, CPU_NOTE)] : null);
}

function library(e) {
  if (!e?.library?.calls?.length) return "none recorded";
  return `${e.library.calls.map((c) => `${c.op}${c.count > 1 ? ` ×${c.count}` : ""}`).join(", ")}` +
    (e.library.gpu_share === null ? "" : ` · ${pct(e.library.gpu_share)} of GPU time`);
}

function hardwareTable(hardware, a, b) {
  const ea = a.evaluations.find((e) => e.hardware === hardware), eb = b.evaluations.find((e) => e.hardware === hardware);
  const both = [ea, eb], gpu = both.some((e) => e && !e.interpreted);
  const row = (label, value, field) => [label, ...both.map((e) => (e ? value(e) : "not evaluated")), field];
  return sideTable([
    row("Verdict", (e) => (e.correct ? badge("correct") : el("span", { title: e.message },
      el("span", { class: "badge failed" }, e.error || "rejected"), ` at ${e.stage}`)), "verdict"),
    row("Kernel median", (e) => ms(e.kernel?.median_ms), "median_ms"),
    row("Spread (IQR/2)", (e) => spread(e.kernel)),
    row("Min", (e) => ms(e.kernel?.min_ms)),
    row("Timed by", (e) => (e.kernel ? `${e.kernel.method}, ${num(e.kernel.repetitions)} repetitions` +
      (e.interpreted ? ", Triton's interpreter" : "") : "–")),
    row("Eager median", (e) => ms(e.eager?.median_ms), "eager_ms"),
    row("torch.compile median", (e) => ms(e.compiled?.median_ms)),
    gpu ? row("Speedup over eager", (e) => speed(e.speedup_eager), "speedup_eager") : null,
    gpu ? row("Speedup over torch.compile", (e) => speed(e.speedup_compile)) : null,
    gpu ? row("Roofline fraction", (e) => roof(e.roofline, e.roofline_floor), "roofline") : null,
    row("Registers (most of its kernels)", (e) => num(e.registers)),
    row("Spills", (e) => num(e.spills)),
    row("Launches per call", (e) => num(e.launches)),
    row("Library calls", library, "library"),
  ], [`A: kernel #${a.number}`, `B: kernel #${b.number}`], "timings");
}

export async function compareKernelsView(root, aId, bId) {
  const c = await api(`/api/compare/candidates?a=${aId}&b=${bId}`);
  const { a, b } = c;
  document.title = `Kernel #${a.number} against #${b.number} · kernelevo`;
  const name = (k) => [el("a", { href: `#/candidates/${k.id}` }, `kernel #${k.number}`), " of ",
    el("a", { href: `#/runs/${k.run_id}` }, `run #${k.run_id} · ${k.spec_name}`)];
  const hardware = [...new Set([...a.evaluations, ...b.evaluations].map((e) => e.hardware))].sort();
  fill(root,
    el("h1", {}, "Two kernels side by side"),
    el("p", { class: "sides" }, el("span", { class: "side-a" }, "A: ", name(a), ` (${a.operator})`), el("br"),
      el("span", { class: "side-b" }, "B: ", name(b), ` (${b.operator})`), " · ",
      el("a", { href: `#/compare/candidates/${b.id}/${a.id}` }, "swap")),
    c.same_spec ? null : el("p", { class: "notice" }, `A and B are kernels of different specs (${a.spec_name}, ` +
      `${b.spec_name}): their times measure different problems.`),
    el("h2", {}, "Timings"),
    hardware.length ? hardware.map((h) => el("section", { class: "panel compare-hardware", dataset: { hardware: h } },
      el("h3", {}, `On ${h}`), verdictLine(c.timings.find((t) => t.hardware === h)), hardwareTable(h, a, b)))
      : el("div", { class: "empty" }, "Neither kernel has been evaluated."),
    el("h2", {}, `Diff from A to B: +${num(c.added_lines)} −${num(c.removed_lines)} lines`),
    diffView(a.source, b.source),
    el("div", { class: "row sources" },
      el("div", { class: "grow", dataset: { side: "a" } }, el("h2", {}, `A: kernel #${a.number}`), highlighted(a.source)),
      el("div", { class: "grow", dataset: { side: "b" } }, el("h2", {}, `B: kernel #${b.number}`), highlighted(b.source))));
}

function duration(seconds) {
  return seconds < 120 ? `${Math.round(seconds)} s` : seconds < 7200 ? `${(seconds / 60).toFixed(1)} min`
    : `${(seconds / 3600).toFixed(1)} h`;
}

function runRows(a, b) {
  const row = (label, value, field) => [label, value(a), value(b), field];
  const best = (s) => s.best.find((x) => x.hardware === s.run.hardware) || s.best[0];
  const gpuOnly = (f) => (s) => (s.run.interpreted ? el("span", { class: "muted", title: CPU_NOTE }, "CPU run") : f(s));
  return [
    row("Spec", (s) => s.run.spec_name, "spec"),
    row("Status", (s) => badge(s.run.status)),
    row("Hardware", (s) => s.run.hardware || "–"),
    row("Evaluations", (s) => num(s.evaluations), "evaluations"),
    row("Correct", (s) => `${num(s.correct)} (${pct(s.evaluations ? s.correct / s.evaluations : null)})`, "correct"),
    row("Rejected", (s) => num(s.evaluations - s.correct), "rejected"),
    row("Best vs eager", gpuOnly((s) => speed(s.run.best_speedup_eager)), "best_speedup_eager"),
    row("Best vs torch.compile", gpuOnly((s) => speed(s.run.best_speedup_compile))),
    row("Roofline fraction", gpuOnly((s) => roof(s.run.best_roofline, s.run.best_roofline_floor)), "roofline"),
    row("Best kernel", (s) => (best(s) ? el("a", { href: `#/candidates/${best(s).candidate_id}` },
      `#${best(s).candidate_number}, ${ms(best(s).kernel_ms)}`) : "–"), "best"),
    row("Best found at evaluation", (s) => (best(s) ? `#${num(best(s).found_at)}` : "–"), "found_at"),
    row("Archive cells filled", (s) => (best(s) ? `${num(best(s).cells_filled)} of ${num(s.cells_total)}` : "–")),
    row("Descriptors", (s) => s.descriptors.join(", ")),
    row("LLM tokens", (s) => num(s.run.tokens)),
    row("LLM cost", (s) => `$${s.run.dollars.toFixed(2)}`),
    row("Elapsed", (s) => duration(s.run.elapsed_s)),
  ];
}

function reasonsTable(a, b) {
  const key = (r) => `${r.stage}\u0000${r.reason}`, all = new Map();
  for (const r of [...a.rejected, ...b.rejected]) all.set(key(r), r);
  if (!all.size) return el("p", { class: "muted" }, "Neither run rejected a candidate.");
  const count = (s, r) => num(s.rejected.find((x) => key(x) === key(r))?.count ?? 0);
  return el("div", { class: "scroll" }, el("table", { class: "reasons" },
    el("thead", {}, el("tr", {}, ["Stage", "Reason", `Run #${a.run.id}`, `Run #${b.run.id}`].map((h, k) =>
      el("th", { class: k > 1 ? "num" : null, scope: "col" }, h)))),
    el("tbody", {}, [...all.values()].map((r) => el("tr", {}, el("td", {}, r.stage), el("td", {}, el("code", {}, r.reason)),
      el("td", { class: "num" }, el("a", { href: `#/runs/${a.run.id}/rejected?stage=${r.stage}&reason=${r.reason}` },
        count(a, r))),
      el("td", { class: "num" }, el("a", { href: `#/runs/${b.run.id}/rejected?stage=${r.stage}&reason=${r.reason}` },
        count(b, r))))))));
}

export async function compareRunsView(root, aId, bId) {
  const c = await api(`/api/compare/runs?a=${aId}&b=${bId}`);
  const { a, b } = c;
  document.title = `Run #${a.run.id} against #${b.run.id} · kernelevo`;
  const interpreted = a.run.interpreted || b.run.interpreted;
  const curve = (s, colour) => {
    const best = s.best.find((x) => x.hardware === s.run.hardware) || s.best[0];
    return { name: `run #${s.run.id}${best ? ` on ${best.hardware}` : ""}`, colour, end: s.evaluations,
      points: best ? best.progress.map(([n, objective]) => [n, Math.exp(objective)]) : [] };
  };
  const show = (v) => (v === undefined || v === null ? "–" : typeof v === "object" ? JSON.stringify(v) : String(v));
  fill(root,
    el("h1", {}, "Two runs side by side"),
    el("p", {}, el("a", { href: `#/runs/${a.run.id}` }, `A: run #${a.run.id} · ${a.run.spec_name}`), " · ",
      el("a", { href: `#/runs/${b.run.id}` }, `B: run #${b.run.id} · ${b.run.spec_name}`), " · ",
      el("a", { href: `#/compare/runs/${b.run.id}/${a.run.id}` }, "swap")),
    c.same_spec ? null : el("p", { class: "notice" }, "The runs searched different specs: their speedups are over " +
      "different baselines."),
    sideTable(runRows(a, b), [`A: run #${a.run.id}`, `B: run #${b.run.id}`], "runs"),
    el("h2", {}, "How the best kernel improved"),
    stepChart([curve(a, A_COLOUR), curve(b, B_COLOUR)], { label: interpreted ? "Best interpreted time ratio over eager"
      : "Best speedup over eager", unit: interpreted ? "×, not a GPU speed" : "×, log scale", xLabel: "evaluation",
    log: true, name: "best", format: (v) => `${v.toPrecision(3)}×`, empty: "no correct kernel in either run" }),
    el("h2", {}, "Settings that differ"),
    c.config.length ? sideTable(c.config.map((d) => [d.key, show(d.a), show(d.b), d.key]),
      [`A: run #${a.run.id}`, `B: run #${b.run.id}`], "config") : el("p", { class: "muted" }, "None."),
    el("h2", {}, "Rejections by stage and reason"), reasonsTable(a, b));
}
