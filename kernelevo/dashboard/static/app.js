// The dashboard's router: one view per hash route, each given a fresh container and a way to clean
// up (live streams, timers) when the user leaves it.

import { el, errorBox, fill } from "./util.js";
import { runsView } from "./runs.js";
import { submitView } from "./submit.js";
import { runView } from "./run.js";
import { kernelView } from "./kernel.js";
import { promptsView } from "./prompts.js";

const ROUTES = [
  [/^#?\/?$/, (root, m, page) => runsView(root, page)],
  [/^#\/submit$/, (root, m, page) => submitView(root, page)],
  [/^#\/runs\/(\d+)$/, (root, m, page) => runView(root, Number(m[1]), page)],
  [/^#\/runs\/(\d+)\/prompts$/, (root, m) => promptsView(root, Number(m[1]))],
  [/^#\/runs\/(\d+)\/candidates\/(\d+)$/, (root, m) => kernelView(root, { run: Number(m[1]), number: Number(m[2]) })],
  [/^#\/candidates\/(\d+)$/, (root, m) => kernelView(root, { id: Number(m[1]) })],
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

function keepToken() {
  const input = document.getElementById("token");
  input.value = localStorage.getItem("kernelevo-token") || "";
  input.addEventListener("change", () => {
    localStorage.setItem("kernelevo-token", input.value.trim());
    window.dispatchEvent(new Event("kernelevo-token"));
  });
}

keepToken();
window.addEventListener("hashchange", () => { render(); document.getElementById("view").focus(); });
render();
