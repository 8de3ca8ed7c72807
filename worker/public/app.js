// The demo page: talks to the Worker's JSON + SSE API. No framework, no build step.
//
// What it keeps through trouble: each session's token stays in localStorage until the server says the
// session no longer exists (404 NOT_FOUND) — a 503 or a lost network only delays things. A run belongs
// to the Worker, not to this page: when the stream drops the page reattaches (`?after=` the last event
// id it saw) and misses nothing; a reload draws the conversation as it was before the run and replays
// the run from its log, then follows it live. A tool call that needs approval pauses the run: the page
// shows it with Approve / Deny (with a reason) and editable arguments, from the run's end or, after a
// reload, from the saved session; a decision resumes the run as a new stream. "Connect an MCP server"
// adds a server to the session; one that asks for OAuth sends this tab to its sign-in, and the Worker's
// callback sends it back here with `?mcp=connected` (or `?mcp=failed&code=…`). Its tokens stay in the
// Worker: the page only ever sees the server's URL and tool names.
//
// Several sessions: the page has a client secret of its own (sent as `wisp-client` when it creates or
// imports a session, and as the Bearer of `GET /api/sessions`), keeps every session's token, and lists
// its sessions from the Worker's summaries — only those it holds a token for. Choosing one draws it
// exactly as a reload would (reattaching to a run in flight); switching waits while this page follows
// a run, as New and Import do.
import { setupForks } from "./forks.js";
import { questionSection } from "./questions.js";

const $ = (id) => document.getElementById(id);
const log = $("log");
/** The current session, `{ sessionId, token }` (the key the page has always used). */
const STORAGE_KEY = "wisp-demo-session";
/** Every session of this page: sessionId → token. */
const TOKENS_KEY = "wisp-demo-sessions";
/** This page's client secret, which lists its sessions. */
const CLIENT_KEY = "wisp-demo-client";
/** Waits between reconnection attempts, in ms; the Worker keeps an unwatched run for 15 s. */
const RETRY_DELAYS = [250, 500, 1000, 2000, 4000, 8000, 15000];
/** How long after a change the page asks for the list again: the Worker's summaries lag up to a second. */
const LIST_CATCH_UP_MS = 1500;

/** A stored JSON value, or null when absent or unreadable. */
function stored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** The stored map sessionId → token (read afresh: another tab may have added to it). */
function readTokens() {
  const map = stored(TOKENS_KEY);
  const tokens = {};
  if (map === null || typeof map !== "object" || Array.isArray(map)) return tokens;
  for (const [id, token] of Object.entries(map)) if (typeof token === "string") tokens[id] = token;
  return tokens;
}

function keepToken(sessionId, token) {
  localStorage.setItem(TOKENS_KEY, JSON.stringify({ ...readTokens(), [sessionId]: token }));
}

function dropToken(sessionId) {
  const tokens = readTokens();
  delete tokens[sessionId];
  localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
}

/** 32 random URL-safe characters (192 bits). */
function newClientSecret() {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => alphabet[byte & 63]).join("");
}

/** This page's client secret, made on first use. */
const clientSecret = (() => {
  const kept = localStorage.getItem(CLIENT_KEY);
  if (kept !== null && /^[\w-]{22,128}$/.test(kept)) return kept;
  const made = newClientSecret();
  localStorage.setItem(CLIENT_KEY, made);
  return made;
})();

let session = stored(STORAGE_KEY);
if (typeof session?.sessionId !== "string" || typeof session?.token !== "string") session = null;
// A page from before the list kept one session: it joins the map.
if (session && readTokens()[session.sessionId] === undefined) keepToken(session.sessionId, session.token);
/** Whether the stored session has been drawn (its state loaded from the Worker). */
let loaded = false;
/** Counts changes of the current session, so a load that finishes after a switch draws nothing. */
let shown = 0;
let running;
let loadTimer;

function setStatus(text) {
  $("status").textContent = text;
}

