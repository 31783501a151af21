// The dashboard's router: one view per hash route, each given a fresh container and a way to clean
// up (live streams, timers) when the user leaves it.

import { el, errorBox, fill } from "./util.js";

// Each page's module is loaded when it is first shown: the run page, which a long run makes the heaviest,
// waits for no other page's code.
const view = (module, name) => async (...args) => (await import(module))[name](...args);
const runs = view("./runs.js", "runsView"), submit = view("./submit.js", "submitView");
const run = view("./run.js", "runView"), kernel = view("./kernel.js", "kernelView");
const prompts = view("./prompts.js", "promptsView"), evaluations = view("./evaluations.js", "evaluationsView");
const rejected = view("./rejected.js", "rejectedView"), kernels = view("./compare.js", "compareKernelsView");
const twoRuns = view("./compare.js", "compareRunsView"), pool = view("./pool.js", "poolView");

const ROUTES = [
  [/^#?\/?$/, (root, m, page) => runs(root, page)],
  [/^#\/submit$/, (root, m, page) => submit(root, page)],
  [/^#\/pool$/, (root, m, page) => pool(root, page)],
  [/^#\/runs\/(\d+)$/, (root, m, page) => run(root, Number(m[1]), page)],
  [/^#\/runs\/(\d+)\/prompts$/, (root, m) => prompts(root, Number(m[1]))],
  [/^#\/runs\/(\d+)\/evaluations(\?.*)?$/, (root, m, page) => evaluations(root, Number(m[1]), page)],
  [/^#\/runs\/(\d+)\/rejected(\?.*)?$/, (root, m, page) => rejected(root, Number(m[1]), page)],
  [/^#\/compare\/candidates\/(\d+)\/(\d+)$/, (root, m) => kernels(root, Number(m[1]), Number(m[2]))],
  [/^#\/compare\/runs\/(\d+)\/(\d+)$/, (root, m) => twoRuns(root, Number(m[1]), Number(m[2]))],
  [/^#\/runs\/(\d+)\/candidates\/(\d+)$/, (root, m) => kernel(root, { run: Number(m[1]), number: Number(m[2]) })],
  [/^#\/candidates\/(\d+)$/, (root, m) => kernel(root, { id: Number(m[1]) })],
];

let leaving = [];

async function render() {
  for (const cleanup of leaving) cleanup();
  leaving = [];
  const main = document.getElementById("view");
  const root = el("div", { class: "page" }, el("p", { class: "muted" }, "Loading…"));
  fill(main, root);
  const page = { onLeave: (cleanup) => leaving.push(cleanup), alive: () => root.isConnected };
  for (const link of document.querySelectorAll("nav a")) {
    link.toggleAttribute("aria-current", link.getAttribute("href") === (location.hash || "#/"));
  }
  const route = ROUTES.find(([pattern]) => pattern.test(location.hash));
  if (!route) {
    fill(root, el("div", { class: "empty" }, "No such page. ", el("a", { href: "#/" }, "See the runs.")));
    return;
  }
  try {
    await route[1](root, location.hash.match(route[0]), page);
  } catch (error) {
    if (page.alive()) fill(root, errorBox(error.message));
  }
}

// The token is kept as it is typed or pasted: the pages that need one (their buttons, the notice that asks
// for one) redraw at once, not only when the field loses focus.
function keepToken() {
  const input = document.getElementById("token");
  input.value = localStorage.getItem("kernelevo-token") || "";
  const keep = () => {
    const value = input.value.trim();
    if (value === (localStorage.getItem("kernelevo-token") || "")) return;
    localStorage.setItem("kernelevo-token", value);
    window.dispatchEvent(new Event("kernelevo-token"));
  };
  input.addEventListener("input", keep);
  input.addEventListener("change", keep);
}

keepToken();
window.addEventListener("hashchange", () => { render(); document.getElementById("view").focus(); });
render();
