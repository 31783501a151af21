// Log scales: the archive's colour scale (the natural log of the speedup over eager, diverging at 1×) with its
// numbered colour bar, and the "nice" ticks of any log axis (speedups, milliseconds).
//
// The colours span the archive's whole range, the slowest elite darkest red and the fastest darkest blue,
// through five steps a side (ColorBrewer's RdBu): two kernels whose speeds differ by 2× never share a colour.

import { el } from "./util.js";

const SLOW = [[247, 247, 247], [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43], [103, 0, 31]];
const FAST = [[247, 247, 247], [209, 229, 240], [146, 197, 222], [67, 147, 195], [33, 102, 172], [5, 48, 97]];
const MIN_SIDE = Math.log(1.1);  // the bar reaches at least 0.91× and 1.1×: 1× is always on it

function ramp(stops, t) {
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(x)), f = x - k;
  return stops[k].map((v, i) => Math.round(v + (stops[k + 1][i] - v) * f));
}

// objectives: ln speedups; the scale from the lowest to the highest of them (held, an end, at least as far
// as 0.91× and 1.1×: then that end is no elite's, as `measured` says)
export function logColourScale(objectives) {
  let lo = -MIN_SIDE, hi = MIN_SIDE;
  for (const o of objectives) {
    if (o < lo) lo = o;
    if (o > hi) hi = o;
  }
  return { lo, hi, measured: { lo: lo < -MIN_SIDE, hi: hi > MIN_SIDE } };
}

// how far out on its side an objective is, 0 (1×) to 1 (the scale's end)
const reach = (scale, objective) => (objective < 0 ? objective / scale.lo : objective / scale.hi);

export function colourOf(scale, objective) {
  const t = reach(scale, objective);
  const [r, g, b] = ramp(objective < 0 ? SLOW : FAST, t);
  return { background: `rgb(${r},${g},${b})`, ink: t > 0.55 ? "#fff" : "#1d2329" };
}

const LADDERS = [[1], [1, 2, 5], [1, 1.5, 2, 3, 5, 7], [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8],
  [1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2, 2.2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9]];

// Round values between e^lo and e^hi (lo, hi: natural logs), at most `most` of them, as many as fit.
export function logTicks(lo, hi, most = 7) {
  const values = (ladder) => {
    const found = [];
    for (let decade = Math.floor(lo / Math.LN10) - 1; decade <= Math.ceil(hi / Math.LN10) + 1; decade++) {
      for (const m of ladder) {
        const v = m * 10 ** decade, x = Math.log(v);
        if (x >= lo - 1e-9 && x <= hi + 1e-9) found.push(Number(v.toPrecision(6)));
      }
    }
    return found;
  };
  let best = values(LADDERS[0]);
  for (const ladder of LADDERS.slice(1)) {
    const found = values(ladder);
    if (found.length > most) break;
    best = found;
  }
  while (best.length > most) best = best.filter((_, k) => k % 2 === 0);  // many decades: every other one
  return best;
}

export const times = (v) => `${v >= 10 ? v.toFixed(0) : Number(v.toPrecision(2))}×`;

// The colour bar: the gradient the cells use, numbered at round speedups and at both ends.
export function colourBar(scale, { label, name = "speedup" }) {
  const span = scale.hi - scale.lo, at = (x) => (100 * (x - scale.lo)) / span;
  const stops = [];
  for (let k = 0; k <= 24; k++) {
    const x = scale.lo + (k / 24) * span;
    stops.push(`${colourOf(scale, x).background} ${(100 * k / 24).toFixed(1)}%`);
  }
  // Both ends are numbered (the slowest and the fastest elite), and round speedups between them where they
  // do not crowd an end; an end that no elite reached gives way to 1× beside it.
  const near = (x, e) => Math.abs(at(x) - at(e)) <= 9;
  const ends = [["lo", scale.lo], ["hi", scale.hi]].filter(([side, e]) => scale.measured?.[side] !== false ||
    !near(0, e)).map(([, e]) => e);
  const inner = logTicks(scale.lo, scale.hi).filter((v) => ends.every((e) => !near(Math.log(v), e)));
  const tick = (x, text, kind) => el("span", { class: `tick ${kind}`, style: `left: ${at(x).toFixed(2)}%`,
    dataset: { value: Math.exp(x).toPrecision(6) } }, text);
  return el("div", { class: "colour-scale", role: "img", dataset: { scale: name },
    "aria-label": `${label}: from ${times(Math.exp(scale.lo))} (red) through 1× to ${times(Math.exp(scale.hi))} (blue)` },
  el("div", { class: "bar", style: `background: linear-gradient(90deg, ${stops.join(", ")})` }),
  el("div", { class: "ticks" }, ends.includes(scale.lo) ? tick(scale.lo, times(Math.exp(scale.lo)), "end") : null,
    inner.map((v) => tick(Math.log(v), times(v), "round")),
    ends.includes(scale.hi) ? tick(scale.hi, times(Math.exp(scale.hi)), "end") : null),
  el("div", { class: "muted small" }, label));
}
