// The demo page: talks to the Worker's JSON + SSE API. No framework, no build step.
const $ = (id) => document.getElementById(id);
const log = $("log");
const STORAGE_KEY = "wisp-demo-session";

let session = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
let running;

function setStatus(text) {
  $("status").textContent = text;
}

function setRunning(value) {
  running = value;
  $("send").disabled = value !== undefined;
  $("stop").disabled = value === undefined;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function turn(who) {
  const box = el("div", `turn ${who}`);
  box.append(el("div", "who", who === "user" ? "You" : "Assistant"));
  log.append(box);
  log.scrollTop = log.scrollHeight;
  return box;
}

function textBlock(box, text = "") {
  const node = el("div", "text", text);
  box.append(node);
  return node;
}

function toolLine(box, name, args) {
  const node = el("div", "tool", `→ ${name}(${JSON.stringify(args)})`);
  box.append(node);
  return node;
}

function toolResult(box, name, output, isError) {
  box.append(el("div", isError ? "tool error" : "tool", `← ${name}: ${output}`));
}

async function api(path, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, { ...init, headers });
  if (!response.ok && !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`);
  }
  return response;
}

function remember(value) {
  session = value;
  if (value) localStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  else localStorage.removeItem(STORAGE_KEY);
}

async function newSession() {
  remember(await (await api("/api/sessions", { method: "POST" })).json());
  log.replaceChildren();
  setStatus(`session ${session.sessionId.slice(0, 8)}`);
}

/** Draws a saved conversation (from an export). */
function render(state) {
  log.replaceChildren();
  const names = new Map();
  let box;
  for (const message of state.messages) {
    if (message.role === "user") {
      box = turn("user");
      textBlock(
        box,
        message.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n"),
      );
      box = undefined;
    } else if (message.role === "assistant") {
      box ??= turn("assistant");
      for (const part of message.content) {
        if (part.type === "text" && part.text) textBlock(box, part.text);
        if (part.type === "tool_call") {
          names.set(part.id, part.name);
          toolLine(box, part.name, part.args);
        }
      }
      if (message.stopReason === "aborted") box.append(el("div", "end failed", "stopped"));
    } else {
      box ??= turn("assistant");
      for (const part of message.content)
        toolResult(box, names.get(part.toolCallId) ?? "tool", part.output, part.isError);
    }
  }
}

/** Reads `event:`/`data:` blocks from an SSE response. */
async function* sseEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) yield { event, data: JSON.parse(data) };
      end = buffer.indexOf("\n\n");
    }
  }
}

async function sendPrompt(text) {
  if (!session) await newSession();
  textBlock(turn("user"), text);
  const box = turn("assistant");
  let current;
  const controller = new AbortController();
  setRunning(controller);
  setStatus("running…");
  try {
    const response = await api(`/api/sessions/${session.sessionId}/messages`, {
      method: "POST",
      body: JSON.stringify({ text }),
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    for await (const { event, data } of sseEvents(response)) {
      if (event === "text-delta") {
        current ??= textBlock(box);
        current.textContent += data.delta;
      } else if (event === "tool-call") {
        current = undefined;
        toolLine(box, data.name, data.args);
      } else if (event === "tool-result") {
        toolResult(box, data.name, data.output, data.isError);
      } else if (event === "run-end") {
        const cost = data.usage.costUsd === undefined ? "" : `, $${data.usage.costUsd.toFixed(5)}`;
        const summary = data.ok
          ? `${data.stopReason} · ${data.turns} turns · ${data.usage.input} in / ${data.usage.output} out${cost}`
          : `${data.error.code}: ${data.error.message}`;
        box.append(el("div", data.ok ? "end" : "end failed", summary));
      }
      log.scrollTop = log.scrollHeight;
    }
    setStatus(`session ${session.sessionId.slice(0, 8)}`);
  } catch (error) {
    if (controller.signal.aborted) {
      box.append(el("div", "end failed", "stopped"));
      setStatus("stopped");
    } else {
      box.append(el("div", "end failed", String(error.message ?? error)));
      setStatus("error");
    }
  } finally {
    setRunning(undefined);
  }
}

$("prompt-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("prompt").value.trim();
  if (!text || running) return;
  $("prompt").value = "";
  void sendPrompt(text);
});

$("prompt").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    $("prompt-form").requestSubmit();
  }
});

$("stop").addEventListener("click", () => {
  // Closing the stream cancels the run in the Worker; the cancel request reaches it from any connection too.
  running?.abort();
  if (session) void api(`/api/sessions/${session.sessionId}/cancel`, { method: "POST" }).catch(() => {});
});

$("export").addEventListener("click", async () => {
  if (!session) return setStatus("nothing to export yet");
  const state = await (await api(`/api/sessions/${session.sessionId}/export`)).json();
  const link = el("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(state, null, 2)], { type: "application/json" }));
  link.download = `wisp-session-${state.sessionId.slice(0, 8)}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
  setStatus(`exported ${state.messages.length} messages`);
});

$("import").addEventListener("change", async (event) => {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return;
  try {
    const text = await file.text();
    const previous = session;
    session = undefined;
    const response = await fetch("/api/sessions/import", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    const body = await response.json();
    if (!response.ok) {
      session = previous;
      throw new Error(
        `${body.error.code}: ${body.error.message}${body.error.path ? ` (at ${body.error.path})` : ""}`,
      );
    }
    remember(body);
    render(JSON.parse(text));
    setStatus(`imported ${JSON.parse(text).messages.length} messages`);
  } catch (error) {
    setStatus(`import failed: ${error.message}`);
  }
});

$("new").addEventListener("click", () => void newSession());

async function start() {
  const info = await (await fetch("/api/info")).json();
  $("model").textContent = info.scripted
    ? `${info.model} — the scripted demo model (set a provider key in .dev.vars for a real one)`
    : info.model;
  if (session) {
    try {
      render(await (await api(`/api/sessions/${session.sessionId}/export`)).json());
      setStatus(`session ${session.sessionId.slice(0, 8)}`);
      return;
    } catch {
      remember(undefined);
    }
  }
  setStatus("ready");
}

void start();
