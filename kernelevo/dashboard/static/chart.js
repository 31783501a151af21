// A line chart in SVG: one series over time, axes labelled with their units.

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// points: [[x seconds into the run, y], ...]
// format: how a y value is written (default: as many decimals as the range needs)
export function lineChart(points, { label, unit, format, empty = "no data yet", name }) {
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
  let y0 = Math.min(...ys), y1 = Math.max(...ys);
  if (y0 === y1) { y0 -= 1; y1 += 1; }
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
