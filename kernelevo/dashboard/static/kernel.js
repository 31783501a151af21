// A kernel: its evaluation in full (with the vendor-library calls it made, when its record holds them), its
// lineage back to the seed, a diff against each parent, its highlighted source, the prompt and model that
// made it, its drop-in module to download, and a way to compare it with any other kernel.

import { CPU_NOTE, api, badge, download, el, errorBox, fill, ms, num, pct, speed } from "./util.js";
import { diffView, highlighted } from "./code.js";

const bytes = (x) => (x === null || x === undefined ? "–" : x >= 1 << 20 ? `${(x / (1 << 20)).toFixed(1)} MiB`
  : x >= 1024 ? `${(x / 1024).toFixed(1)} KiB` : `${x} B`);

// an infinite or NaN error reaches the page as null (JSON has no such numbers)
const errorText = (x) => (x === null || x === undefined ? "not finite" : Number(x).toPrecision(3));

function kv(pairs) {
  return el("dl", { class: "kv" }, pairs.filter(([, v]) => v !== undefined).flatMap(([k, v, field]) =>
    [el("dt", {}, k), el("dd", field ? { dataset: { field } } : {}, v === null || v === "" ? "–" : v)]));
}

// Where a timing ran: the kernel of a CPU run in Triton's interpreter; the baselines (eager PyTorch,
// torch.compile) of a CPU run natively on the CPU, never interpreted.
function timedWhere(t, cpuRun) {
  if (t.interpreted) return el("span", { class: "cpu", title: CPU_NOTE }, `${t.method}, Triton's interpreter`);
  return cpuRun ? el("span", { class: "cpu" }, `${t.method}, on the CPU`) : t.method;
}

export function timingRow(name, t, interpreted) {
  if (!t) return el("tr", {}, el("td", {}, name), el("td", { colspan: 6, class: "muted" }, "not measured"));
  return el("tr", { dataset: { timing: name } },
    el("td", {}, name), el("td", { class: "num", dataset: { field: "median_ms" } }, ms(t.median_ms)),
    el("td", { class: "num" }, `±${(100 * t.iqr_ms / t.median_ms / 2).toFixed(1)}%`),
    el("td", { class: "num" }, ms(t.min_ms)), el("td", { class: "num" }, ms(t.mean_ms)),
    el("td", { class: "num" }, num(t.repetitions)),
    el("td", {}, timedWhere(t, interpreted),
      t.l2_flushed ? ", L2 flushed" : "", t.input_sets > 1 ? `, ${t.input_sets} input sets` : ""));
}

// The vendor-library kernels the candidate's forward ran through torch (the library policy allows GEMMs,
// convolutions, attention, RNNs), and their share of its GPU time. Records from before it have none.
export function libraryPanel(library, interpreted) {
  if (!library || !library.calls?.length) return null;
  const share = library.gpu_share;
  return el("div", { class: "library" }, el("h4", {}, "Library calls"),
    el("p", { dataset: { field: "library_share" } }, share === null || share === undefined
      ? el("span", { class: "muted" }, interpreted ? "no GPU share: a CPU run" : "their share of GPU time was not measured")
      : [el("strong", {}, pct(share)), " of the kernel's GPU time ran in library kernels",
        library.library_ms ? ` (${ms(library.library_ms)} a forward)` : ""]),
    el("div", { class: "scroll" }, el("table", { class: "library-calls" },
      el("thead", {}, el("tr", {}, ["Op", "Family", "Signature", "Calls per forward"].map((h, k) =>
        el("th", { class: k === 3 ? "num" : null, scope: "col" }, h)))),
      el("tbody", {}, library.calls.map((c) => el("tr", { dataset: { op: c.op } }, el("td", {}, el("code", {}, c.op)),
        el("td", {}, c.family || "–"), el("td", {}, c.signature || "–"), el("td", { class: "num" }, num(c.count ?? 1))))))));
}

// The floor that applies: "read" (a kernel that reads more than it writes, at the read bandwidth), "copy"
// or "compute". Records from before reads and writes were told apart name none and count bytes moved only.
function floorText(roof) {
  const moved = roof.bytes_read === null || roof.bytes_read === undefined ? `${bytes(roof.bytes_moved)} moved`
    : `${bytes(roof.bytes_read)} read, ${bytes(roof.bytes_written)} written`;
  return `${ms(roof.floor_ms)}${roof.floor ? `, the ${roof.floor} floor` : ""} (${moved}, ${num(roof.flops)} FLOPs)`;
}

