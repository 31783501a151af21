// Start a run: a new spec file (checked by the server in an isolated child) or one already stored,
// with its seed files and a budget. Needs an API token.

import { api, el, errorBox, fill, token } from "./util.js";
import { NEED_TOKEN } from "./actions.js";

function field(label, input, hint) {
  return el("div", { class: "field" }, el("label", { for: input.id }, label), input,
    hint ? el("div", { class: "muted small" }, hint) : null);
}

async function storeSpec(specFile, seedFiles, name) {
  const seeds = {};
  for (const file of seedFiles) seeds[file.name] = await file.text();
  const body = { source: await specFile.text(), seeds };
  if (name) body.name = name;
  return api("/api/specs", { method: "POST", json: body });
}

// The form's fields over the optional JSON of more settings (any RunConfig field).
function runConfig(form) {
  let extra = {};
  if (form.settings.value.trim()) {
    try {
      extra = JSON.parse(form.settings.value);
    } catch (error) {
      throw new Error(`more settings: not JSON (${error.message})`);
    }
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) {
      throw new Error("more settings: a JSON object, e.g. {\"islands\": 2}");
    }
  }
  const budget = { ...(extra.budget || {}), evaluations: Number(form.evaluations.value) };
  if (form.minutes.value) budget.minutes = Number(form.minutes.value);
  const config = { ...extra, budget };
  if (form.model.value.trim()) config.llm = { ...(extra.llm || {}), model: form.model.value.trim() };
  return config;
}

export async function submitView(root, page) {
  document.title = "Start a run · kernelevo";
  const specs = (await api("/api/specs?limit=500")).items;
  const status = el("div", { role: "status", "aria-live": "polite" });
  const existing = el("select", { id: "existing", name: "existing" },
    el("option", { value: "" }, "— upload a new spec below —"),
    specs.map((s) => el("option", { value: s.id }, `${s.name} (#${s.id})`)));
  const form = el("form", { class: "panel submit", novalidate: true },
    field("Spec file", el("input", { id: "spec", name: "spec", type: "file", accept: ".py" }),
      "A KernelBench-style Python file: Model, get_inputs, get_init_inputs, and optionally KERNELEVO settings."),
    field("Seed files", el("input", { id: "seeds", name: "seeds", type: "file", accept: ".py", multiple: true }),
      "The seed kernels the spec's KERNELEVO names, by file name (optional)."),
    field("Spec name", el("input", { id: "name", name: "name", type: "text", placeholder: "from the file's hash" })),
    field("Or a stored spec", existing),
    field("Evaluations", el("input", { id: "evaluations", name: "evaluations", type: "number", min: 1, value: 50,
      required: true })),
    field("Minutes", el("input", { id: "minutes", name: "minutes", type: "number", min: 1, placeholder: "no limit" })),
    field("LLM model", el("input", { id: "model", name: "model", type: "text",
      placeholder: "e.g. openai/gpt-4o; empty: the template operator only, no LLM" }),
    "Any litellm model string; its key must be in the environment of the machine the run runs on."),
    field("More settings (JSON)", el("textarea", { id: "settings", name: "settings", rows: 3,
      placeholder: '{"descriptors": "metadata", "islands": 2, "evaluation": {"device": "cpu"}}' }),
    "Any run setting (kernelevo run --help lists them); the fields above take precedence."),
    el("p", {}, el("button", { type: "submit", id: "start" }, "Check the spec and start the run")),
    status);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!token()) { fill(status, errorBox(NEED_TOKEN)); return; }
    const specFile = form.spec.files[0];
    if (!specFile && !existing.value) { fill(status, errorBox("choose a spec file or a stored spec")); return; }
    if (!(Number(form.evaluations.value) >= 1)) {
      fill(status, errorBox("evaluations must be a whole number, 1 or more"));
      return;
    }
    form.start.disabled = true;
    try {
      const config = runConfig(form);
      let specId = Number(existing.value);
      if (specFile) {
        fill(status, el("p", { class: "muted" }, "Checking the spec in an isolated child…"));
        const stored = await storeSpec(specFile, form.seeds.files, form.name.value.trim());
        specId = stored.id;
        // what the check found about the reference's own precision, said before any GPU time is spent where the
        // judge will refuse the spec or its own tolerance misses the reference (a widened default needs no one)
        const warnings = ((stored.report || {}).precision || [])
          .filter((p) => p.judged === "refused" || p.judged === "too_tight").map((p) => p.note);
        if (warnings.length) {
          const anyway = el("button", { type: "button", id: "start-anyway" }, "Start the run anyway");
          anyway.addEventListener("click", () => startRun(specId, config));
          fill(status, el("div", { class: "notice spec-warnings", role: "alert" },
            el("p", {}, "The spec was stored. Its check found:"),
            el("ul", {}, ...warnings.map((note) => el("li", {}, note))),
            el("p", {}, anyway, " or change the spec's tolerance and submit it again.")));
          return;
        }
      }
      await startRun(specId, config);
    } catch (error) {
      fill(status, errorBox(error.message));
    } finally {
      form.start.disabled = false;
    }
  });

  async function startRun(specId, config) {
    try {
      fill(status, el("p", { class: "muted" }, "Starting the run…"));
      const run = await api("/api/runs", { method: "POST", json: { spec_id: specId, config } });
      location.hash = `#/runs/${run.id}`;
    } catch (error) {
      fill(status, errorBox(error.message));
    }
  }

  // the notice asking for a token goes as soon as one is entered (and comes back if it is cleared), and with
  // it the error that the last attempt without one left
  const notice = el("div");
  const ask = () => {
    fill(notice, token() ? null : el("p", { class: "notice need-token" }, `Starting a run needs a token: ${NEED_TOKEN}.`));
    if (token() && status.textContent.includes(NEED_TOKEN)) fill(status);
  };
  ask();
  window.addEventListener("kernelevo-token", ask);
  page.onLeave(() => window.removeEventListener("kernelevo-token", ask));
  fill(root, el("h1", {}, "Start a run"), notice, form);
}