function setRunning(value) {
  running = value;
  $("send").disabled = value !== undefined;
  $("stop").disabled = value === undefined;
  $("new").disabled = value !== undefined;
  $("import").disabled = value !== undefined;
  for (const button of $("sessions").querySelectorAll("button")) button.disabled = value !== undefined;
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

/** A failed call: the HTTP status (0 when the server could not be reached) and the API's error code. */
class ApiFailure extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** Whether the session is gone for good (expired, deleted, or never ours). */
  get sessionGone() {
    return this.status === 404 && this.code === "NOT_FOUND";
  }
}

function networkFailure() {
  return new ApiFailure(0, "NETWORK", "the server could not be reached");
}

async function api(path, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (session && headers.authorization === undefined) headers.authorization = `Bearer ${session.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw networkFailure();
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    const code = body.error?.code ?? `HTTP_${response.status}`;
    const message = body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`;
    throw new ApiFailure(response.status, code, message);
  }
  return response;
}

/** Makes `value` (`{ sessionId, token }`, or undefined for none) the current session, and keeps its token. */
function remember(value) {
  if (value?.sessionId !== session?.sessionId) shown++;
  session = value ? { sessionId: value.sessionId, token: value.token } : null;
  if (session) {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    keepToken(session.sessionId, session.token);
  } else {
    localStorage.removeItem(STORAGE_KEY);
  }
}

/** No session shown: the next message starts one. */
function clearSession(status) {
  remember(undefined);
  loaded = true;
  log.replaceChildren();
  $("mcp-servers").replaceChildren();
  setStatus(status);
  renderSessions();
}

/** Forgets a session the server no longer has, and says so. */
function forget() {
  if (session) dropToken(session.sessionId);
  clearSession("that session no longer exists (expired or deleted); your next message starts a new one");
}

async function newSession() {
  const created = await (
    await api("/api/sessions", { method: "POST", headers: { "wisp-client": clientSecret } })
  ).json();
  remember(created);
  loaded = true;
  log.replaceChildren();
  $("mcp-servers").replaceChildren();
  setStatus(`session ${session.sessionId.slice(0, 8)}`);
  renderSessions();
  refreshSoon();
}

