// Every evaluation of a run as a table: filtered by hardware, operator, verdict, stage and reason, sorted by
// place in the run, time or speedup, a hundred a page. Two kernels ticked are compared side by side; every
// evaluation downloads as CSV or JSON. The filters live in the address, so a filtered list can be shared.

import { CPU_NOTE, api, badge, download, el, errorBox, fill, hashQuery, ms, num, pct, roof, speed } from "./util.js";

export const STAGES = ["static", "compile", "correctness", "timing", "verdict"];
const PAGE = 100;
const SORTS = [["number", "in the order they finished"], ["-number", "the latest first"],
  ["kernel_ms", "the fastest kernel first"], ["-speedup_eager", "the highest speedup first"]];
const FILTERS = ["hardware", "operator", "correct", "stage", "reason"];

// A select whose first option is "any"; choices: [value, text] or value.
export function picker(label, value, choices, onchange) {
  return el("label", {}, `${label} `, el("select", { "aria-label": label, dataset: { filter: label },
    onchange: (e) => onchange(e.target.value) }, el("option", { value: "" }, "any"),
  choices.map((c) => {
    const [v, text] = Array.isArray(c) ? c : [c, c];
    return el("option", { value: v, selected: v === value }, text);
  })));
}

// "Showing 1–100 of 2,000" with the previous and next pages.
export function pager(found, go) {
  const last = Math.min(found.offset + found.items.length, found.total);
  return el("div", { class: "pager" },
    el("span", { class: "muted" }, found.total ? `${num(found.offset + 1)}–${num(last)} of ${num(found.total)}`
      : "none"),
    el("button", { class: "secondary", disabled: found.offset === 0, onclick: () => go(found.offset - found.limit) },
      "Previous"),
    el("button", { class: "secondary", disabled: last >= found.total, onclick: () => go(found.offset + found.limit) },
      "Next"));
}

export function verdict(item) {
  if (item.correct) return badge("correct");
  return el("span", { title: item.message || null }, el("span", { class: "badge failed" }, item.error || "rejected"),
    el("span", { class: "muted small" }, ` at ${item.stage}`));
}

export function kernelLink(item) {
  return el("a", { href: `#/candidates/${item.candidate_id}` }, `#${item.candidate_number}`);
}

const gpu = (item, text) => (item.interpreted ? el("span", { class: "muted", title: CPU_NOTE }, "CPU run") : text);

function columns(withLibrary) {
  return [
    ["#", "num", (i) => num(i.number)],
    ["Kernel", "", kernelLink],
    ["Operator", "", (i) => i.operator],
    ["Hardware", "", (i) => i.hardware],
    ["Verdict", "", verdict],
    // a CPU run's times are the interpreter's (the page says so once, above the list)
    ["Kernel time", "num", (i) => (i.interpreted ? el("span", { title: CPU_NOTE }, ms(i.kernel_ms)) : ms(i.kernel_ms))],
    ["vs eager", "num", (i) => gpu(i, speed(i.speedup_eager))],
    ["vs torch.compile", "num", (i) => gpu(i, speed(i.speedup_compile))],
    ["Roofline", "num", (i) => gpu(i, roof(i.roofline, i.roofline_floor))],
    ["Archive", "", (i) => i.archive_status || "–"],
    // only when some record holds its library calls (older ones cannot)
    withLibrary ? ["Library share", "num", (i) => (!i.library ? "–" : el("span", {
      title: i.library.calls.map((c) => `${c.op} ${c.signature}`.trim()).join("; ") || null },
    i.library.gpu_share === null ? i.library.calls.map((c) => c.op).join(", ") || "–" : pct(i.library.gpu_share)))]
      : null,
  ].filter(Boolean);
}

