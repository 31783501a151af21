// A line chart in SVG: one series over time, axes labelled with their units.

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The y range: `range` fixed ([0, 100] for a percentage of time), else the data's, widened to at least
// `minSpan` (a series that barely moves is not drawn as a cliff) and kept within `floor` and `ceiling`.
function yRange(ys, { range, minSpan = 0, floor = -Infinity, ceiling = Infinity }) {
  if (range) return range;
  let y0 = Math.min(...ys), y1 = Math.max(...ys);
  if (y1 - y0 < minSpan) {
    const middle = (y0 + y1) / 2;
    [y0, y1] = [middle - minSpan / 2, middle + minSpan / 2];
  }
  if (y0 < floor) [y0, y1] = [floor, y1 + floor - y0];
  if (y1 > ceiling) [y0, y1] = [Math.max(floor, y0 - (y1 - ceiling)), ceiling];
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  return [y0, y1];
}

// points: [[x seconds into the run, y], ...]
// format: how a y value is written (default: as many decimals as the range needs)
// range, minSpan, floor, ceiling: the y axis's extent (yRange)
export function lineChart(points, { label, unit, format, empty = "no data yet", name, ...extent }) {
  const width = 480, height = 200, left = 52, right = 12, top = 22, bottom = 26;
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `${label} over time`, "data-chart": name || label });
  root.append(svg("text", { x: left, y: 14 }, `${label} (${unit})`));
  if (!points.length) {
    root.append(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, empty));
    return root;
  }
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const [y0, y1] = yRange(ys, extent);
  const span = y1 - y0;
  format ||= (y) => y.toFixed(span < 0.5 ? 3 : span < 5 ? 2 : span < 50 ? 1 : 0);
  const sx = (x) => left + ((x - x0) / (x1 - x0)) * (width - left - right);
  const sy = (y) => height - bottom - ((y - y0) / (y1 - y0)) * (height - top - bottom);
  root.append(svg("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, stroke: "#c5ccd3" }));
  for (const y of [y0, (y0 + y1) / 2, y1]) {
    root.append(svg("text", { x: left - 6, y: sy(y) + 4, "text-anchor": "end" }, format(y)));
  }
  root.append(svg("text", { x: left, y: height - 8 }, `${(x0 / 60).toFixed(1)} min`));
  root.append(svg("text", { x: width - right, y: height - 8, "text-anchor": "end" }, `${(x1 / 60).toFixed(1)} min`));
  const path = points.map((p, k) => `${k ? "L" : "M"}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(" ");
  root.append(svg("path", { d: path, fill: "none", stroke: "#2457a6", "stroke-width": 2 }));
  const last = points[points.length - 1];
  root.setAttribute("aria-label", `${label} over time; now ${format(last[1])} ${unit}`);
  root.append(svg("circle", { cx: sx(last[0]), cy: sy(last[1]), r: 3.5, fill: "#2457a6" }));
  return root;
}

// Several step series over one x axis (e.g. two runs' best speedup against their evaluation number), each
// in its colour with its name in the legend. series: [{name, colour, points: [[x, y], ...], end: the last x}];
// log: a log y axis.
export function stepChart(series, { label, unit, xLabel, format = (y) => y.toPrecision(3), log = false, name,
  empty = "no data" }) {
  const width = 900, height = 260, left = 56, right = 16, top = 36, bottom = 30;
  const root = svg("svg", { class: "chart steps", viewBox: `0 0 ${width} ${height}`, role: "img",
    "data-chart": name || label,
    "aria-label": `${label} against ${xLabel}` });
  root.append(svg("text", { x: left, y: 14 }, `${label} (${unit})`));
  const all = series.flatMap((s) => s.points);
  if (!all.length) {
    root.append(svg("text", { x: width / 2, y: height / 2, "text-anchor": "middle" }, empty));
    return root;
  }
  const f = log ? Math.log : (y) => y;
  const x1 = Math.max(...all.map((p) => p[0]), ...series.map((s) => s.end ?? 2), 2);
  const [y0, y1] = yRange(all.map((p) => f(p[1])), { minSpan: log ? Math.log(1.2) : 0.1 });
  const sx = (x) => left + ((x - 1) / (x1 - 1)) * (width - left - right);
  const sy = (y) => height - bottom - ((f(y) - y0) / (y1 - y0)) * (height - top - bottom);
  root.append(svg("line", { x1: left, y1: height - bottom, x2: width - right, y2: height - bottom, stroke: "#c5ccd3" }));
  for (const y of [y0, (y0 + y1) / 2, y1]) {
    const value = log ? Math.exp(y) : y;
    root.append(svg("text", { x: left - 6, y: sy(value) + 4, "text-anchor": "end" }, format(value)));
  }
  root.append(svg("text", { x: left, y: height - 8 }, `${xLabel} 1`));
  root.append(svg("text", { x: width - right, y: height - 8, "text-anchor": "end" }, String(x1)));
  series.forEach((s, k) => {
    root.append(svg("text", { x: left + 8 + k * 200, y: 30, fill: s.colour }, `━ ${s.name}`));
    if (!s.points.length) return;
    const last = [s.end ?? x1, s.points[s.points.length - 1][1]];  // held to the series' own end
    const path = [...s.points, last].map((p, j) => (j ? `H${sx(p[0]).toFixed(1)}V${sy(p[1]).toFixed(1)}`
      : `M${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`)).join(" ");
    root.append(svg("path", { d: path, fill: "none", stroke: s.colour, "stroke-width": 2, "data-series": s.name }));
  });
  return root;
}