/** Draws saved messages (from an export). */
function render(messages) {
  log.replaceChildren();
  const names = new Map();
  let box;
  for (const message of messages) {
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

/** Draws a saved session: its messages, and the calls that wait for approval. */
function drawState(state) {
  render(state.messages);
  showApprovals(state.pendingApprovals ?? []);
  showQuestions(state.pendingQuestions ?? []);
  void forks.refresh();
}

/** Whether tool calls wait for a decision or answers (their cards are shown). */
function waiting() {
  return log.querySelector(".approval, .question") !== null;
}

/** What the person has to do before a prompt can go: decide a call, answer questions, or both. */
function waitingFor() {
  const approvals = log.querySelector(".approval") !== null;
  const questions = log.querySelector(".question") !== null;
  if (approvals && questions) return "approve or deny the waiting tool call and answer the questions first";
  return questions
    ? "answer or skip the waiting questions first"
    : "approve or deny the waiting tool call first";
}

/** Shows a card per call that asks the user questions (questions.js); none when `pending` is empty. */
function showQuestions(pending) {
  for (const node of log.querySelectorAll(".questions")) node.remove();
  if (pending.length === 0) return;
  log.append(questionSection(pending, (reply) => void (running ? undefined : decide([reply]))));
  log.scrollTop = log.scrollHeight;
  setStatus("waiting for your answers");
}

/** Shows a card per pending call, replacing any shown before; none when `approvals` is empty. */
function showApprovals(approvals) {
  for (const node of log.querySelectorAll(".approvals")) node.remove();
  if (approvals.length === 0) return;
  const section = el("div", "approvals");
  for (const approval of approvals) section.append(approvalCard(approval));
  log.append(section);
  log.scrollTop = log.scrollHeight;
  setStatus(`waiting for your approval (${approvals.length} tool call${approvals.length === 1 ? "" : "s"})`);
}

function field(labelText, input) {
  const label = el("label", "field", labelText);
  label.append(input);
  return label;
}

/** One pending call: what it would run with (editable), a reason, "always", Approve and Deny. */
function approvalCard(approval) {
  const card = el("div", "approval");
  card.dataset.id = approval.toolCallId;
  card.append(el("div", "title", `${approval.toolName} wants to run`));
  if (approval.reason) card.append(el("div", "why", approval.reason));
  const args = el("textarea", "args");
  args.rows = 4;
  args.value = JSON.stringify(approval.args, null, 2);
  const reason = el("input", "reason");
  reason.placeholder = "why (the model is told when you deny)";
  reason.maxLength = 2000;
  const always = el("input", "always");
  always.type = "checkbox";
  const alwaysLabel = el("label", "always-label");
  alwaysLabel.append(always, ` always for ${approval.toolName} in this session`);
  const problem = el("div", "problem");
  const approve = el("button", "approve", "Approve");
  const deny = el("button", "deny", "Deny");
  approve.type = deny.type = "button";
  const buttons = el("div", "buttons");
  buttons.append(approve, deny);
  card.append(
    field("Arguments (JSON, editable)", args),
    field("Reason", reason),
    alwaysLabel,
    buttons,
    problem,
  );
  const decision = (approved) => {
    const made = { toolCallId: approval.toolCallId, approved };
    if (reason.value.trim()) made.reason = reason.value.trim();
    if (always.checked) made.always = true;
    if (!approved) return made;
    let edited;
    try {
      edited = JSON.parse(args.value);
    } catch {
      return undefined;
    }
    if (typeof edited !== "object" || edited === null || Array.isArray(edited)) return undefined;
    if (JSON.stringify(edited) !== JSON.stringify(approval.args)) made.args = edited;
    return made;
  };
  for (const [button, approved] of [
    [approve, true],
    [deny, false],
  ]) {
    button.addEventListener("click", () => {
      if (running) return;
      const made = decision(approved);
      if (made === undefined) {
        problem.textContent = "The arguments must be a JSON object";
        return;
      }
      void decide([made]);
    });
  }
  return card;
}

/**
 * Reads `id:`/`event:`/`data:` blocks from an SSE response. Lines split on "\n" only: U+2028 inside
 * data is text, not a line break.
 */
async function* sseEvents(response, signal) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const stop = () => reader.cancel().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const fields = {};
        for (const line of buffer.slice(0, end).split("\n")) {
          const colon = line.indexOf(": ");
          if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 2);
        }
        buffer = buffer.slice(end + 2);
        if (fields.event && fields.data)
          yield { id: fields.id, event: fields.event, data: JSON.parse(fields.data) };
        end = buffer.indexOf("\n\n");
      }
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    stop();
  }
}

/** Draws one run's events into an assistant box. `box` undefined: the run is being replayed from its start. */
function runView(box) {
  let current;
  return {
    /** The last event id seen, to reattach after. */
    lastEventId: undefined,
    /** Whether some of the run's events were missed (the log had dropped them). */
    missed: false,
    handle(event, data) {
      if (event === "run-start") {
        if (box === undefined) {
          // A replay from the start: the conversation as it was, then this run's prompt.
          render(this.before.slice(0, data.messagesBefore));
          if (data.prompt !== undefined) textBlock(turn("user"), data.prompt);
          box = turn("assistant");
        }
        return;
      }
      if (event === "reset") {
        this.missed = true;
        if (box === undefined) render(this.before);
        box ??= turn("assistant");
        box.append(
          el("div", "end", "(reconnected: part of this answer was missed; it is in the saved session)"),
        );
        current = undefined;
        return;
      }
      box ??= turn("assistant");
      if (event === "text-delta") {
        current ??= textBlock(box);
        current.textContent += data.delta;
      } else if (event === "tool-call") {
        current = undefined;
        toolLine(box, data.name, data.args);
      } else if (event === "tool-result") {
        toolResult(box, data.name, data.output, data.isError);
      } else if (event === "approval-requested") {
        current = undefined;
        box.append(el("div", "tool waiting", `⏸ ${data.name} waits for your approval`));
      } else if (event === "question-requested") {
        current = undefined;
        box.append(el("div", "tool waiting", `⏸ ${data.name} asks you ${data.questions.length} question(s)`));
      } else if (event === "run-end") {
        const cost = data.usage.costUsd === undefined ? "" : `, $${data.usage.costUsd.toFixed(5)}`;
        const summary = data.ok
          ? `${data.stopReason} · ${data.turns} turns · ${data.usage.input} in / ${data.usage.output} out${cost}`
          : `${data.error.code}: ${data.error.message}`;
        box.append(el("div", data.ok ? "end" : "end failed", summary));
        this.pending = data.pendingApprovals ?? [];
        this.questions = data.pendingQuestions ?? [];
      }
      log.scrollTop = log.scrollHeight;
    },
    /** The saved messages to draw under a replay (set by {@link resync}). */
    before: [],
    /** The calls the run left waiting for approval (set by its `run-end`). */
    pending: [],
    /** The calls of the ask tool the run left waiting for answers (set by its `run-end`). */
    questions: [],
  };
}