// e: one of the candidate's evaluations; listed: the same evaluation as the run's list has it (its number in
// the run, its library calls), or undefined
function evaluation(e, listed) {
  const r = e.result, interpreted = r.interpreted, env = r.environment;
  const verdict = r.correct && !r.error ? badge("correct") : badge("rejected");
  verdict.classList.add(r.correct && !r.error ? "finished" : "failed");
  const speedups = interpreted
    ? [["Speedups", el("span", { class: "cpu", title: CPU_NOTE }, "none: a CPU run's interpreted times are not GPU speeds")]]
    : [["Speedup over eager", speed(r.speedup_eager), "speedup_eager"],
      ["Speedup over torch.compile", r.compile_baseline_error ? `– (${r.compile_baseline_error})`
        : speed(r.speedup_compile), "speedup_compile"],
      ["Roofline fraction", r.roofline?.fraction === null || r.roofline?.fraction === undefined ? null
        : `${pct(r.roofline.fraction)}${r.roofline.floor ? ` (${r.roofline.floor})` : ""}`, "roofline"],
      ["Roofline floor", r.roofline ? floorText(r.roofline) : null, "roofline_floor"]];
  return el("section", { class: "panel evaluation", dataset: { hardware: e.hardware } },
    el("h3", {}, `On ${e.hardware} `, verdict, interpreted ? el("span", { class: "cpu" }, " CPU run") : null,
      listed ? el("span", { class: "muted small" }, ` evaluation #${num(listed.number)} of the run`) : null),
    r.error ? errorBox(`${r.error} at ${r.stage}: ${r.message}`) : null,
    r.mismatch ? el("p", { class: "muted" }, `Mismatch: output[${r.mismatch.output_index}] of ${r.mismatch.variant}: ` +
      `${r.mismatch.mismatched}/${r.mismatch.total} elements off, max abs error ${errorText(r.mismatch.max_abs_error)}`)
      : null,
    kv([["Stage reached", r.stage, "stage"], ["Archive", e.archive_status ? `${e.archive_status}` +
      (e.cell !== null ? ` (cell ${e.cell}, island ${e.island})` : "") : null, "archive_status"],
      ["Objective", e.objective === null ? null : `${e.objective.toFixed(4)} (ln of the ${interpreted
        ? "interpreted time ratio" : "speedup over eager"})`],
      ["Descriptors", e.measures ? e.measures.map((m) => m.toFixed(2)).join(", ") : null],
      ...speedups, ["Variants checked", r.variants_checked.join(", "), "variants"],
      ["Tolerance", r.tolerances?.length ? r.tolerances.map((t) => `${t.variant}: atol = rtol = ${t.atol}, widened ` +
        `from ${t.default} (the reference is ${t.reference_error.toPrecision(3)}x that from float64: ${t.why})`)
        .join("; ") : undefined, "tolerance"],
      ["Launches per call", num(r.launches)], ["Memory", r.memory ? `child peak ${bytes(r.memory.child_peak_bytes)}, ` +
        `live data ${bytes(r.memory.live_data_bytes)}` : null]]),
    el("h4", {}, "Timings", interpreted ? el("span", { class: "cpu" }, " (Triton's interpreter on a CPU)") : null),
    el("div", { class: "scroll" }, el("table", { class: "timings" },
      el("thead", {}, el("tr", {}, ["", "Median", "Spread (IQR/2)", "Min", "Mean", "Repetitions", "Method"].map(
        (h, k) => el("th", { class: k && k < 6 ? "num" : null, scope: "col" }, h)))),
      el("tbody", {}, timingRow("kernel", r.kernel, interpreted), timingRow("eager", r.eager, interpreted),
        timingRow("torch.compile", r.compiled, interpreted)))),
    libraryPanel(r.library ?? listed?.library, interpreted),
    r.kernels.length ? [el("h4", {}, "Compiled kernels"), el("div", { class: "scroll" }, el("table", { class: "kernels" },
      el("thead", {}, el("tr", {}, ["Kernel", "Launches", "Registers", "Spills", "Shared memory", "Warps", "Stages",
        "Compiled"].map((h, k) => el("th", { class: k && k < 7 ? "num" : null, scope: "col" }, h)))),
      el("tbody", {}, r.kernels.map((k) => el("tr", {}, el("td", {}, k.name), el("td", { class: "num" }, num(k.launches)),
        el("td", { class: "num" }, num(k.registers)), el("td", { class: "num" }, num(k.spills)),
        el("td", { class: "num" }, bytes(k.shared_bytes)), el("td", { class: "num" }, num(k.num_warps)),
        el("td", { class: "num" }, num(k.num_stages)), el("td", {}, k.error ? `${k.source}: ${k.error}` : k.source))))))]
      : null,
    env ? el("details", {}, el("summary", {}, `Hardware and versions: ${env.device_name}`), kv([
      ["Device", `${env.device_name} (${env.device})`], ["Compute capability", env.compute_capability],
      ["SMs", num(env.sm_count)], ["L2", bytes(env.l2_bytes)], ["Driver", env.driver], ["CUDA", env.cuda],
      ["torch", env.torch], ["Triton", env.triton], ["Python", env.python], ["Host", env.hostname]])) : null,
    el("details", {}, el("summary", {}, "Where the evaluation's time went"), kv(Object.entries(r.costs)
      .filter(([, v]) => typeof v === "number").map(([k, v]) => [k.replace(/_s$/, ""), `${v.toFixed(3)} s`]))));
}

