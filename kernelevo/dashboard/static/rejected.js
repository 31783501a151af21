// A run's rejected candidates: how many the evaluator turned away at each stage for each reason, and the
// list of them, the latest first, filtered by stage and reason (kept in the address, to share).

import { api, el, errorBox, fill, hashQuery, num, pct } from "./util.js";
import { STAGES, kernelLink, pager, picker } from "./evaluations.js";

const PAGE = 100;

function reasonTable(found, state, show) {
  if (!found.reasons.length) return el("div", { class: "empty" }, "No candidate was rejected.");
  const isShown = (r) => r.stage === state.stage && r.reason === state.reason;
  return el("div", { class: "scroll" }, el("table", { class: "reasons" },
    el("thead", {}, el("tr", {}, ["Stage", "Reason", "Rejected", "Of the rejected", ""].map((h, k) =>
      el("th", { class: k === 2 || k === 3 ? "num" : null, scope: "col" }, h)))),
    el("tbody", {}, found.reasons.map((r) => el("tr", { dataset: { stage: r.stage, reason: r.reason },
      "aria-current": isShown(r) ? "true" : null },
    el("td", {}, r.stage), el("td", {}, el("code", {}, r.reason)), el("td", { class: "num" }, num(r.count)),
    el("td", { class: "num" }, pct(r.count / found.rejected)),
    el("td", {}, el("button", { class: "link", "aria-label": `show those rejected at ${r.stage} for ${r.reason}`,
      onclick: () => show(r.stage, r.reason) }, "show")))))));
}

function list(found) {
  if (!found.items.length) return el("div", { class: "empty" }, "None rejected at this stage for this reason.");
  return el("div", { class: "scroll" }, el("table", { class: "rejected" },
    el("thead", {}, el("tr", {}, ["#", "Kernel", "Operator", "Hardware", "Stage", "Reason", "What the evaluator said"]
      .map((h, k) => el("th", { class: k === 0 ? "num" : null, scope: "col" }, h)))),
    el("tbody", {}, found.items.map((item) => el("tr", { dataset: { number: item.number, stage: item.stage,
      reason: item.error || "rejected" } },
    el("td", { class: "num" }, num(item.number)), el("td", {}, kernelLink(item)), el("td", {}, item.operator),
    el("td", {}, item.hardware), el("td", {}, item.stage), el("td", {}, el("code", {}, item.error || "rejected")),
    el("td", { class: "message" }, item.message.split("\n")[0] || "–"))))));
}

export async function rejectedView(root, runId, page) {
  const query = hashQuery();
  const state = { stage: query.stage || "", reason: query.reason || "", hardware: query.hardware || "" };
  let offset = Number(query.offset) || 0;
  const run = await api(`/api/runs/${runId}`);
  document.title = `Rejected candidates of run #${runId} · kernelevo`;
  const body = el("div"), status = el("div", { role: "status" });

  const show = (stage, reason) => { Object.assign(state, { stage, reason }); offset = 0; load(); };

  async function load() {
    const params = new URLSearchParams({ limit: PAGE, offset });
    for (const key of ["stage", "reason", "hardware"]) if (state[key]) params.set(key, state[key]);
    try {
      const found = await api(`/api/runs/${runId}/rejected?${params}`);
      if (!page.alive()) return;
      params.delete("limit");
      if (!offset) params.delete("offset");
      history.replaceState(null, "", `#/runs/${runId}/rejected${params.toString() ? `?${params}` : ""}`);
      const stages = STAGES.filter((s) => found.reasons.some((r) => r.stage === s));
      const reasons = [...new Set(found.reasons.filter((r) => !state.stage || r.stage === state.stage)
        .map((r) => r.reason))].sort();
      fill(status);
      fill(body,
        el("p", { class: "summary" }, `${num(found.rejected)} of ${num(found.evaluations)} evaluations rejected` +
          (found.evaluations ? ` (${pct(found.rejected / found.evaluations)})` : "") + "."),
        reasonTable(found, state, show),
        el("h2", {}, "The rejected candidates", state.stage || state.reason
          ? el("span", { class: "muted" }, ` at ${state.stage || "any stage"} for ${state.reason || "any reason"}`)
          : null),
        el("div", { class: "filters" },
          picker("stage", state.stage, stages, (v) => show(v, state.reason)),
          picker("reason", state.reason, reasons, (v) => show(state.stage, v)),
          state.stage || state.reason ? el("button", { class: "secondary", onclick: () => show("", "") }, "Show all")
            : null),
        list(found), pager(found, (to) => { offset = to; load(); }));
    } catch (error) {
      fill(status, errorBox(error.message));
    }
  }

  fill(root, el("h1", {}, "Rejected candidates of ", el("a", { href: `#/runs/${runId}` },
    `run #${runId} · ${run.spec_name}`)),
  el("p", { class: "muted" }, "Each evaluation stops at the first stage that fails: static checks (no code run), ",
    "compile, correctness against the reference on every input variant, timing. ",
    el("a", { href: `#/runs/${runId}/evaluations` }, "Every evaluation"), " is listed too."),
  status, body);
  await load();
}
