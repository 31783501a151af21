// The MAP-Elites archive of one hardware type as a heatmap over two chosen descriptor axes.
//
// Each elite sits in one cell of the full grid (every descriptor, every island); a heatmap cell
// shows the best elite among all that share its two chosen bins (the other axes reduced to their
// best), and a note says how many cells of the full archive were merged into those shown. Colour is
// the objective on a log scale: the natural log of the speedup over PyTorch eager, so 1x is neutral,
// faster is blue and slower is red, over the archive's whole range (scale.js). A CPU run's times come
// from Triton's interpreter: its colours rank kernels, and no number in it is shown as a GPU speedup.

import { CPU_NOTE, el, fill, ms, num, pct, speed } from "./util.js";
import { colourBar, colourOf, logColourScale } from "./scale.js";

export function binOf(axis, value) {
  const k = Math.floor(((value - axis.low) / (axis.high - axis.low)) * axis.cells);
  return Math.max(0, Math.min(axis.cells - 1, k));
}

function binLabel(axis, k) {
  const width = (axis.high - axis.low) / axis.cells;
  const lo = axis.low + k * width;
  if (width === 1 && Number.isInteger(lo)) return String(lo);
  const f = (x) => (Number.isInteger(x) ? String(x) : x.toPrecision(2));
  return `${f(lo)}–${f(lo + width)}`;
}

// The text a cell's best elite shows: its speedup on a GPU, its number on a CPU run.
function cellText(elite, interpreted) {
  return interpreted ? `#${elite.candidate_number}` : speed(elite.speedup_eager ?? Math.exp(elite.objective));
}

function eliteLine(elite, axes, interpreted) {
  const value = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
  const where = axes.map((a, k) => `${a.name} ${value(elite.measures[k])}`).join(", ");
  const numbers = interpreted
    ? [el("span", { class: "cpu", title: CPU_NOTE }, `interpreter time ratio ${Math.exp(elite.objective).toFixed(2)}`)]
    : [`${speed(elite.speedup_eager)} eager`, `${speed(elite.speedup_compile)} torch.compile`,
      `${pct(elite.roofline)} of roofline${elite.roofline_floor ? ` (${elite.roofline_floor})` : ""}`,
      ms(elite.kernel_ms)];
  return el("li", { dataset: { candidate: elite.candidate_id } },
    el("a", { href: `#/candidates/${elite.candidate_id}` }, `Kernel #${elite.candidate_number}`),
    ` · ${elite.operator} · `, numbers.flatMap((n, k) => (k ? [" · ", n] : [n])),
    el("div", { class: "muted small" }, `${where}; island ${elite.island}; spread ±${(100 * elite.rel_iqr).toFixed(1)}%`));
}

