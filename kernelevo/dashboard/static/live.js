// A run's server-sent events, read through fetch: EventSource cannot send the Authorization header
// that a server with closed reads needs. Reconnects after a dropped connection from the last event
// it saw (Last-Event-ID), as EventSource would.

import { token } from "./util.js";

const RETRY_MS = 2000;

// onEvent(kind, data) for each event; returns a function that stops following.
export function follow(path, onEvent, { onError = () => {}, after = 0 } = {}) {
  const controller = new AbortController();
  let lastId = after, stopped = false;

  function dispatch(block) {
    let kind = "message", data = null;
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) lastId = Number(line.slice(4));
      else if (line.startsWith("event: ")) kind = line.slice(7);
      else if (line.startsWith("data: ")) data = (data === null ? "" : data + "\n") + line.slice(6);
    }
    if (kind === "end") stopped = true;  // the run ended and every event was sent: no reconnecting
    if (data !== null) onEvent(kind, JSON.parse(data));
  }

  async function readOnce() {
    const headers = { Accept: "text/event-stream" };
    if (token()) headers.Authorization = `Bearer ${token()}`;
    if (lastId) headers["Last-Event-ID"] = String(lastId);
    const response = await fetch(path, { headers, signal: controller.signal });
    if (!response.ok) throw new Error(`live updates: ${response.status} ${response.statusText}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  (async () => {
    while (!stopped) {
      try {
        await readOnce();
      } catch (error) {
        if (stopped) return;
        onError(error);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  })();

  return () => { stopped = true; controller.abort(); };
}