/** Follows a run's stream into `view`. True when the run ended; false when the stream dropped first. */
async function follow(response, view, signal) {
  try {
    for await (const { id, event, data } of sseEvents(response, signal)) {
      if (id) view.lastEventId = id;
      view.handle(event, data);
      if (event === "run-end") return true;
    }
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  return false;
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Follows a run to its end, reattaching after the last event seen whenever the stream drops. Returns
 * "ended", or "gone" when the run's log is gone (the saved session is then drawn instead).
 */
async function stayWith(response, view, signal) {
  if (await follow(response, view, signal)) return "ended";
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw new DOMException("stopped", "AbortError");
    const delay = RETRY_DELAYS[Math.min(attempt, RETRY_DELAYS.length - 1)];
    setStatus(`connection lost — reconnecting (attempt ${attempt + 1})…`);
    await sleep(delay, signal);
    if (signal?.aborted) throw new DOMException("stopped", "AbortError");
    const after = view.lastEventId ? `?after=${encodeURIComponent(view.lastEventId)}` : "";
    let attached;
    try {
      attached = await api(`/api/sessions/${session.sessionId}/events${after}`, { signal });
    } catch (error) {
      if (error instanceof ApiFailure && error.code === "NO_RUN") {
        drawState(await loadState());
        return "gone";
      }
      if (error instanceof ApiFailure && (error.status === 0 || error.status >= 500)) continue;
      throw error;
    }
    setStatus("running…");
    if (await follow(attached, view, signal)) return "ended";
  }
}

async function loadState() {
  return (await api(`/api/sessions/${session.sessionId}/export`)).json();
}

/**
 * Draws the stored session: its saved state, and the last run replayed from the Worker's log (so a
 * reload in the middle of a run shows it, and follows it to its end).
 */
async function resync() {
  const epoch = shown;
  const state = await loadState();
  if (epoch !== shown) return; // another session was chosen meanwhile
  let attached;
  try {
    attached = await api(`/api/sessions/${session.sessionId}/events`);
  } catch (error) {
    if (epoch !== shown) return;
    if (!(error instanceof ApiFailure && error.code === "NO_RUN")) throw error;
    drawState(state);
    loaded = true;
    return;
  }
  if (epoch !== shown) {
    attached.body?.cancel().catch(() => {});
    return;
  }
  const view = runView(undefined);
  view.before = state.messages;
  render(state.messages);
  loaded = true;
  setRunning(new AbortController());
  const controller = running;
  setStatus("reattached to the run…");
  try {
    const outcome = await stayWith(attached, view, controller.signal);
    await afterRun(outcome, view);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    setStatus("stopped");
  } finally {
    setRunning(undefined);
    refreshSoon();
  }
}

/** After a run's stream: redraws what was missed, and shows the calls it left waiting. */
async function afterRun(outcome, view) {
  // "gone": the saved session was drawn, with its waiting calls and their status.
  if (outcome !== "gone" || !waiting()) setStatus(`session ${session.sessionId.slice(0, 8)}`);
  if (outcome === "ended" && view.missed) return drawState(await loadState());
  if (outcome === "ended") {
    showApprovals(view.pending);
    showQuestions(view.questions);
  }
}

/** Says why a call failed; forgets the session only when the server says it is gone. */
function report(error, what) {
  if (error instanceof ApiFailure && error.sessionGone) return forget();
  const kept = session ? " — your session is kept" : "";
  setStatus(`${what}: ${error.message ?? error}${kept}`);
}

async function sendPrompt(text) {
  try {
    if (!session) await newSession();
    else if (!loaded) await resync();
  } catch (error) {
    $("prompt").value = text; // not sent: give the words back
    report(error, "not sent");
    return;
  }
  if (waiting()) {
    $("prompt").value = text;
    setStatus(waitingFor());
    return;
  }
  textBlock(turn("user"), text);
  try {
    await runRequest("messages", { text });
  } catch {
    // Paused meanwhile from another tab: give the words back and show what waits.
    $("prompt").value = text;
    loaded = false;
    await resync().catch((failure) => report(failure, "could not reload"));
    setStatus(waitingFor());
  }
}

/** Sends decisions on waiting calls; the resumed run streams into a new assistant box. */
async function decide(decisions) {
  showApprovals([]);
  showQuestions([]);
  try {
    await runRequest("approvals", { decisions });
  } catch (error) {
    // Decided meanwhile in another tab, or refused: show the session as it is now.
    setStatus(`not decided: ${error.message} — showing the session as it is now`);
    loaded = false;
    await resync().catch((failure) => report(failure, "could not reload"));
    setStatus(`not decided: ${error.message}`);
  }
}

/**
 * Starts a run with `POST …/<what>` and follows it to its end in a new assistant box. Throws an
 * ApiFailure the API answered with before the run began (the box then says why).
 */
async function runRequest(what, body) {
  const view = runView(turn("assistant"));
  const controller = new AbortController();
  setRunning(controller);
  setStatus("running…");
  try {
    let response;
    try {
      response = await api(`/api/sessions/${session.sessionId}/${what}`, {
        method: "POST",
        body: JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (error) {
      if (!(error instanceof ApiFailure) || error.status !== 0) throw error;
      // The request may or may not have reached the Worker: draw whatever it has.
      setRunning(undefined);
      loaded = false;
      await resync();
      return;
    }
    await afterRun(await stayWith(response, view, controller.signal), view);
  } catch (error) {
    if (controller.signal.aborted) {
      log.lastElementChild?.append(el("div", "end failed", "stopped"));
      setStatus("stopped");
    } else {
      log.lastElementChild?.append(el("div", "end failed", String(error.message ?? error)));
      const refused = what === "approvals" || error.code === "APPROVAL_PENDING";
      if (refused && error instanceof ApiFailure && !error.sessionGone) throw error;
      report(error, "error");
    }
  } finally {
    if (running === controller) setRunning(undefined);
    refreshSoon();
  }
}

$("prompt-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("prompt").value.trim();
  if (!text || running) return;
  $("prompt").value = "";
  clearTimeout(loadTimer);
  void sendPrompt(text);
});

$("prompt").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    $("prompt-form").requestSubmit();
  }
});

