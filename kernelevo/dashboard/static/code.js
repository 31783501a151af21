// Source code: Python highlighting and a line diff, both small and our own.

import { el } from "./util.js";

const KEYWORDS = new Set(("False None True and as assert async await break class continue def del elif else except " +
  "finally for from global if import in is lambda nonlocal not or pass raise return try while with yield").split(" "));
const TOKEN = /(#[^\n]*)|("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|(@[\w.]+)|(\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?\b)|(\b[A-Za-z_]\w*\b)/g;

export function highlighted(source) {
  const pre = el("pre", { class: "code", tabindex: "0" });
  let last = 0;
  for (const match of source.matchAll(TOKEN)) {
    pre.append(source.slice(last, match.index));
    const [text, comment, string, decorator, number, word] = match;
    let kind = null;
    if (comment) kind = "com";
    else if (string) kind = "str";
    else if (decorator) kind = "dec";
    else if (number) kind = "num";
    else if (word && KEYWORDS.has(word)) kind = "kw";
    else if (word && source[match.index + text.length] === "(") kind = "fn";
    pre.append(kind ? el("span", { class: kind }, text) : text);
    last = match.index + text.length;
  }
  pre.append(source.slice(last));
  return pre;
}

// The longest common subsequence of lines, then the edits, with 3 lines of context around each change.
export function diffLines(before, after) {
  const a = before.split("\n"), b = after.split("\n");
  const n = a.length, m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const ops = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push([" ", a[i]]); i++; j++; }
    else if (i < n && (j >= m || table[i + 1][j] >= table[i][j + 1])) { ops.push(["-", a[i]]); i++; }  // removals first
    else { ops.push(["+", b[j]]); j++; }
  }
  return ops;
}

export function diffView(before, after) {
  const ops = diffLines(before, after);
  const keep = ops.map(() => false);
  ops.forEach(([kind], k) => {
    if (kind !== " ") for (let c = Math.max(0, k - 3); c <= Math.min(ops.length - 1, k + 3); c++) keep[c] = true;
  });
  const view = el("div", { class: "diff", role: "region", "aria-label": "diff", tabindex: "0" });
  let skipped = false, changes = 0;
  ops.forEach(([kind, line], k) => {
    if (!keep[k]) { skipped = true; return; }
    if (skipped) { view.append(el("div", { class: "hunk" }, "…")); skipped = false; }
    if (kind !== " ") changes++;
    view.append(el("div", { class: kind === "+" ? "add" : kind === "-" ? "del" : "" }, `${kind} ${line}`));
  });
  if (!changes) view.append(el("div", { class: "hunk" }, "no change in the source"));
  return view;
}
