// A run's meta-prompt archive: each prompt's sections, fitness, usage, parent and children.

import { api, el, fill, num } from "./util.js";

function card(prompt, used, children, runId) {
  const jump = (number) => el("button", { class: "link", onclick: () => {
    const target = document.getElementById(`prompt-${number}`);
    target.scrollIntoView({ block: "start" });
    target.focus();
  } }, `#${number}`);
  return el("article", { class: "panel prompt", id: `prompt-${prompt.number}`, tabindex: "-1",
    dataset: { prompt: prompt.number } },
    el("h2", {}, `Prompt #${prompt.number}`, el("span", { class: "muted" },
      prompt.fitness === null ? " · no fitness yet" : ` · fitness ${prompt.fitness.toFixed(3)}`)),
    el("p", { class: "muted" },
      `used ${num(prompt.uses)} time${prompt.uses === 1 ? "" : "s"} · ${num(used)} candidate${used === 1 ? "" : "s"}`,
      prompt.parent_number === null ? " · an initial prompt" : [" · from ", jump(prompt.parent_number),
        prompt.mutation ? ` by ${prompt.mutation}` : ""],
      children.length ? [" · children ", children.flatMap((c, k) => (k ? [", ", jump(c)] : [jump(c)]))] : null,
      prompt.best_candidate_number === null ? null : [" · best kernel ",
        el("a", { href: `#/runs/${runId}/candidates/${prompt.best_candidate_number}` }, `#${prompt.best_candidate_number}`)]),
    Object.entries(prompt.sections).map(([name, text], k) => el("details", { open: k === 0 },
      el("summary", {}, name), el("pre", { class: "prompt-text" }, text))));
}

export async function promptsView(root, runId) {
  const [run, prompts, stats] = await Promise.all([api(`/api/runs/${runId}`),
    api(`/api/prompts?run=${runId}&limit=500`), api(`/api/runs/${runId}/operators`)]);
  document.title = `Meta-prompts of run #${runId} · kernelevo`;
  const used = new Map(stats.prompts.map((p) => [p.number, p.candidates]));
  const children = new Map();
  for (const p of prompts) {
    if (p.parent_number !== null) children.set(p.parent_number, [...(children.get(p.parent_number) || []), p.number]);
  }
  const ranked = [...prompts].sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity));
  fill(root,
    el("h1", {}, "Meta-prompts of ", el("a", { href: `#/runs/${runId}` }, `run #${runId} · ${run.spec_name}`)),
    el("p", { class: "muted" }, "The prompts co-evolve with the kernels: a prompt's fitness is the best objective " +
      "(ln of the speedup over eager) of any kernel made with it. Best first."),
    prompts.length ? ranked.map((p) => card(p, used.get(p.number) || 0, children.get(p.number) || [], runId))
      : el("div", { class: "empty" }, "No meta-prompts: this run used no LLM (the template operator needs none)."));
}