function lineage(steps, here) {
  return el("ol", { class: "lineage", "aria-label": "lineage back to the seed" }, steps.map((s) => el("li", {
    class: s.id === here ? "here" : null, dataset: { candidate: s.id } },
    s.id === here ? el("strong", {}, `#${s.number}`) : el("a", { href: `#/candidates/${s.id}` }, `#${s.number}`),
    ` ${s.operator}`, s.note ? el("span", { class: "muted" }, ` · ${s.note}`) : null,
    s.added_lines === null ? el("span", { class: "muted" }, " · the seed")
      : el("span", { class: "muted" }, ` · +${s.added_lines} −${s.removed_lines} lines`))));
}

async function saveModule(candidate, specName, status) {
  try {
    await download(`/api/candidates/${candidate.id}/module`,
      `${specName}-run${candidate.run_id}-candidate${candidate.number}.py`);
  } catch (error) {
    fill(status, errorBox(`download failed: ${error.message}`));
  }
}

function promptPanel(candidate) {
  const p = candidate.prompt, u = candidate.usage;
  if (!candidate.model && !p) return el("p", { class: "muted" }, "Made without an LLM.");
  return el("div", {}, kv([["Model", candidate.model], ["Tokens", u ? `${num(u.prompt_tokens)} in, ` +
    `${num(u.completion_tokens)} out` : null], ["Cost", !u ? null : u.cost_known ? `$${(u.cost_usd || 0).toFixed(4)}` : "the model's price is unknown"],
    ["Meta-prompt", p ? el("a", { href: `#/runs/${candidate.run_id}/prompts` }, `#${p.number}`) : null]]),
    p ? Object.entries(p.sections).map(([name, text]) => el("details", {}, el("summary", {}, name),
      el("pre", { class: "prompt-text" }, text))) : null);
}

// "Compare with kernel #N of this run": the other kernel's number, then the comparison page.
function compareForm(candidate, status) {
  const input = el("input", { type: "number", min: 0, "aria-label": "the kernel to compare with",
    placeholder: "kernel #" });
  return el("form", { class: "inline compare-with", onsubmit: async (event) => {
    event.preventDefault();
    if (input.value === "") return;
    try {
      const other = await api(`/api/runs/${candidate.run_id}/candidates/${Number(input.value)}`);
      location.hash = `#/compare/candidates/${candidate.id}/${other.id}`;
    } catch (error) {
      fill(status, errorBox(error.message));
    }
  } }, el("label", {}, "with kernel ", input, " of this run"), " ", el("button", { class: "secondary" }, "Compare"));
}

// which: {id} or {run, number}
export async function kernelView(root, which) {
  const candidate = await api(which.id ? `/api/candidates/${which.id}`
    : `/api/runs/${which.run}/candidates/${which.number}`);
  const [run, steps, parents, listed] = await Promise.all([api(`/api/runs/${candidate.run_id}`),
    api(`/api/candidates/${candidate.id}/lineage`),
    Promise.all(candidate.parents.map((p) => api(`/api/candidates/${p.id}`))),
    api(`/api/runs/${candidate.run_id}/evaluations?candidate=${candidate.number}&limit=50`)]);
  const inList = (e) => listed.items.find((item) => item.hardware === e.hardware);
  document.title = `Kernel #${candidate.number} · run #${candidate.run_id} · kernelevo`;
  const status = el("div", { role: "status" });
  fill(root,
    el("div", { class: "title-row" },
      el("h1", {}, `Kernel #${candidate.number} `, el("span", { class: "muted" }, "of "),
        el("a", { href: `#/runs/${run.id}` }, `run #${run.id} · ${run.spec_name}`)),
      el("button", { onclick: () => saveModule(candidate, run.spec_name, status) }, "Download the drop-in module")),
    el("p", { class: "muted" }, `${candidate.operator}`, candidate.note ? ` · ${candidate.note}` : "",
      ` · island ${candidate.island} · made ${new Date(candidate.created_at * 1000).toLocaleString()}`),
    status,
    el("div", { class: "row" },
      el("div", { class: "grow" }, el("h2", {}, "Evaluation"), candidate.evaluations.length
        ? candidate.evaluations.map((e) => evaluation(e, inList(e)))
        : el("div", { class: "empty" }, "Not evaluated yet.")),
      el("div", { class: "side" }, el("h2", {}, "Lineage"), lineage(steps, candidate.id),
        candidate.children.length ? [el("h2", {}, "Children"), el("ul", { class: "children" }, candidate.children.map(
          (c) => el("li", {}, el("a", { href: `#/candidates/${c.id}` }, `#${c.number}`), ` ${c.operator}`)))] : null,
        el("h2", {}, "Prompt and model"), promptPanel(candidate),
        el("h2", {}, "Compare"), compareForm(candidate, status))),
    parents.map((parent) => el("section", { class: "parent-diff", dataset: { parent: parent.id } },
      el("h2", {}, "Diff against parent ", el("a", { href: `#/candidates/${parent.id}` }, `#${parent.number}`),
        el("span", { class: "muted" }, ` (${parent.operator})`)),
      el("p", { class: "small" }, el("a", { href: `#/compare/candidates/${parent.id}/${candidate.id}` },
        `#${parent.number} and #${candidate.number} side by side, with their timings`)),
      diffView(parent.source, candidate.source))),
    el("h2", {}, "Source"), highlighted(candidate.source));
}
