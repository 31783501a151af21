// The runs: one table, sortable by any column and filtered by text and status, refreshed every few seconds.

import { CPU_NOTE, age, api, badge, el, errorBox, fill, num, pct, roof, speed } from "./util.js";
import { runActions } from "./actions.js";

const REFRESH_MS = 4000;
const dollars = (x) => `$${x.toFixed(2)}`;
const gpuOnly = (key, format) => (r) => (r.interpreted ? el("span", { class: "muted", title: CPU_NOTE }, "CPU run")
  : format(r[key], r));

const COLUMNS = [
  { key: "id", label: "Run", num: true, cell: (r) => el("a", { href: `#/runs/${r.id}` }, `#${r.id}`) },
  { key: "spec_name", label: "Spec", cell: (r) => el("a", { href: `#/runs/${r.id}` }, r.spec_name) },
  { key: "status", label: "Status", cell: (r) => [badge(r.status),
    r.queue_position !== null && r.queue_position !== undefined ? ` ${r.queue_position} ahead` : null,
    r.stop_reason ? el("div", { class: "muted small" }, r.stop_reason) : null] },
  { key: "hardware", label: "Hardware", cell: (r) => (r.interpreted
    ? el("span", { class: "cpu", title: CPU_NOTE }, `${r.hardware} (CPU run)`) : r.hardware || "–") },
  { key: "evaluations", label: "Evaluations", num: true, cell: (r) => num(r.evaluations) },
  { key: "correct_rate", label: "Correct", num: true, value: (r) => (r.evaluations ? r.correct / r.evaluations : null),
    cell: (r) => pct(r.evaluations ? r.correct / r.evaluations : null) },
  { key: "best_speedup_eager", label: "Best vs eager", num: true, cell: gpuOnly("best_speedup_eager", speed) },
  { key: "best_speedup_compile", label: "vs torch.compile", num: true, cell: gpuOnly("best_speedup_compile", speed) },
  { key: "best_roofline", label: "Roofline", num: true, cell: gpuOnly("best_roofline",
    (x, r) => roof(x, r.best_roofline_floor)) },
  { key: "tokens", label: "Tokens", num: true, cell: (r) => num(r.tokens) },
  { key: "dollars", label: "Cost", num: true, cell: (r) => dollars(r.dollars) },
  { key: "created_at", label: "Age", num: true, value: (r) => -Date.parse(r.created_at), cell: (r) => age(r.created_at) },
];

const view = { sort: "id", descending: true, text: "", status: "" };  // kept while the user moves between pages

function valueOf(run, column) {
  const value = column.value ? column.value(run) : run[column.key];
  return column.key.startsWith("best_") && run.interpreted ? null : value;
}

function compare(a, b, column) {
  const x = valueOf(a, column), y = valueOf(b, column);
  if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;  // blanks last, either way
  if (y === null || y === undefined) return -1;
  const order = typeof x === "string" ? x.localeCompare(y) : x - y;
  return view.descending ? -order : order;
}

function matches(run) {
  if (view.status && run.status !== view.status) return false;
  const text = view.text.toLowerCase();
  return !text || [run.id, run.spec_name, run.hardware, run.status, run.owner].some(
    (v) => v !== null && v !== undefined && String(v).toLowerCase().includes(text));
}

export async function runsView(root, page) {
  let runs = [], total = 0, last = null;
  const message = el("div", { role: "status", class: "muted" });
  const table = el("div", { class: "scroll" });
  const filter = el("input", { type: "search", placeholder: "spec, hardware, owner…", value: view.text,
    "aria-label": "filter runs", oninput: (e) => { view.text = e.target.value; draw(); } });
  const status = el("select", { "aria-label": "status", onchange: (e) => { view.status = e.target.value; draw(); } },
    ["", "queued", "running", "interrupted", "stopped", "finished", "failed"].map(
      (s) => el("option", { value: s, selected: s === view.status }, s || "any status")));

  function head(column) {
    const sorted = view.sort === column.key;
    const button = el("button", { onclick: () => {
      view.descending = sorted ? !view.descending : column.num === true;
      view.sort = column.key;
      draw();
    } }, column.label, sorted ? (view.descending ? " ▼" : " ▲") : "");
    return el("th", { class: column.num ? "num" : null, scope: "col",
      "aria-sort": sorted ? (view.descending ? "descending" : "ascending") : null }, button);
  }

  function draw() {
    const column = COLUMNS.find((c) => c.key === view.sort) || COLUMNS[0];
    const shown = runs.filter(matches).sort((a, b) => compare(a, b, column));
    if (!runs.length) {
      fill(table, el("div", { class: "empty" }, "No runs yet. ",
        el("a", { href: "#/submit" }, "Submit a spec"), " or start one with ", el("code", {}, "kernelevo run"), "."));
      return;
    }
    const rows = shown.map((run) => el("tr", { dataset: { run: run.id } },
      COLUMNS.map((c) => el("td", { class: c.num ? "num" : null }, c.cell(run))),
      el("td", {}, el("span", { class: "actions" }, runActions(run, {
        onDone: (changed) => { message.textContent = `run #${changed.id} is ${changed.status}`; refresh(); },
        onError: (error) => { fill(message, errorBox(error.message)); },
      })))));
    fill(table, el("table", { class: "runs" },
      el("thead", {}, el("tr", {}, COLUMNS.map(head), el("th", { scope: "col" }, ""))),
      el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: COLUMNS.length + 1, class: "muted" },
        "No run matches the filter.")))));
    if (total > runs.length) message.textContent = `showing the newest ${runs.length} of ${total} runs`;
  }

  async function refresh() {
    try {
      const found = await api("/api/runs?limit=500");
      const seen = JSON.stringify(found);
      if (seen === last || !page.alive()) return;  // redrawing an unchanged table would move the keyboard focus
      [last, runs, total] = [seen, found.items, found.total];
      draw();
    } catch (error) {
      fill(table, errorBox(`could not read the runs: ${error.message}`));
    }
  }

  document.title = "Runs · kernelevo";
  fill(root,
    el("div", { class: "title-row" }, el("h1", {}, "Runs"), el("a", { class: "button", href: "#/submit" }, "Start a run")),
    el("div", { class: "filters" }, filter, status), message, table);
  await refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  const redraw = () => draw();
  window.addEventListener("kernelevo-token", redraw);
  page.onLeave(() => { clearInterval(timer); window.removeEventListener("kernelevo-token", redraw); });
}