export async function evaluationsView(root, runId, page) {
  const query = hashQuery();
  const state = Object.fromEntries(FILTERS.map((k) => [k, query[k] || ""]));
  state.sort = SORTS.some(([s]) => s === query.sort) ? query.sort : "number";
  let offset = Number(query.offset) || 0;
  const chosen = [];  // up to two [candidate id, number] to compare
  const [run, rejected] = await Promise.all([api(`/api/runs/${runId}`), api(`/api/runs/${runId}/rejected?limit=1`)]);
  if (!page.alive()) return;
  document.title = `Evaluations of run #${runId} · kernelevo`;
  const reasons = [...new Set(rejected.reasons.map((r) => r.reason))].sort();
  const status = el("div", { role: "status" }), filters = el("div", { class: "filters" });
  const table = el("div", { class: "scroll" }), compare = el("div", { class: "compare-bar" });

  const save = (format) => download(`/api/runs/${runId}/evaluations/export?format=${format}`,
    `run${runId}-evaluations.${format}`).catch((error) => fill(status, errorBox(`export failed: ${error.message}`)));

  function drawCompare() {
    const [a, b] = chosen;
    fill(compare, el("span", { class: "muted" }, chosen.length < 2 ? `tick two kernels to compare them (${
      chosen.length} ticked)` : ""), el("button", { disabled: chosen.length < 2, onclick: () => {
      location.hash = `#/compare/candidates/${a[0]}/${b[0]}`;
    } }, chosen.length < 2 ? "Compare" : `Compare #${a[1]} with #${b[1]}`));
  }

  function drawFilters(found) {
    const set = (key) => (value) => { state[key] = value; offset = 0; load(); };
    fill(filters,
      found.hardware.length > 1 ? picker("hardware", state.hardware, found.hardware, set("hardware")) : null,
      picker("operator", state.operator, found.operators, set("operator")),
      picker("verdict", state.correct, [["true", "correct"], ["false", "rejected"]], set("correct")),
      picker("stage", state.stage, STAGES, set("stage")),
      picker("reason", state.reason, reasons, set("reason")),
      el("label", {}, "sorted ", el("select", { "aria-label": "sort", onchange: (e) => set("sort")(e.target.value) },
        SORTS.map(([s, text]) => el("option", { value: s, selected: s === state.sort }, text)))));
  }

  function drawTable(found) {
    const shown = columns(found.items.some((i) => i.library));
    const tick = (item) => el("input", { type: "checkbox", "aria-label": `compare kernel #${item.candidate_number}`,
      checked: chosen.some(([id]) => id === item.candidate_id), dataset: { compare: item.candidate_id },
      onchange: (e) => {
        const at = chosen.findIndex(([id]) => id === item.candidate_id);
        if (e.target.checked && at < 0) chosen.push([item.candidate_id, item.candidate_number]);
        if (!e.target.checked && at >= 0) chosen.splice(at, 1);
        if (chosen.length > 2) chosen.shift();
        table.querySelectorAll("input[data-compare]").forEach((box) => {
          box.checked = chosen.some(([id]) => String(id) === box.dataset.compare);
        });
        drawCompare();
      } });
    fill(table, found.items.length ? el("table", { class: "evaluations" },
      el("thead", {}, el("tr", {}, shown.map(([h, kind]) => el("th", { class: kind || null, scope: "col" }, h)),
        el("th", { scope: "col" }, "Compare"))),
      el("tbody", {}, found.items.map((item) => el("tr", { dataset: { number: item.number, candidate: item.candidate_id } },
        shown.map(([h, kind, cell]) => el("td", { class: kind || null }, cell(item))), el("td", {}, tick(item))))))
      : el("div", { class: "empty" }, "No evaluation passes these filters."), pager(found, (to) => { offset = to; load(); }));
  }

  async function load() {
    const params = new URLSearchParams({ limit: PAGE, offset, sort: state.sort });
    for (const key of FILTERS) if (state[key]) params.set(key, state[key]);
    try {
      const found = await api(`/api/runs/${runId}/evaluations?${params}`);
      if (!page.alive()) return;
      params.delete("limit");
      if (!offset) params.delete("offset");
      if (state.sort === "number") params.delete("sort");
      history.replaceState(null, "", `#/runs/${runId}/evaluations${params.toString() ? `?${params}` : ""}`);
      fill(status);
      drawFilters(found);
      drawTable(found);
    } catch (error) {
      fill(status, errorBox(error.message));
    }
  }

  fill(root,
    el("div", { class: "title-row" },
      el("h1", {}, "Evaluations of ", el("a", { href: `#/runs/${runId}` }, `run #${runId} · ${run.spec_name}`)),
      el("span", { class: "actions" }, el("button", { class: "secondary", onclick: () => save("csv") }, "Download CSV"),
        el("button", { class: "secondary", onclick: () => save("json") }, "Download JSON"))),
    el("p", { class: "muted" }, `${num(rejected.evaluations)} evaluations, `,
      el("a", { href: `#/runs/${runId}/rejected` }, `${num(rejected.rejected)} rejected`),
      run.interpreted ? [" · ", el("span", { class: "cpu" }, CPU_NOTE)] : null,
      ". The downloads hold every evaluation of the run, whatever the filters."),
    status, filters, compare, table);
  drawCompare();
  await load();
}
