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