$("stop").addEventListener("click", () => {
  // Stop cancels at once, from this connection or any other; closing the stream alone would leave the
  // run going for the Worker's grace period.
  running?.abort();
  if (session) void api(`/api/sessions/${session.sessionId}/cancel`, { method: "POST" }).catch(() => {});
});

/** Saves `blob` as a download named `name`. */
function download(blob, name) {
  const link = el("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** Names of the export formats, for the status line. */
const FORMAT_NAMES = { wisp: "Wisp JSON", "claude-code": "Claude Code JSONL", pi: "pi JSONL" };

$("export").addEventListener("click", async () => {
  if (!session) return setStatus("nothing to export yet");
  const format = $("export-format").value;
  const short = session.sessionId.slice(0, 8);
  try {
    if (format === "wisp") {
      const state = await loadState();
      download(
        new Blob([JSON.stringify(state, null, 2)], { type: "application/json" }),
        `wisp-session-${short}.json`,
      );
      return setStatus(`exported ${state.messages.length} messages`);
    }
    const text = await (await api(`/api/sessions/${session.sessionId}/export?format=${format}`)).text();
    download(new Blob([text], { type: "application/x-ndjson" }), `${format}-session-${short}.jsonl`);
    setStatus(`exported as ${FORMAT_NAMES[format]} (${text.split("\n").length - 1} lines)`);
  } catch (error) {
    report(error, "export failed");
  }
});

$("import").addEventListener("change", async (event) => {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return;
  // The current session stays until the import has succeeded: a failure leaves it as it was.
  try {
    const text = await file.text();
    let response;
    try {
      // The Worker tells the format by content; the type only says whether it is one JSON value.
      response = await fetch("/api/sessions/import", {
        method: "POST",
        headers: {
          "content-type": /\.jsonl$/i.test(file.name) ? "application/x-ndjson" : "application/json",
          "wisp-client": clientSecret,
        },
        body: text,
      });
    } catch {
      throw networkFailure();
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const where = body.error?.path ? ` (at ${body.error.path})` : "";
      throw new Error(
        body.error ? `${body.error.code}: ${body.error.message}${where}` : `HTTP ${response.status}`,
      );
    }
    clearTimeout(loadTimer);
    remember(body);
    loaded = true;
    renderSessions();
    refreshSoon();
    const state = await loadState();
    if (session?.sessionId !== body.sessionId) return; // another session was chosen meanwhile
    drawState(state);
    renderSessions();
    const from = body.format === "wisp" ? "" : ` from ${body.format === "pi" ? "pi" : "Claude Code"}`;
    const skipped = body.warningCount ? `, ${body.warningCount} lines skipped or repaired` : "";
    if (!waiting()) setStatus(`imported ${state.messages.length} messages${from}${skipped}`);
  } catch (error) {
    setStatus(`import failed: ${error.message}${session ? " — your session is kept" : ""}`);
  }
});

$("new").addEventListener("click", async () => {
  try {
    clearTimeout(loadTimer);
    await newSession();
  } catch (error) {
    report(error, "could not start a new session");
  }
});

/** Shows the MCP servers the session added. */
async function showMcpServers() {
  if (!session) return $("mcp-servers").replaceChildren();
  const epoch = shown;
  const { servers } = await (await api(`/api/sessions/${session.sessionId}/mcp-servers`)).json();
  if (epoch !== shown) return;
  $("mcp-servers").replaceChildren(
    ...servers.map((server) =>
      el(
        "li",
        "mcp-server",
        `${server.url}${server.prefix ? ` (tools as ${server.prefix}…)` : ""} — connected`,
      ),
    ),
  );
}

/** What the page says when an authorization came back failed, by the Worker's error code. */
const MCP_FAILURES = {
  OAUTH_STATE_INVALID: "that authorization is unknown, expired or was already used; connect again",
  OAUTH_BROWSER_MISMATCH: "that authorization was started in another browser; connect from this one",
  OAUTH_FAILED: "the server did not authorize the connection",
  MCP_CONNECT_FAILED: "authorized, but the MCP server could not be reached",
};

/** The outcome of an authorization the Worker's callback sent this tab back with (then dropped from the URL). */
function authorizationOutcome() {
  const params = new URLSearchParams(location.search);
  const outcome = params.get("mcp");
  if (outcome === null) return undefined;
  history.replaceState(null, "", location.pathname);
  if (outcome === "connected") return "MCP server connected: its tools are in your next run";
  const code = (params.get("code") ?? "").replace(/[^A-Z_]/g, "").slice(0, 40);
  return `could not connect the MCP server: ${MCP_FAILURES[code] ?? "it failed"} (${code || "unknown"})`;
}

$("mcp-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { url: $("mcp-url").value.trim() };
  const prefix = $("mcp-prefix").value.trim();
  if (prefix) body.prefix = prefix;
  $("mcp-connect").disabled = true;
  try {
    if (!session) await newSession();
    const response = await api(`/api/sessions/${session.sessionId}/mcp-servers`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (answer.status === "authorization_required") {
      setStatus("the server asks you to sign in: taking you there…");
      location.assign(answer.authorizationUrl);
      return;
    }
    setStatus(`connected to ${answer.server.url}: ${answer.server.tools.join(", ") || "no tools"}`);
    $("mcp-url").value = "";
    await showMcpServers();
  } catch (error) {
    report(error, "could not connect the MCP server");
  } finally {
    $("mcp-connect").disabled = false;
  }
});

/** The Worker's last list of this client's sessions (`GET /api/sessions`). */
let listed = [];
/** Why the list could not be loaded the last time, or "". */
let listProblem = "";
/** Counts list requests, so an older answer never replaces a newer one. */
let listAsked = 0;
let listTimer;

/** Asks the Worker for this client's sessions, and draws the list. */
async function refreshSessions() {
  const asked = ++listAsked;
  try {
    const response = await api("/api/sessions", { headers: { authorization: `Bearer ${clientSecret}` } });
    const { sessions } = await response.json();
    if (asked !== listAsked) return;
    listed = Array.isArray(sessions) ? sessions : [];
    listProblem = "";
  } catch (error) {
    if (asked !== listAsked) return;
    listProblem = `could not load the list (${error.message}); it is shown as it was`;
  }
  renderSessions();
}

/** Asks for the list now, and once more when the Worker's summaries have caught up. */
function refreshSoon() {
  void refreshSessions();
  void forks.refresh();
  clearTimeout(listTimer);
  listTimer = setTimeout(() => void refreshSessions(), LIST_CATCH_UP_MS);
}

const STATUS_WORDS = { idle: "idle", running: "running", paused: "waiting for approval", closed: "closed" };

/** When a session was last updated: the time today, the date and time before. */
function updatedText(ms) {
  const date = new Date(ms);
  const today = date.toDateString() === new Date().toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

/** The first prompt drawn, for the current session while the Worker does not list it yet. */
function drawnTitle() {
  const text = (log.querySelector(".turn.user .text")?.textContent ?? "").replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** One session in the list: a button to show it, and one to delete it. */
function sessionItem(summary) {
  const current = summary.sessionId === session?.sessionId;
  const title = summary.title || "Empty session";
  const item = el("li", "session-item");
  item.dataset.id = summary.sessionId;
  const show = el("button", "session");
  show.type = "button";
  if (current) show.setAttribute("aria-current", "true");
  const name = el("span", "session-title", title);
  name.title = title;
  const meta = el("span", "session-meta");
  if (summary.unlisted) {
    meta.textContent = "not listed yet";
  } else {
    const count = Number(summary.messageCount) || 0;
    const parts = [
      STATUS_WORDS[summary.status] ?? summary.status,
      `${count} message${count === 1 ? "" : "s"}`,
    ];
    const cost = summary.usage?.costUsd;
    if (typeof cost === "number") parts.push(`$${cost.toFixed(5)}`);
    meta.textContent = parts.join(" · ");
    if (Number.isFinite(summary.updatedAt)) {
      const time = el("time", undefined, updatedText(summary.updatedAt));
      time.dateTime = new Date(summary.updatedAt).toISOString();
      meta.append(" · updated ", time);
    }
  }
  show.append(name, meta);
  show.addEventListener("click", () => void switchTo(summary.sessionId));
  const remove = el("button", "session-delete", "Delete");
  remove.type = "button";
  remove.setAttribute("aria-label", `Delete ${title}`);
  remove.addEventListener("click", () => void deleteSession(summary.sessionId, title));
  show.disabled = remove.disabled = running !== undefined;
  item.append(show, remove);
  return item;
}

/**
 * Draws the list: the sessions the Worker lists that this page holds a token for, and the current one
 * on top while the Worker does not list it yet (just made: its summary lags) or at all (made before
 * this page had a client secret).
 */
function renderSessions() {
  const tokens = readTokens();
  const mine = listed.filter((summary) => tokens[summary?.sessionId] !== undefined);
  if (session && !mine.some((summary) => summary.sessionId === session.sessionId))
    mine.unshift({ sessionId: session.sessionId, title: drawnTitle(), unlisted: true });
  $("sessions").replaceChildren(...mine.map(sessionItem));
  $("sessions-note").textContent =
    listProblem || (mine.length === 0 ? "None yet: your first message starts one." : "");
}

/** Shows another of this page's sessions, as a reload would: its state, and its run if one is going. */
async function switchTo(sessionId) {
  if (running || sessionId === session?.sessionId) return;
  const token = readTokens()[sessionId];
  if (token === undefined) return renderSessions();
  clearTimeout(loadTimer);
  remember({ sessionId, token });
  loaded = false;
  log.replaceChildren();
  $("mcp-servers").replaceChildren();
  setStatus("loading the session…");
  renderSessions();
  refreshSoon();
  void showMcpServers().catch(() => {});
  await load();
}

/** Deletes one of this page's sessions (after asking), and forgets its token. */
async function deleteSession(sessionId, title) {
  if (running || !confirm(`Delete the session "${title}"? This cannot be undone.`)) return;
  const token = readTokens()[sessionId];
  try {
    if (token !== undefined) {
      await api(`/api/sessions/${sessionId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      });
    }
  } catch (error) {
    // Already gone is what was asked for; anything else leaves it as it was.
    if (!(error instanceof ApiFailure && error.sessionGone)) {
      setStatus(`could not delete the session: ${error.message} — it is kept`);
      return;
    }
  }
  dropToken(sessionId);
  listed = listed.filter((summary) => summary.sessionId !== sessionId);
  if (sessionId === session?.sessionId) {
    clearTimeout(loadTimer);
    clearSession("session deleted; your next message starts a new one");
  } else {
    setStatus(`deleted "${title}"`);
    renderSessions();
  }
  refreshSoon();
}

// Another tab of this page made or dropped a session: the list follows.
window.addEventListener("storage", (event) => {
  if (event.key === TOKENS_KEY || event.key === null) renderSessions();
});

/** Loads the stored session, retrying with growing pauses while the server is unreachable or failing. */
async function load(attempt = 0) {
  const epoch = shown;
  try {
    await resync();
    if (epoch !== shown) return;
    if (!running && !waiting()) setStatus(`session ${session.sessionId.slice(0, 8)}`);
    renderSessions();
  } catch (error) {
    if (epoch !== shown) return;
    if (error instanceof ApiFailure && error.sessionGone) return forget();
    const delay = RETRY_DELAYS[Math.min(attempt + 2, RETRY_DELAYS.length - 1)];
    setStatus(
      `could not load the session (${error.message}); retrying in ${Math.ceil(delay / 1000)} s — it is kept`,
    );
    loadTimer = setTimeout(() => void load(attempt + 1), delay);
  }
}

async function start() {
  try {
    const info = await (await fetch("/api/info")).json();
    $("model").textContent = info.scripted
      ? `${info.model} — the scripted demo model (set a provider key in .dev.vars for a real one)`
      : info.model;
  } catch {
    $("model").textContent = "the server could not be reached";
  }
  const outcome = authorizationOutcome();
  renderSessions();
  void refreshSessions();
  if (session) await load();
  else setStatus("ready");
  if (session) await showMcpServers().catch(() => {});
  if (outcome) setStatus(outcome);
}

// Edit an earlier prompt and continue from there; switch between the branches that makes (forks.js).
const forks = setupForks({
  api,
  current: () => session,
  busy: () => running !== undefined || waiting(),
  send: (text, parentId) => {
    textBlock(turn("user"), text);
    return runRequest("messages", { text, parentId });
  },
  reload: () => {
    loaded = false;
    return resync();
  },
  status: setStatus,
});

void start();
