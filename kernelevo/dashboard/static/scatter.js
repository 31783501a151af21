// Every evaluation of a run on one canvas (a long run has tens of thousands): its speedup over eager or its
// kernel time, on a log scale, against its number in the run, coloured by the operator that made it.
// Rejected evaluations are marked × on a strip below the plot, in their operator's colour. Hovering a
// point names it; clicking it (or Enter on the one chosen with the arrow keys) opens its kernel's page.
// A CPU run's times come from Triton's interpreter: it offers its time ratio to eager, never a speedup.

import { el, fill, ms, num, operatorColour, speed } from "./util.js";
import { logTicks, times } from "./scale.js";

const HEIGHT = 320, LEFT = 64, RIGHT = 14, TOP = 12, AXIS = 26, STRIP = 16, GAP = 10, RADIUS = 2.6, REACH = 8;
const INK = "#5d6b78", GRID = "#e6e9ed";

const MODES = {
  speedup: { label: "speedup over PyTorch eager (×, log scale)", value: (d, k) => d.speedup_eager[k], tick: times },
  time: { label: "kernel time (ms, log scale)", value: (d, k) => d.kernel_ms[k], tick: (v) => `${v} ms` },
  ratio: { label: "interpreted time ratio over eager (×, log scale; not a GPU speed)",
    value: (d, k) => (d.objective[k] === null ? null : Math.exp(d.objective[k])), tick: times },
};

function linearTicks(x1) {
  const raw = Math.max(1, x1 / 7), step = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw)))
    .find((s) => s >= raw);
  const ticks = [1];
  for (let x = step; x <= x1; x += step) ticks.push(x);
  return ticks;
}

// Columns of /api/runs/{id}/evaluations/points, their name indices made the page's own (each reply has its own).
function merged(into, more) {
  for (const [names, column] of [["operators", "operator"], ["hardware", "hardware_index"], ["errors", "error"]]) {
    const index = more[names].map((name) => {
      let k = into[names].indexOf(name);
      if (k < 0) k = into[names].push(name) - 1;
      return k;
    });
    into[column].push(...more[column].map((k) => (k < 0 ? k : index[k])));
  }
  for (const column of ["candidate_id", "candidate_number", "correct", "kernel_ms", "speedup_eager", "objective"]) {
    into[column].push(...more[column]);
  }
  into.interpreted ||= more.interpreted;
  return into;
}

