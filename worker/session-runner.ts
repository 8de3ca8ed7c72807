/**
 * The Durable Object that runs one session's agent. One object per session id, so every request for
 * a session — a message, a reconnect, a cancel from another tab, an export, a delete — reaches the
 * same place: one run at a time (a second message is 409), and a cancel aborts the run wherever it
 * was started.
 *
 * Runs survive a dropped connection: the run belongs to this object, not to the request that started
 * it. Its events go to a {@link RunLog}; the request that started it and any client that reattaches
 * (`Last-Event-ID` or `?after=`) read from that log. A run nobody watches is cancelled after a grace
 * period; the Stop button and the cancel endpoint cancel at once.
 *
 * The object's own storage is the primary copy of the session, written after every completed turn
 * and before the run's last event; KV holds the exported copy, written at most once a second.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import {
  type AgentEvent,
  type AgentSession,
  createAgentSession,
  isSdkError,
  type Message,
  type SessionState,
} from "wisp-agent";
import { agentOptions } from "./agent-config.ts";
import { ApiError, errorResponse } from "./api-error.ts";
import type { Env } from "./env.ts";
import { connectRunMcp, type RunMcpTools } from "./mcp-tools.ts";
import { parseEventId, RunLog } from "./run-log.ts";
import { runSessionMcpCommand, type SessionMcpCommand, sessionMcpOptions } from "./session-mcp.ts";
import {
  deleteRecord,
  loadRecord,
  MAX_SESSION_CHARS,
  type SessionRecord,
  saveRecord,
} from "./session-store.ts";
import { sseEventOf } from "./sse-events.ts";

/** What the Worker asks the runner to do (the Worker has checked the token and the body). */
export type RunnerCommand =
  | { op: "run"; sessionId: string; text: string }
  | { op: "resume"; sessionId: string; decisions: unknown[] }
  | { op: "attach"; after?: string }
  | { op: "cancel" }
  | { op: "export"; sessionId: string }
  | { op: "delete"; sessionId: string }
  | SessionMcpCommand;

/** How long a run goes on with no client attached before it is cancelled, by default. */
const DEFAULT_RUN_GRACE_MS = 15_000;

/** How long a finished run's events stay available to a client that reattaches. */
const RUN_LOG_RETENTION_MS = 5 * 60_000;

/** Cloudflare KV takes about one write per second per key. */
const KV_WRITE_INTERVAL_MS = 1_000;

const STORAGE_KEY = "record";

/** Characters per stored chunk (Durable Object storage takes values of up to 2 MB). */
const STORAGE_CHUNK_CHARS = 512 * 1024;

/** Whether a save happened, and why not. */
interface SaveOutcome {
  saved: boolean;
  reason?: "SESSION_TOO_LARGE" | "STORAGE_FAILED" | "DELETED";
}

/** A message that completes a turn: tool results, or an answer that asked for no tools. */
function completesTurn(message: Message): boolean {
  if (message.role === "tool_result") return true;
  return message.role === "assistant" && !message.content.some((part) => part.type === "tool_call");
}

/** What a run starts from: the user's prompt, or their decisions on the calls that wait. */
type RunStart = { prompt: string } | { decisions: unknown[] };

/**
 * The API error for a run the SDK refused before it began (its first event is a failed `run-end`):
 * a prompt while calls wait (`APPROVAL_PENDING`, naming them) or a decision for a call that is not
 * (or no longer) waiting is 409, a malformed decision or an edit
 * the tool's schema refuses is 400, with the SDK's code and path; anything else is left to the run's
 * stream.
 */
