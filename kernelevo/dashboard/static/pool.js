// The shared evaluator pool: its evaluator actors (one per GPU), the judges warm on each, the run each serves
// and its utilisation; every run's weight, share over the window and queue. Polled, as the runs table is.

import { api, el, errorBox, fill, num, pct } from "./util.js";

const REFRESH_MS = 3000;

// Runs registered from the database are numbered; a run started without one has a name of its own.
const runLink = (id) => (/^\d+$/.test(id) ? el("a", { href: `#/runs/${id}` }, `#${id}`) : el("code", {}, id));

function list(items, empty = "–") {
  return items.length ? items.flatMap((item, k) => (k ? [", ", item] : [item])) : el("span", { class: "muted" }, empty);
}

// "gelu ×2" for two judges of one spec under different evaluation options
function judgeNames(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
}

function bar(fraction) {
  return el("span", { class: "meter", role: "img", "aria-label": pct(fraction) },
    el("span", { class: "fill", style: `width: ${Math.round(100 * Math.min(1, fraction))}%` }));
}

function tiles(s) {
  const tile = (key, label, value) => el("div", { class: "tile", dataset: { tile: key } },
    el("div", { class: "label" }, label), el("div", { class: "value" }, value));
  return el("div", { class: "tiles" },
    tile("gpus", "GPUs in the cluster", num(s.gpus)),
    tile("actors", "Evaluator actors", num(s.actors.length)),
    tile("utilisation", "Utilisation", pct(s.utilisation)),
    tile("runs", "Runs", num(s.runs.length)),
    tile("queued", "Queued candidates", num(s.queued)),
    tile("requeued", "Re-evaluated after a death", num(s.requeued)),
    tile("crashed", "Crashed twice", num(s.crashed)));
}

function actorsTable(s) {
  const window = `${Math.round(s.window_s / 60)} min`;
  const rows = s.actors.map((a) => el("tr", { dataset: { actor: a.index } },
    el("td", { class: "num" }, `#${a.index}`),
    el("td", {}, a.host || "–", a.gpus ? el("span", { class: "muted" }, ` (GPU ${a.gpus})`) : null),
    el("td", {}, a.alive ? "up" : el("span", { class: "cpu" }, "restarting")),
    el("td", { dataset: { field: "judges" } }, list(judgeNames(a.judges), "none warm")),
    el("td", { dataset: { field: "serving" } }, list(a.serving.map(runLink), "idle")),
    el("td", { class: "num" }, num(a.slots)),
    el("td", { class: "num", dataset: { field: "utilisation" } }, bar(a.utilisation), " ", pct(a.utilisation)),
    el("td", { class: "num" }, num(a.evaluations))));
  return el("table", { class: "pool-actors" },
    el("thead", {}, el("tr", {}, ["Actor", "Host (GPU)", "State", "Judges warm", "Serving", "Slots",
      `Utilisation (last ${window})`, "Evaluations"].map(
      (h, k) => el("th", { scope: "col", class: [0, 5, 6, 7].includes(k) ? "num" : null }, h)))),
    el("tbody", {}, rows));
}

function runsTable(s) {
  if (!s.runs.length) {
    return el("div", { class: "empty" }, "No run uses the pool now; its judges stay warm for the next run of their spec.");
  }
  const window = `${Math.round(s.window_s / 60)} min`;
  const rows = s.runs.map((r) => el("tr", { dataset: { run: r.run_id } },
    el("td", {}, runLink(r.run_id)), el("td", {}, r.spec),
    el("td", { class: "num", dataset: { field: "weight" } }, String(r.weight)),
    el("td", { class: "num", dataset: { field: "share" } }, bar(r.share), " ", pct(r.share)),
    el("td", { class: "num", dataset: { field: "evaluations" } }, num(r.evaluations)),
    el("td", { class: "num" }, `${r.seconds.toFixed(1)} s`),
    el("td", { class: "num", dataset: { field: "queued" } }, num(r.queued)),
    el("td", { class: "num" }, num(r.in_flight))));
  return el("table", { class: "pool-runs" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Run"), el("th", { scope: "col" }, "Spec"),
      ["Weight", `Share (last ${window})`, "Evaluations", "Evaluator time", "Queue", "In flight"].map(
        (h) => el("th", { scope: "col", class: "num" }, h)))),
    el("tbody", {}, rows));
}

function judgesTable(s) {
  if (!s.judges.length) return el("p", { class: "muted" }, "No judge yet.");
  return el("table", { class: "pool-judges" },
    el("thead", {}, el("tr", {}, ["Spec", "Options", "Runs using it", "Prepared"].map(
      (h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, s.judges.map((j) => el("tr", {},
      el("td", { title: j.spec_sha256 }, j.spec), el("td", {}, el("code", {}, j.options)),
      el("td", {}, list(j.runs.map(runLink), "none: kept warm")), el("td", {},
        j.prepared ? (j.prepare_s == null ? "yes" : `yes, in ${j.prepare_s.toFixed(1)} s`) : "not yet")))));
}

function draw(body, s) {
  if (!s.exists) {
    fill(body, el("div", { class: "empty", dataset: { state: "no-pool" } }, s.note || "No shared evaluator pool.",
      el("p", { class: "small" }, "Runs started with ", el("code", {}, "--pool shared"),
        " (pool = \"shared\" in their settings) start it; ", el("code", {}, "kernelevo pool status"),
        " shows it in a terminal.")));
    return;
  }
  fill(body, el("p", { class: "muted", dataset: { field: "note" } }, `${s.name}: ${s.note}`), tiles(s),
    el("h2", {}, "Evaluator actors"), el("div", { class: "scroll" }, actorsTable(s)),
    el("h2", {}, "Runs"), el("div", { class: "scroll" }, runsTable(s)),
    el("h2", {}, "Warm judges"), el("div", { class: "scroll" }, judgesTable(s)));
}

export async function poolView(root, page) {
  let last = null;
  const body = el("div", { class: "pool" });

  async function refresh() {
    try {
      const snapshot = await api("/api/pool");
      const seen = JSON.stringify(snapshot);
      if (seen === last || !page.alive()) return;  // an unchanged page is not redrawn (the focus would move)
      last = seen;
      draw(body, snapshot);
    } catch (error) {
      last = null;
      if (page.alive()) fill(body, errorBox(`could not read the pool: ${error.message}`));
    }
  }

  document.title = "Evaluator pool · kernelevo";
  fill(root, el("h1", {}, "Shared evaluator pool"), body);
  await refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  page.onLeave(() => clearInterval(timer));
}