export function scatter({ onOpen = (id) => { location.hash = `#/candidates/${id}`; } } = {}) {
  const data = { operators: [], hardware: [], errors: [], operator: [], hardware_index: [], error: [], candidate_id: [],
    candidate_number: [], correct: [], kernel_ms: [], speedup_eager: [], objective: [], interpreted: false };
  const view = { mode: null, hardware: -1, hidden: new Set(), selected: -1 };
  let layout = { xs: new Float32Array(0), ys: new Float32Array(0), ks: new Int32Array(0) };

  const canvas = el("canvas", { class: "scatter", tabindex: "0", role: "img",
    "aria-label": "every evaluation; arrow keys choose one, Enter opens its kernel" });
  const tip = el("div", { class: "scatter-tip", role: "tooltip" });
  const frame = el("div", { class: "scatter-frame" }, canvas, tip);
  const controls = el("div", { class: "filters" }), legend = el("div", { class: "scatter-legend" });
  const detail = el("p", { class: "scatter-detail small", "aria-live": "polite" });
  const root = el("div", { class: "scatter-panel" }, controls, frame,
    el("div", { class: "axis-title x" }, "evaluation: its number in the run, in the order they finished"), legend,
    detail);

  const modes = () => (data.interpreted ? ["time", "ratio"] : ["speedup", "time"]);
  const label = (k) => {
    const op = data.operators[data.operator[k]], hw = data.hardware[data.hardware_index[k]];
    const head = `Evaluation #${num(k + 1)} · kernel #${data.candidate_number[k]} · ${op} · ${hw}`;
    if (!data.correct[k]) return `${head} · rejected: ${data.errors[data.error[k]]}`;
    const speedText = data.interpreted ? `${ms(data.kernel_ms[k])} interpreted`
      : `${ms(data.kernel_ms[k])} · ${speed(data.speedup_eager[k])} eager`;
    return `${head} · ${speedText}`;
  };

  function drawControls() {
    view.mode ||= modes()[0];
    fill(controls,
      el("label", {}, "Y ", el("select", { "aria-label": "scatter y axis", onchange: (e) => {
        view.mode = e.target.value;
        draw();
      } }, modes().map((m) => el("option", { value: m, selected: m === view.mode }, MODES[m].label)))),
      data.hardware.length > 1 ? el("label", {}, "Hardware ", el("select", { "aria-label": "scatter hardware",
        onchange: (e) => { view.hardware = Number(e.target.value); draw(); } },
      el("option", { value: -1 }, "all"), data.hardware.map((h, k) => el("option", { value: k,
        selected: k === view.hardware }, h)))) : null);
  }

  function drawLegend(counts, rejected, untimed) {
    fill(legend, data.operators.map((name, k) => el("button", { class: "legend-item secondary",
      "aria-pressed": String(!view.hidden.has(k)), dataset: { operator: name }, title: "show or hide its points",
      onclick: () => { view.hidden.has(k) ? view.hidden.delete(k) : view.hidden.add(k); draw(); } },
    el("span", { class: "swatch", style: `background:${operatorColour(k)}` }), `${name} (${num(counts[k] || 0)})`)),
    el("span", { class: "muted small" }, `× rejected: ${num(rejected)}`,
      untimed ? ` · ${num(untimed)} correct without this measure` : ""));
  }

  function draw() {
    drawControls();
    const mode = MODES[view.mode], n = data.candidate_id.length;
    const width = Math.max(320, frame.clientWidth || 800), ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(HEIGHT * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${HEIGHT}px`;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);

    // which points, and the y range of those with a value
    const shown = [], counts = [];
    let lo = Infinity, hi = -Infinity, rejected = 0, untimed = 0;
    for (let k = 0; k < n; k++) {
      if (view.hidden.has(data.operator[k]) || (view.hardware >= 0 && data.hardware_index[k] !== view.hardware)) continue;
      counts[data.operator[k]] = (counts[data.operator[k]] || 0) + 1;
      if (!data.correct[k]) { shown.push(k); rejected++; continue; }
      const v = mode.value(data, k);
      if (!(v > 0)) { untimed++; continue; }
      shown.push(k);
      const y = Math.log(v);
      if (y < lo) lo = y;
      if (y > hi) hi = y;
    }
    if (lo === Infinity) [lo, hi] = [Math.log(0.5), Math.log(2)];
    if (hi - lo < Math.log(1.25)) [lo, hi] = [(lo + hi) / 2 - Math.log(1.25) / 2, (lo + hi) / 2 + Math.log(1.25) / 2];
    [lo, hi] = [lo - 0.04 * (hi - lo), hi + 0.04 * (hi - lo)];
    const bottom = HEIGHT - AXIS - STRIP - GAP, strip = HEIGHT - AXIS - STRIP / 2;
    const sx = (x) => LEFT + ((x - 1) / Math.max(1, n - 1)) * (width - LEFT - RIGHT);
    const sy = (v) => bottom - ((Math.log(v) - lo) / (hi - lo)) * (bottom - TOP);

    ctx.font = "11px system-ui, sans-serif";
    ctx.fillStyle = INK;
    ctx.strokeStyle = GRID;
    ctx.lineWidth = 1;
    ctx.textAlign = "right";
    for (const v of logTicks(lo, hi, 6)) {
      ctx.beginPath(); ctx.moveTo(LEFT, sy(v)); ctx.lineTo(width - RIGHT, sy(v)); ctx.stroke();
      ctx.fillText(mode.tick(v), LEFT - 6, sy(v) + 4);
    }
    if (view.mode !== "time" && lo < 0 && hi > 0) {  // 1×: as fast as eager
      ctx.strokeStyle = INK;
      ctx.setLineDash([4, 3]);
      ctx.beginPath(); ctx.moveTo(LEFT, sy(1)); ctx.lineTo(width - RIGHT, sy(1)); ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillText("rejected", LEFT - 6, strip + 4);
    ctx.strokeStyle = GRID;
    ctx.strokeRect(LEFT, strip - STRIP / 2, width - LEFT - RIGHT, STRIP);
    ctx.textAlign = "center";
    for (const x of linearTicks(Math.max(n, 1))) ctx.fillText(num(x), sx(x), HEIGHT - 8);

    // the points, one path per operator (a few fills, not thousands)
    const xs = new Float32Array(shown.length), ys = new Float32Array(shown.length), ks = new Int32Array(shown);
    shown.forEach((k, j) => {
      xs[j] = sx(k + 1);
      ys[j] = data.correct[k] ? sy(mode.value(data, k)) : strip;
    });
    for (let op = 0; op < data.operators.length; op++) {
      ctx.fillStyle = ctx.strokeStyle = operatorColour(op);
      ctx.globalAlpha = 0.8;
      ctx.beginPath();
      for (let j = 0; j < ks.length; j++) {
        if (data.operator[ks[j]] !== op || !data.correct[ks[j]]) continue;
        ctx.moveTo(xs[j] + RADIUS, ys[j]);
        ctx.arc(xs[j], ys[j], RADIUS, 0, 2 * Math.PI);
      }
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = 1.4;
      ctx.beginPath();
      for (let j = 0; j < ks.length; j++) {
        if (data.operator[ks[j]] !== op || data.correct[ks[j]]) continue;
        ctx.moveTo(xs[j] - 3, ys[j] - 3); ctx.lineTo(xs[j] + 3, ys[j] + 3);
        ctx.moveTo(xs[j] - 3, ys[j] + 3); ctx.lineTo(xs[j] + 3, ys[j] - 3);
      }
      ctx.stroke();
    }
    layout = { xs, ys, ks };
    const chosen = ks.indexOf(view.selected);
    if (chosen >= 0) {
      ctx.strokeStyle = "#14213d";
      ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(xs[chosen], ys[chosen], 6, 0, 2 * Math.PI); ctx.stroke();
    }
    canvas.dataset.points = String(ks.length);
    canvas.setAttribute("aria-label", `${num(n)} evaluations, ${num(rejected)} rejected; ${mode.label} against ` +
      "the evaluation's number; arrow keys choose one, Enter opens its kernel");
    drawLegend(counts, rejected, untimed);
  }

  function nearest(event) {
    const box = canvas.getBoundingClientRect(), x = event.clientX - box.left, y = event.clientY - box.top;
    let best = -1, bestDistance = REACH * REACH;
    for (let j = 0; j < layout.ks.length; j++) {
      const d = (layout.xs[j] - x) ** 2 + (layout.ys[j] - y) ** 2;
      if (d <= bestDistance) [best, bestDistance] = [j, d];
    }
    return best;
  }

  function choose(j) {
    if (j < 0 || j >= layout.ks.length) return;
    view.selected = layout.ks[j];
    draw();
    const k = view.selected;
    fill(detail, el("a", { href: `#/candidates/${data.candidate_id[k]}` }, label(k)));
  }

  canvas.addEventListener("mousemove", (event) => {
    const j = nearest(event);
    canvas.classList.toggle("pointing", j >= 0);
    if (j < 0) { tip.classList.remove("shown"); return; }
    tip.textContent = label(layout.ks[j]);
    tip.style.left = `${Math.min(layout.xs[j] + 10, canvas.clientWidth - 260)}px`;
    tip.style.top = `${Math.max(0, layout.ys[j] - 34)}px`;
    tip.classList.add("shown");
  });
  canvas.addEventListener("mouseleave", () => tip.classList.remove("shown"));
  canvas.addEventListener("click", (event) => {
    const j = nearest(event);
    if (j >= 0) onOpen(data.candidate_id[layout.ks[j]]);
  });
  canvas.addEventListener("keydown", (event) => {
    const at = layout.ks.indexOf(view.selected);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowUp: 1, ArrowDown: -1 }[event.key];
    if (step) choose(at < 0 ? (step > 0 ? 0 : layout.ks.length - 1) : at + step);
    else if (event.key === "Home") choose(0);
    else if (event.key === "End") choose(layout.ks.length - 1);
    else if (event.key === "Enter" && at >= 0) onOpen(data.candidate_id[view.selected]);
    else return;
    event.preventDefault();
  });
  // for tests and tools: where each point is drawn, in CSS pixels from the canvas's top left
  canvas.pointsOnCanvas = () => Array.from(layout.ks, (k, j) => ({ x: layout.xs[j], y: layout.ys[j], number: k + 1,
    candidate_id: data.candidate_id[k], correct: data.correct[k] }));

  // The controls at once and the legend's room kept (style.css): the points arrive after the page is up,
  // and nothing below the scatter moves when they do.
  drawControls();

  let pending = 0;
  const resized = new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => data.candidate_id.length && draw());
  });
  resized.observe(frame);

  return {
    element: root,
    count: () => data.candidate_id.length,
    // more: a reply of /points?after=count()
    add(more) {
      if (more.after !== data.candidate_id.length) return;  // an answer to an earlier ask: already added
      merged(data, more);
      draw();
    },
    stop: () => resized.disconnect(),
  };
}
