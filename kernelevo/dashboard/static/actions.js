// Stop and resume: the runs table and the run page share them. Both need an API token.

import { api, el, token } from "./util.js";

const ENDED = new Set(["stopped", "finished", "failed", "interrupted"]);
export const NEED_TOKEN = "enter an API token above (kernelevo token create NAME) to start, stop or resume runs";

// Buttons for what can be done to this run now; onDone(run) gets the run as the API returns it.
export function runActions(run, { onDone, onError, more = 50 }) {
  const canWrite = Boolean(token());
  const act = async (path, body) => {
    try {
      onDone(await api(path, { method: "POST", json: body }));
    } catch (error) {
      onError(error);
    }
  };
  const buttons = [];
  if (run.status === "running" || run.status === "queued") {
    buttons.push(el("button", {
      class: "secondary", disabled: !canWrite || run.stop_requested, title: canWrite ? null : NEED_TOKEN,
      "aria-label": `stop run ${run.id}`, onclick: () => act(`/api/runs/${run.id}/stop`),
    }, run.stop_requested ? "Stopping…" : "Stop"));
  }
  if (ENDED.has(run.status)) {
    // A finished run reached its budget: resuming it with the same budget would end at once.
    const budget = { evaluations: run.evaluations + more };
    buttons.push(el("button", {
      class: "secondary", disabled: !canWrite, title: canWrite ? `resume with a budget of ${budget.evaluations} ` +
        "evaluations" : NEED_TOKEN, "aria-label": `resume run ${run.id} for ${more} more evaluations`,
      onclick: () => act(`/api/runs/${run.id}/resume`, { config: { budget } }),
    }, `Resume +${more}`));
  }
  return buttons;
}