// hardware: one entry of /api/runs/{id}/archive's "hardware"; choice: {x, y} kept across redraws.
export function heatmap(hardware, choice) {
  const axes = hardware.descriptors, interpreted = hardware.interpreted;
  const root = el("section", { class: "panel archive", dataset: { hardware: hardware.hardware } });
  const detail = el("div", { class: "cell-detail", "aria-live": "polite" });
  const x = () => axes[choice.x], y = () => (choice.y === null ? null : axes[choice.y]);

  const chooser = (label, key, allowNone) => el("label", {}, `${label} `,
    el("select", { "aria-label": `${label} axis`, dataset: { axis: key }, onchange: (e) => {
      choice[key] = e.target.value === "" ? null : Number(e.target.value);
      choice.selected = null;
      draw();
    } }, allowNone ? el("option", { value: "", selected: choice[key] === null }, "none") : null,
    axes.map((a, k) => el("option", { value: k, selected: choice[key] === k, title: a.doc }, a.name))));

  function draw() {
    const xa = x(), ya = y(), rows = ya ? ya.cells : 1;
    const cells = new Map();  // "xi,yi" -> elites there, best first (the API sends them best first)
    for (const elite of hardware.elites) {
      const key = `${binOf(xa, elite.measures[choice.x])},${ya ? binOf(ya, elite.measures[choice.y]) : 0}`;
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(elite);
    }
    const scale = logColourScale(hardware.elites.map((e) => e.objective));
    const grid = el("div", { class: "heatmap", role: "grid", "aria-label": `archive on ${hardware.hardware}`,
      style: `grid-template-columns: max-content repeat(${xa.cells}, minmax(44px, 1fr))` });
    for (let yi = rows - 1; yi >= 0; yi--) {
      const row = el("div", { role: "row", class: "heatmap-row" });
      row.append(el("div", { class: "axis tick", role: "rowheader" }, ya ? binLabel(ya, yi) : ""));
      for (let xi = 0; xi < xa.cells; xi++) {
        const key = `${xi},${yi}`, found = cells.get(key);
        const place = `${xa.name} ${binLabel(xa, xi)}${ya ? `, ${ya.name} ${binLabel(ya, yi)}` : ""}`;
        if (!found) {
          row.append(el("div", { role: "gridcell", class: "cell empty", "aria-label": `${place}: empty`,
            title: `${place}: no elite yet` }));
          continue;
        }
        const best = found[0], { background, ink } = colourOf(scale, best.objective);
        row.append(el("button", {
          role: "gridcell", class: `cell${choice.selected === key ? " selected" : ""}`,
          style: `background:${background};color:${ink}`, dataset: { cell: key, candidate: best.candidate_id },
          title: interpreted ? `${place}: kernel #${best.candidate_number}` : `${place}: kernel ` +
            `#${best.candidate_number}, ${ms(best.kernel_ms)}, ${cellText(best, false)} over eager`,
          "aria-label": `${place}: best ${interpreted ? `kernel #${best.candidate_number}` : cellText(best, false) +
            " over eager"}, ${found.length} elite${found.length > 1 ? "s" : ""}`,
          // Redrawing replaces the buttons: keep keyboard focus on the chosen cell.
          onclick: () => { choice.selected = key; draw(); body.querySelector(`[data-cell="${key}"]`)?.focus(); },
        }, cellText(best, interpreted)));
      }
      grid.append(row);
    }
    const ticks = el("div", { role: "row", class: "heatmap-row" }, el("div", { class: "axis" }, ""));
    for (let xi = 0; xi < xa.cells; xi++) ticks.append(el("div", { class: "axis tick" }, binLabel(xa, xi)));
    grid.append(ticks);

    const selected = choice.selected && cells.get(choice.selected);
    fill(detail, selected
      ? el("div", {}, el("h3", {}, `${selected.length} elite${selected.length > 1 ? "s" : ""} in this cell`),
        el("ul", { class: "elites" }, selected.slice(0, 25).map((e) => eliteLine(e, axes, interpreted))))
      : el("p", { class: "muted" }, hardware.elites.length ? "Choose a cell to see its elites." : ""));

    fill(counts, `${num(cells.size)} of ${num(xa.cells * rows)} cells filled`);
    fill(body,
      hardware.elites.length ? null : el("div", { class: "empty" }, "No elites yet: no correct kernel on this hardware."),
      mergedNote(cells.size, xa.cells * rows),
      el("div", { class: "heatmap-frame" }, el("div", { class: "axis-title y" }, ya ? ya.name : ""), grid),
      el("div", { class: "axis-title x" }, `${xa.name}: ${xa.doc}`),
      hardware.elites.length ? colourBar(scale, { label: interpreted
        ? "CPU run: Triton-interpreter time against eager PyTorch on the CPU (log scale), not a GPU speed; the " +
          "best in each cell, hatched cells are empty"
        : "speedup over PyTorch eager (log scale), the best in each cell; 1× is neutral, hatched cells are empty" })
        : null, detail);
  }

  // The full archive has a cell for every combination of every descriptor's bins, on each island: say how
  // many of its filled cells were merged into the ones shown, and how.
  function mergedNote(shownFilled, shown) {
    const islands = new Set(hardware.elites.map((e) => e.island)).size;
    const hidden = axes.filter((_, k) => k !== choice.x && k !== choice.y).map((a) => a.name);
    if (!hardware.elites.length || (!hidden.length && islands <= 1)) return null;
    const merged = [hidden.length ? `the ${hidden.join(" and ")} bins` : null, islands > 1 ? "the islands" : null]
      .filter(Boolean).join(" and ");
    return el("p", { class: "merged-note muted small" },
      `${num(hardware.cells_filled)} filled cell${hardware.cells_filled === 1 ? "" : "s"} of the full archive ` +
      `(${num(hardware.cells_total)} cells: ${axes.map((a) => a.name).join(" × ")}` +
      `${islands > 1 ? `, on each of ${islands} islands` : ""}) map onto ${num(shownFilled)} of the ${num(shown)} ` +
      `cells shown; each shows the best over ${merged}.`);
  }

  const body = el("div"), counts = el("span", { class: "muted cells-filled" });
  root.append(
    el("div", { class: "title-row" },
      el("h3", {}, `Archive on ${hardware.hardware}`, interpreted ? el("span", { class: "cpu" }, " (CPU run)") : null),
      counts,
      el("span", { class: "choosers" }, chooser("X", "x", false), axes.length > 1 ? chooser("Y", "y", true) : null)),
    body);
  draw();
  return root;
}