function refusal(first: IteratorResult<AgentEvent>): ApiError | undefined {
  if (first.done || first.value.type !== "run-end" || first.value.result.ok) return undefined;
  const { error } = first.value.result;
  if (error._tag !== "ConfigError" || !error.code.startsWith("APPROVAL_")) return undefined;
  // A prompt while calls wait, or a decision for a call that is not (or no longer) waiting (the SDK
  // says whether it was a replay), conflicts with the session; a malformed or duplicate decision, or
  // a bad edit, is bad input.
  const replayed = (error.details as { replayed?: boolean } | undefined)?.replayed;
  const conflict = error.code === "APPROVAL_PENDING" || replayed !== undefined;
  return new ApiError(conflict ? 409 : 400, error.code, error.message, error.path);
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-store" };

interface ActiveRun {
  abort(reason?: unknown): void;
  /** Set by a cancel that came before the run could be aborted (it was still starting). */
  cancelled?: unknown;
  finished: Promise<void>;
  log: RunLog | undefined;
}

/** Runs one session's agent; see the module comment. */
export class SessionRunner extends DurableObject<Env> {
  /** The run in flight; set before the first await of a run request, so a second one sees it. */
  #run: ActiveRun | undefined;
  /** The last run's log, kept for a while after it ended. */
  #lastLog: RunLog | undefined;
  #lastLogTimer: ReturnType<typeof setTimeout> | undefined;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** The record last written (storage and KV may lag behind it). */
  #latest: SessionRecord | undefined;
  #deleted = false;
  /** Saves go one after another, in order. */
  #saving: Promise<void> = Promise.resolve();
  #kv = { lastWriteAt: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined };

  override async fetch(request: Request): Promise<Response> {
    const command = (await request.json()) as RunnerCommand;
    try {
      switch (command.op) {
        case "run":
          return await this.#start(command.sessionId, { prompt: command.text });
        case "resume":
          return await this.#start(command.sessionId, { decisions: command.decisions });
        case "attach":
          return this.#attach(command.after);
        case "cancel":
          return Response.json({ cancelled: this.#cancel("Cancelled by request") });
        case "export":
          return Response.json((await this.#record(command.sessionId)).state);
        case "delete":
          await this.#delete(command.sessionId);
          return new Response(null, { status: 204 });
        case "mcp-connect":
        case "mcp-finish":
        case "mcp-list":
          return await this.#mcp(command);
      }
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      // A stored state the SDK will not restore, or options it refuses: say so, never a bare 500.
      if (isSdkError(error) && error._tag === "ConfigError") {
        const stored = new ApiError(
          409,
          "STATE_UNUSABLE",
          `This session cannot be continued: ${error.message}`,
          error.path,
        );
        return errorResponse(stored);
      }
      throw error;
    }
  }

  async #record(sessionId: string): Promise<SessionRecord> {
    if (this.#deleted) throw new ApiError(404, "NOT_FOUND", "No such session");
    const record = this.#latest ?? (await this.#stored()) ?? (await loadRecord(this.env.SESSIONS, sessionId));
    if (record === undefined) throw new ApiError(404, "NOT_FOUND", "No such session");
    return record;
  }

  /**
   * An MCP command, only for a session that exists: an OAuth callback can come back after the session
   * was deleted, and its tokens and server list must not be written into this object's storage, where
   * nothing would ever delete them (404 `NOT_FOUND` instead). A delete that lands while the command
   * waits on the network (the token exchange, the connection) is caught after it: what the command
   * wrote is cleared again, and the answer is the same 404.
   */
  async #mcp(command: SessionMcpCommand): Promise<Response> {
    await this.#record(command.sessionId);
    let outcome: { answer: Response } | { error: unknown };
    try {
      outcome = { answer: await runSessionMcpCommand(this.ctx.storage, command) };
    } catch (error) {
      outcome = { error };
    }
    if (this.#deleted) {
      await this.ctx.storage.deleteAll();
      throw new ApiError(404, "NOT_FOUND", "No such session");
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.answer;
  }

  #cancel(why: string): boolean {
    if (this.#run === undefined) return false;
    const reason = new DOMException(why, "AbortError");
    this.#run.cancelled = reason;
    this.#run.abort(reason);
    return true;
  }

  async #delete(sessionId: string): Promise<void> {
    this.#deleted = true;
    const run = this.#run;
    this.#cancel("The session was deleted");
    await run?.finished;
    await this.#saving;
    clearTimeout(this.#kv.timer ?? null);
    this.#latest = undefined;
    await this.ctx.storage.deleteAll();
    await deleteRecord(this.env.SESSIONS, sessionId);
  }

  /**
   * Saves to storage now (the primary copy) and to KV at most once a second (the exported copy). A
   * record over {@link MAX_SESSION_CHARS} is not saved: the previous one stays, and the run's last
   * event says `saved: false` with the reason.
   */
  #save(sessionId: string, tokenDigest: string, state: SessionState): Promise<SaveOutcome> {
    const saving = this.#saving.then(async (): Promise<SaveOutcome> => {
      if (this.#deleted) return { saved: false, reason: "DELETED" };
      const record = { tokenDigest, state };
      const json = JSON.stringify(record);
      if (json.length > MAX_SESSION_CHARS) {
        console.error(
          `session ${sessionId} is ${json.length} characters, over ${MAX_SESSION_CHARS}: not saved`,
        );
        return { saved: false, reason: "SESSION_TOO_LARGE" };
      }
      this.#latest = record;
      try {
        await this.#store(json);
      } catch (error) {
        console.error(
          `saving session ${sessionId} failed: ${error instanceof Error ? error.message : error}`,
        );
        return { saved: false, reason: "STORAGE_FAILED" };
      }
      this.#exportToKv(sessionId);
      return { saved: true };
    });
    this.#saving = saving.then(() => undefined);
    return saving;
  }

  /** Writes the record's JSON to this object's storage in chunks (a stored value may hold 2 MB at most). */
  async #store(json: string): Promise<void> {
    const entries: Record<string, unknown> = {};
    const count = Math.ceil(json.length / STORAGE_CHUNK_CHARS) || 1;
    for (let index = 0; index < count; index++) {
      entries[`${STORAGE_KEY}:${index}`] = json.slice(
        index * STORAGE_CHUNK_CHARS,
        (index + 1) * STORAGE_CHUNK_CHARS,
      );
    }
    entries[`${STORAGE_KEY}:count`] = count;
    await this.ctx.storage.put(entries);
  }

  /** The record in this object's storage, or undefined. */
  async #stored(): Promise<SessionRecord | undefined> {
    const count = await this.ctx.storage.get<number>(`${STORAGE_KEY}:count`);
    if (count === undefined) return undefined;
    const keys = Array.from({ length: count }, (_, index) => `${STORAGE_KEY}:${index}`);
    const parts = await this.ctx.storage.get<string>(keys);
    return JSON.parse(keys.map((name) => parts.get(name) ?? "").join("")) as SessionRecord;
  }

  /** Writes the latest record to KV, now or as soon as a second has passed since the last write. */
  #exportToKv(sessionId: string): void {
    if (this.#kv.timer !== undefined) return; // a write is already due; it takes the latest record
    const wait = Math.max(0, this.#kv.lastWriteAt + KV_WRITE_INTERVAL_MS - Date.now());
    this.#kv.timer = setTimeout(() => {
      this.#kv.timer = undefined;
      const record = this.#latest;
      if (this.#deleted || record === undefined) return;
      this.#kv.lastWriteAt = Date.now();
      saveRecord(this.env.SESSIONS, sessionId, record).catch((error: unknown) =>
        console.error(
          `exporting session ${sessionId} to KV failed: ${error instanceof Error ? error.message : error}`,
        ),
      );
    }, wait);
  }

  /** The grace period before an unwatched run is cancelled (`RUN_GRACE_MS`). */
  #graceMs(): number {
    const configured = Number(this.env.RUN_GRACE_MS);
    return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_RUN_GRACE_MS;
  }

  #onIdle(): void {
    clearTimeout(this.#graceTimer ?? null);
    this.#graceTimer = setTimeout(() => {
      if (this.#run?.log?.clients === 0) this.#cancel(`No client was attached for ${this.#graceMs()} ms`);
    }, this.#graceMs());
  }

  #attach(after: string | undefined): Response {
    const log = this.#run?.log ?? this.#lastLog;
    if (log === undefined) {
      throw new ApiError(404, "NO_RUN", "No run to attach to: load the session's state instead");
    }
    clearTimeout(this.#graceTimer ?? null);
    return new Response(log.attach(parseEventId(after)), { headers: SSE_HEADERS });
  }

  /**
   * Starts a run — a prompt, or a resume with the user's decisions — and answers with its SSE stream.
   * What the SDK refuses before the run begins (a prompt while calls wait, decisions that do not fit
   * the pause) is answered before any event, with the SDK's code and path (see {@link refusal}).
   */
  async #start(sessionId: string, what: RunStart): Promise<Response> {
    if (this.#run !== undefined) {
      throw new ApiError(
        409,
        "SESSION_BUSY",
        "A run is in flight for this session: wait for it or cancel it",
      );
    }
    // Claim the session before any await: a second message arriving meanwhile must get 409.
    let abort: (reason?: unknown) => void = () => {};
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const active: ActiveRun = { abort: (reason) => abort(reason), finished, log: undefined };
    this.#run = active;
    let session: AgentSession | undefined;
    let mcp: RunMcpTools | undefined;
    let record: SessionRecord;
    let events: AsyncIterator<AgentEvent>;
    let first: IteratorResult<AgentEvent>;
    const start = { messagesBefore: 0, ...what };
    try {
      record = await this.#record(sessionId);
      const options = agentOptions(this.env);
      // A cancel while the MCP servers connect ends that wait at once.
      const connecting = new AbortController();
      abort = (reason) => connecting.abort(reason);
      mcp = await connectRunMcp(
        this.env,
        options.tools?.map((tool) => tool.name) ?? [],
        connecting.signal,
        await sessionMcpOptions(this.ctx.storage),
      );
      const tools = [...(options.tools ?? []), ...mcp.tools];
      const created = await createAgentSession({ ...options, tools, restore: record.state });
      if (!created.ok) throw created.error;
      session = created.value;
      start.messagesBefore = session.snapshot().messageCount;
      const run = "prompt" in what ? session.stream(what.prompt) : session.resumeStream(what.decisions as []);
      abort = (reason) => run.abort(reason);
      // A cancel that came while the session was loading stops the run before anything runs.
      if (active.cancelled !== undefined) run.abort(active.cancelled);
      events = run[Symbol.asyncIterator]();
      first = await events.next();
      const refused = refusal(first);
      if (refused !== undefined) throw refused;
    } catch (error) {
      await session?.close();
      await mcp?.close();
      this.#run = undefined;
      finish();
      throw error;
    }
    const log = new RunLog(() => this.#onIdle());
    active.log = log;
    this.#keepLog(undefined);
    const body = log.attach();
    const pumped = this.#pump(first, events, session, sessionId, record.tokenDigest, log, start);
    void pumped.finally(() => {
      void mcp?.close();
      clearTimeout(this.#graceTimer ?? null);
      this.#run = undefined;
      this.#keepLog(log);
      finish();
    });
    return new Response(body, { headers: SSE_HEADERS });
  }

  /** Keeps a finished run's log for {@link RUN_LOG_RETENTION_MS} (or forgets the last one). */
  #keepLog(log: RunLog | undefined): void {
    clearTimeout(this.#lastLogTimer ?? null);
    this.#lastLog = log;
    if (log !== undefined) {
      this.#lastLogTimer = setTimeout(() => {
        if (this.#lastLog === log) this.#lastLog = undefined;
      }, RUN_LOG_RETENTION_MS);
    }
  }

  /**
   * Logs the run's events (`first`, then the rest), saving after every completed turn and before the
   * final event. `run-start` also carries `start` (the prompt or that it is a resume, and how many
   * messages the session held before it), so a client that reattaches from the beginning can draw
   * the conversation as it was and replay the run on it.
   */
  async #pump(
    first: IteratorResult<AgentEvent>,
    events: AsyncIterator<AgentEvent>,
    session: AgentSession,
    sessionId: string,
    tokenDigest: string,
    log: RunLog,
    start: RunStart & { messagesBefore: number },
  ): Promise<void> {
    try {
      for (let next = first; !next.done; next = await events.next()) {
        const event = next.value;
        if (event.type === "message" && completesTurn(event.message)) {
          void this.#save(sessionId, tokenDigest, session.export());
        }
        const sse = sseEventOf(event);
        if (sse === undefined) continue;
        if (event.type === "run-end") {
          // The final state is stored before any client hears the run ended.
          const state = session.export();
          const { saved, reason } = await this.#save(sessionId, tokenDigest, state);
          const notSaved = reason === undefined ? {} : { saveError: reason };
          log.append({
            event: sse.event,
            data: {
              ...(sse.data as object),
              // What waits after the run, however it ended (a failed resume keeps its pause).
              pendingApprovals: state.pendingApprovals.map(({ digest: _, signature: __, ...shown }) => shown),
              saved,
              ...notSaved,
              messageCount: session.snapshot().messageCount,
            },
          });
        } else if (event.type === "run-start") {
          log.append({ event: sse.event, data: { ...(sse.data as object), ...start } });
        } else {
          log.append(sse);
        }
      }
    } finally {
      await events.return?.();
      await session.close();
      log.end();
    }
  }
}
