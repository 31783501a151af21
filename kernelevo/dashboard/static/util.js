// Small helpers every page shares: the API, building elements, formatting numbers.

export function token() {
  return localStorage.getItem("kernelevo-token") || "";
}

export async function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (token()) headers.Authorization = `Bearer ${token()}`;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options = { ...options, body: JSON.stringify(options.json) };
  }
  const response = await fetch(path, { ...options, headers });
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try { detail = (await response.json()).detail || detail; } catch { /* not JSON */ }
    throw new Error(detail);
  }
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
}

// Replace a node's children: arrays are flattened and null, undefined and false left out.
export function fill(node, ...children) {
  node.replaceChildren(...nodes(children));
  return node;
}

// el("div", {class: "x", onclick: f}, child, "text", ...)
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...nodes(children));
  return node;
}

export const speed = (x) => (x === null || x === undefined ? "–" : `${x.toFixed(2)}×`);
export const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(0)}%`);
// A roofline fraction and the floor it is of ("read", "copy" or "compute"), as the kernel page and the command
// line write it: "98% (read)"; the fraction alone where no floor was stored.
export const roof = (fraction, floor) => (fraction === null || fraction === undefined ? "–"
  : `${pct(fraction)}${floor ? ` (${floor})` : ""}`);
export const ms = (x) => (x === null || x === undefined ? "–" : `${x.toPrecision(4)} ms`);
export const num = (x) => (x === null || x === undefined ? "–" : x.toLocaleString("en-US"));

export function age(iso) {
  if (!iso) return "–";
  const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
  if (seconds < 90) return `${Math.max(0, Math.round(seconds))} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

export function badge(status) {
  return el("span", { class: `badge ${status}` }, status);
}

export function errorBox(message) {
  return el("div", { class: "error", role: "alert" }, message);
}

export const CPU_NOTE = "CPU run: kernels ran in Triton's interpreter, so its times are not GPU speeds";

// Save what the API serves at `path` as a file (with the token, which a plain link could not send), under the
// name the server gives it, else `filename`.
export async function download(path, filename) {
  const headers = token() ? { Authorization: `Bearer ${token()}` } : {};
  const response = await fetch(path, { headers });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  const named = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: named ? named[1] : filename });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 5000);
}

// The hash route's query: "#/runs/3/rejected?stage=compile" -> {stage: "compile"}
export function hashQuery() {
  const at = location.hash.indexOf("?");
  return at < 0 ? {} : Object.fromEntries(new URLSearchParams(location.hash.slice(at + 1)));
}

// Operators' colours, told apart by people with the common colour-vision deficiencies (Tableau 10).
const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7",
  "#e15759", "#bab0ac"];
export const operatorColour = (k) => PALETTE[k % PALETTE.length];
