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
 * The object's SQLite storage is the primary copy of the session (worker/session-rows.ts): after
 * each turn's tool results and before the run's last event it writes the new messages and the head, not
 * the whole conversation. The object keeps the live session between runs, so a run does not restore
 * the conversation again: it is read once, when the object starts. KV holds a copy in pages
 * (worker/session-copy.ts) and the session's summary, written at most once a second. A session stored
 * before rows is moved into them on first use (worker/session-migration.ts). A session unused for
 * {@link SESSION_TTL_SECONDS} is removed by the object's alarm.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import {
  type AgentEvent,
  type AgentSession,
  createAgentSession,
  isSdkError,
  type SessionState,
} from "wisp-agent";
import { agentOptions } from "./agent-config.ts";
import { ApiError, errorResponse, noSuchSession } from "./api-error.ts";
import { type Env, millisecondsOf } from "./env.ts";
import { type LateBoundTools, lateBoundTools, toolsKey } from "./late-bound-tools.ts";
import { connectRunMcp, type RunMcpTools } from "./mcp-tools.ts";
import { parseEventId, RunLog } from "./run-log.ts";
import { messagesUpTo, switchRefusal } from "./session-branches.ts";
import { deleteCopy, writeCopy } from "./session-copy.ts";
import { runSessionMcpCommand, type SessionMcpCommand, sessionMcpOptions } from "./session-mcp.ts";
import { findState, removeLegacy } from "./session-migration.ts";
import { type RowSave, type SavedTail, SessionRows, type StoredHead } from "./session-rows.ts";
import {
  deleteEntry,
  SESSION_TTL_SECONDS,
  saveEntry,
  saveListing,
  sessionCharLimit,
} from "./session-store.ts";
import { type SessionSummary, summaryOf } from "./session-summary.ts";
import { sseEventOf } from "./sse-events.ts";
import { flushTelemetry } from "./telemetry.ts";

/** What the Worker asks the runner to do (the Worker has checked the token and the body). */
export type RunnerCommand =
  | { op: "create"; sessionId: string; tokenDigest: string; client?: string; state: SessionState }
  | { op: "run"; sessionId: string; text: string; parentId?: string | null }
  | { op: "branches"; sessionId: string }
  | { op: "switch"; sessionId: string; leafId: string }
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

/** Where the object keeps how many messages its KV copy holds, and the listing client's digest. */
const COPIED_KEY = "kv:copied";
const CLIENT_KEY = "kv:client";

/** Whether a save happened, why not, and how many characters it wrote. */
type SaveOutcome = RowSave | { saved: false; reason: "STORAGE_FAILED" | "DELETED"; chars: 0 };

/** The session the object keeps between runs, and the stand-ins of its MCP tools. */
interface LiveSession {
  session: AgentSession;
  /** {@link toolsKey} of the MCP tools it was made with. */
  key: string;
  mcp: LateBoundTools;
}

/** The 409 for a run or a switch while a run (or a switch) holds the session. */
function sessionBusy(): ApiError {
  return new ApiError(409, "SESSION_BUSY", "A run is in flight for this session: wait for it or cancel it");
}

/** What a run starts from: the user's prompt (forking at `parentId` when given), or their decisions on the calls that wait. */
type RunStart = { prompt: string; parentId?: string | null } | { decisions: unknown[] };

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
  if (error._tag !== "ConfigError") return undefined;
  // A fork the session refuses (a parentId that names no message that can be continued) is bad input.
  if (error.code === "BRANCH_INVALID") return new ApiError(400, error.code, error.message, error.path);
  if (!error.code.startsWith("APPROVAL_")) return undefined;
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
  /** Until when the last run's log is kept (a deadline, not a timer: a timer would keep the object busy). */
  #lastLogUntil = 0;
  #graceTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #rows: SessionRows;
  /** The session kept between runs (dropped when a save fails, so the next run starts from the rows). */
  #live: LiveSession | undefined;
  /** Finding and moving a session stored before rows, once, whoever asks first. */
  #loading: Promise<StoredHead | undefined> | undefined;
  #deleted = false;
  #kv = {
    lastWriteAt: 0,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    writing: Promise.resolve(),
  };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#rows = new SessionRows(ctx.storage);
  }

  override async fetch(request: Request): Promise<Response> {
    const command = (await request.json()) as RunnerCommand;
    try {
      switch (command.op) {
        case "create":
          return await this.#create(command);
        case "run":
          return await this.#start(
            command.sessionId,
            command.parentId === undefined
              ? { prompt: command.text }
              : { prompt: command.text, parentId: command.parentId },
          );
        case "branches":
          return await this.#branches(command.sessionId);
        case "switch":
          return await this.#switchBranch(command.sessionId, command.leafId);
        case "resume":
          return await this.#start(command.sessionId, { decisions: command.decisions });
        case "attach":
          return this.#attach(command.after);
        case "cancel":
          return Response.json({ cancelled: this.#cancel("Cancelled by request") });
        case "export":
          return await this.#export(command.sessionId);
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

  /** Removes a session nobody used for {@link SESSION_TTL_SECONDS}. */
  override async alarm(): Promise<void> {
    const sessionId = this.#rows.head()?.summary.sessionId;
    if (sessionId !== undefined) await this.#delete(sessionId);
  }

  /**
   * Stores a new session (empty, or imported): restored first, as a run would restore it, so an import
   * the SDK refuses (a bad setting, approvals that fail their digest or signature) is a 400 and nothing
   * is stored; too large is 413.
   */
  async #create(command: Extract<RunnerCommand, { op: "create" }>): Promise<Response> {
    const { sessionId, tokenDigest, client } = command;
    const created = await createAgentSession({
      ...agentOptions(this.env),
      restore: command.state,
      sessionId,
    });
    if (!created.ok) {
      const { error } = created;
      throw error._tag === "ConfigError" ? new ApiError(400, error.code, error.message, error.path) : error;
    }
    await using session = created.value;
    const outcome = this.#write(sessionId, tokenDigest, session, "idle");
    if (!outcome.saved) {
      if (outcome.reason === "SESSION_TOO_LARGE") {
        throw new ApiError(
          413,
          "SESSION_TOO_LARGE",
          `A stored session may take ${this.#limit()} characters of JSON`,
        );
      }
      throw new ApiError(503, "STORAGE_FAILED", "The session could not be stored; try again");
    }
    if (client !== undefined) await this.ctx.storage.put(CLIENT_KEY, client);
    // The entry (which the API checks tokens against) is written now: the session exists once this answers.
    await saveEntry(
      this.env.SESSIONS,
      sessionId,
      client === undefined ? { tokenDigest } : { tokenDigest, client },
    );
    this.#exportToKv(sessionId);
    return Response.json({ messageCount: session.snapshot().messageCount }, { status: 201 });
  }

  /** The stored head, the session moved into rows first if it was stored before them; 404 when none. */
  async #head(sessionId: string): Promise<StoredHead> {
    if (this.#deleted) throw noSuchSession();
    const head = this.#rows.head() ?? (await (this.#loading ??= this.#migrate(sessionId)));
    if (head === undefined || this.#deleted) throw noSuchSession();
    return head;
  }

  /**
   * Moves a session stored before rows (or only in KV's copy) into rows: restored as a run would
   * restore it, then written whole, once; the old chunks are removed and the KV entry rewritten small.
   */
  async #migrate(sessionId: string): Promise<StoredHead | undefined> {
    try {
      const found = await findState(this.ctx.storage, this.env.SESSIONS, sessionId);
      if (found === undefined) return undefined;
      const created = await createAgentSession({
        ...agentOptions(this.env),
        restore: found.state,
        sessionId,
      });
      if (!created.ok) throw created.error;
      await using session = created.value;
      const outcome = this.#write(sessionId, found.tokenDigest, session, "idle");
      if (!outcome.saved) {
        throw new ApiError(
          409,
          "STATE_UNUSABLE",
          `This session cannot be moved into storage (${outcome.reason})`,
        );
      }
      await removeLegacy(this.ctx.storage);
      // The client it is listed for, so later copies keep its listing and a delete removes it.
      if (found.client !== undefined) await this.ctx.storage.put(CLIENT_KEY, found.client);
      if (found.from === "legacy-kv" || found.from === "legacy-storage") {
        const { tokenDigest, client } = found;
        await saveEntry(
          this.env.SESSIONS,
          sessionId,
          client === undefined ? { tokenDigest } : { tokenDigest, client },
        );
      }
      this.#exportToKv(sessionId);
      console.log(`session ${sessionId} moved into rows from ${found.from}`);
      return this.#rows.head();
    } finally {
      this.#loading = undefined;
    }
  }

  /** The stored session as one SessionState JSON document, streamed from the rows. */
  async #export(sessionId: string): Promise<Response> {
    await this.#head(sessionId);
    const body = this.#rows.exportStream();
    if (body === undefined) throw noSuchSession();
    return new Response(body, { headers: { "content-type": "application/json" } });
  }

  /**
   * The session to list or switch branches on: the one kept between runs, or one restored from the
   * rows for this call alone (`temporary`: the caller closes it).
   */
  async #branchSession(sessionId: string): Promise<{ session: AgentSession; temporary: boolean }> {
    await this.#head(sessionId);
    if (this.#live !== undefined) return { session: this.#live.session, temporary: false };
    const state = this.#rows.state();
    if (state === undefined) throw noSuchSession();
    const created = await createAgentSession({ ...agentOptions(this.env), restore: state, sessionId });
    if (!created.ok) throw created.error;
    return { session: created.value, temporary: true };
  }

  /** The session's branches (`AgentSession.branches`): `{ branches }`. */
  async #branches(sessionId: string): Promise<Response> {
    const { session, temporary } = await this.#branchSession(sessionId);
    try {
      return Response.json({ branches: session.branches() });
    } finally {
      if (temporary) await session.close();
    }
  }

  /**
   * Makes another branch the active one and saves (the message rows from where the branches part are
   * rewritten, and the branches' rows): `{ branches }`. Holds the session like a run meanwhile, so a
   * message that arrives is a 409.
   */
  async #switchBranch(sessionId: string, leafId: string): Promise<Response> {
    if (this.#run !== undefined) throw sessionBusy();
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.#run = { abort: () => {}, finished, log: undefined };
    let opened: { session: AgentSession; temporary: boolean } | undefined;
    try {
      const head = await this.#head(sessionId);
      opened = await this.#branchSession(sessionId);
      const switched = opened.session.switchBranch(leafId);
      if (!switched.ok) throw switchRefusal(switched.error);
      // A paused session refuses the switch above: it is idle.
      const outcome = this.#save(sessionId, head.tokenDigest, opened.session, "idle");
      if (!outcome.saved)
        throw new ApiError(503, "STORAGE_FAILED", `The switch could not be saved (${outcome.reason})`);
      // The last run's log replays onto another branch no more: a client that attaches draws the state.
      this.#keepLog(undefined);
      return Response.json({ branches: switched.value });
    } finally {
      if (opened?.temporary) await opened.session.close();
      this.#run = undefined;
      finish();
    }
  }

  /**
   * An MCP command, only for a session that exists: an OAuth callback can come back after the session
   * was deleted, and its tokens and server list must not be written into this object's storage, where
   * nothing would ever delete them (404 `NOT_FOUND` instead). A delete that lands while the command
   * waits on the network (the token exchange, the connection) is caught after it: what the command
   * wrote is cleared again, and the answer is the same 404.
   */
  async #mcp(command: SessionMcpCommand): Promise<Response> {
    await this.#head(command.sessionId);
    let outcome: { answer: Response } | { error: unknown };
    try {
      outcome = { answer: await runSessionMcpCommand(this.ctx.storage, command) };
    } catch (error) {
      outcome = { error };
    }
    if (this.#deleted) {
      await this.ctx.storage.deleteAll();
      throw noSuchSession();
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
    clearTimeout(this.#kv.timer ?? null);
    await this.#kv.writing;
    await this.#live?.session.close();
    this.#live = undefined;
    const client = await this.ctx.storage.get<string>(CLIENT_KEY);
    this.#rows.clear();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    await deleteEntry(this.env.SESSIONS, sessionId, client);
    await deleteCopy(this.env.SESSIONS, sessionId);
  }

  /**
   * Writes what changed since the last save to the rows (the new messages and the head; the whole
   * conversation when the rows do not line up with the session), synchronously. A session over
   * MAX_SESSION_CHARS is not saved: the rows keep the previous save.
   */
  #write(
    sessionId: string,
    tokenDigest: string,
    session: AgentSession,
    status: SessionSummary["status"],
  ): SaveOutcome {
    if (this.#deleted) return { saved: false, reason: "DELETED", chars: 0 };
    try {
      const previous = this.#rows.head();
      const from = previous?.messageCount ?? 0;
      // A session's metadata never changes (the Worker restores every session object without adding
      // any): written by the save that first stores the session, never again.
      let tail: SavedTail =
        previous === undefined ? session.exportTail(0) : session.exportTail(from, { metadata: false });
      const summary = (of: SavedTail, before?: SessionSummary) => summaryOf(sessionId, of, before, status);
      let outcome = this.#rows.save(tokenDigest, tail, summary(tail, previous?.summary), this.#limit());
      if (!outcome.saved && outcome.reason === "NOT_ALIGNED") {
        tail = session.exportTail(0);
        outcome = this.#rows.save(tokenDigest, tail, summary(tail), this.#limit());
      }
      if (!outcome.saved) console.error(`session ${sessionId} not saved: ${outcome.reason}`);
      return outcome;
    } catch (error) {
      console.error(`saving session ${sessionId} failed: ${error instanceof Error ? error.message : error}`);
      return { saved: false, reason: "STORAGE_FAILED", chars: 0 };
    }
  }

  /**
   * Saves (see {@link #write}) and schedules the KV copy. A failed save drops the live session, so the
   * next run continues from what is stored, as the run's last event says (`saved: false`).
   */
  #save(
    sessionId: string,
    tokenDigest: string,
    session: AgentSession,
    status: SessionSummary["status"],
  ): SaveOutcome {
    const outcome = this.#write(sessionId, tokenDigest, session, status);
    if (outcome.saved) this.#exportToKv(sessionId);
    else if (this.#live?.session === session) this.#live = undefined;
    return outcome;
  }

  /** Copies the rows to KV (pages, entry, listing), now or as soon as a second has passed since the last write. */
  #exportToKv(sessionId: string): void {
    if (this.#kv.timer !== undefined) return; // a write is already due; it takes the latest rows
    const wait = Math.max(0, this.#kv.lastWriteAt + KV_WRITE_INTERVAL_MS - Date.now());
    this.#kv.timer = setTimeout(() => {
      this.#kv.timer = undefined;
      this.#kv.lastWriteAt = Date.now();
      this.#kv.writing = this.#kv.writing.then(() =>
        this.#copyToKv(sessionId).catch((error: unknown) =>
          console.error(
            `copying session ${sessionId} to KV failed: ${error instanceof Error ? error.message : error}`,
          ),
        ),
      );
    }, wait);
  }

  async #copyToKv(sessionId: string): Promise<void> {
    const head = this.#rows.head();
    if (this.#deleted || head === undefined) return;
    const kv = this.env.SESSIONS;
    // Messages a fork or a branch switch replaced are copied again, with everything after them.
    const rewritten = this.#rows.takeRewrittenFrom() ?? Number.POSITIVE_INFINITY;
    const copied = Math.min(rewritten, (await this.ctx.storage.get<number>(COPIED_KEY)) ?? 0);
    const written = await writeCopy(kv, sessionId, this.#rows, copied);
    const client = await this.ctx.storage.get<string>(CLIENT_KEY);
    await saveEntry(
      kv,
      sessionId,
      client === undefined ? { tokenDigest: head.tokenDigest } : { tokenDigest: head.tokenDigest, client },
    );
    if (client !== undefined) await saveListing(kv, client, head.summary);
    if (this.#deleted) return;
    await this.ctx.storage.put(COPIED_KEY, written.messageCount);
    await this.ctx.storage.setAlarm(Date.now() + SESSION_TTL_SECONDS * 1000);
  }

  /** The most characters the session may take in storage (`SESSION_MAX_CHARS`, at most MAX_SESSION_CHARS). */
  #limit(): number {
    return sessionCharLimit(this.env.SESSION_MAX_CHARS);
  }

  /** The grace period before an unwatched run is cancelled (`RUN_GRACE_MS`). */
  #graceMs(): number {
    return millisecondsOf(this.env.RUN_GRACE_MS) ?? DEFAULT_RUN_GRACE_MS;
  }

  #onIdle(): void {
    clearTimeout(this.#graceTimer ?? null);
    this.#graceTimer = setTimeout(() => {
      if (this.#run?.log?.clients === 0) this.#cancel(`No client was attached for ${this.#graceMs()} ms`);
    }, this.#graceMs());
  }

  #attach(after: string | undefined): Response {
    const log = this.#run?.log ?? (Date.now() < this.#lastLogUntil ? this.#lastLog : undefined);
    if (log === undefined) {
      throw new ApiError(404, "NO_RUN", "No run to attach to: load the session's state instead");
    }
    clearTimeout(this.#graceTimer ?? null);
    return new Response(log.attach(parseEventId(after)), { headers: SSE_HEADERS });
  }

  /**
   * The session for a run with these MCP tools: the one kept since the last run when its tools are the
   * same (its stand-ins bound to this run's), else a new one restored from the kept session or, when
   * none is kept, from the rows (read once).
   */
  async #sessionFor(sessionId: string, mcpTools: RunMcpTools["tools"]): Promise<AgentSession> {
    const key = toolsKey(mcpTools);
    const live = this.#live;
    if (live !== undefined && live.key === key) {
      live.mcp.bind(mcpTools);
      return live.session;
    }
    const state = live?.session.export() ?? this.#rows.state();
    if (state === undefined) throw noSuchSession();
    this.#live = undefined;
    await live?.session.close();
    const options = agentOptions(this.env);
    const mcp = lateBoundTools(mcpTools);
    const tools = [...options.tools, ...mcp.tools];
    const created = await createAgentSession({ ...options, tools, restore: state, sessionId });
    if (!created.ok) {
      // The stored state cannot be continued here (a ConfigError: 409 STATE_UNUSABLE): listed as closed.
      const head = this.#rows.head();
      if (head !== undefined && created.error._tag === "ConfigError") {
        this.#rows.setSummary({ ...head.summary, status: "closed" });
        this.#exportToKv(sessionId);
      }
      throw created.error;
    }
    this.#live = { session: created.value, key, mcp };
    return created.value;
  }

  /**
   * Starts a run — a prompt, or a resume with the user's decisions — and answers with its SSE stream.
   * What the SDK refuses before the run begins (a prompt while calls wait, decisions that do not fit
   * the pause) is answered before any event, with the SDK's code and path (see {@link refusal}).
   */
  async #start(sessionId: string, what: RunStart): Promise<Response> {
    if (this.#run !== undefined) throw sessionBusy();
    // Claim the session before any await: a second message arriving meanwhile must get 409.
    let abort: (reason?: unknown) => void = () => {};
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const active: ActiveRun = { abort: (reason) => abort(reason), finished, log: undefined };
    this.#run = active;
    let mcp: RunMcpTools | undefined;
    let head: StoredHead;
    let session: AgentSession;
    let events: AsyncIterator<AgentEvent>;
    let first: IteratorResult<AgentEvent>;
    const start = { messagesBefore: 0, ...what };
    try {
      head = await this.#head(sessionId);
      const options = agentOptions(this.env);
      // A cancel while the MCP servers connect ends that wait at once.
      const connecting = new AbortController();
      abort = (reason) => connecting.abort(reason);
      mcp = await connectRunMcp(
        this.env,
        options.tools.map((tool) => tool.name),
        connecting.signal,
        await sessionMcpOptions(this.ctx.storage),
      );
      session = await this.#sessionFor(sessionId, mcp.tools);
      start.messagesBefore = session.snapshot().messageCount;
      if ("prompt" in what && what.parentId !== undefined) {
        // A fork: the run continues from parentId (the client that reattaches draws what is before it).
        start.messagesBefore = messagesUpTo(session, what.parentId);
      }
      const run =
        "prompt" in what
          ? session.stream(what.prompt, what.parentId === undefined ? {} : { parentId: what.parentId })
          : session.resumeStream(what.decisions as []);
      abort = (reason) => run.abort(reason);
      // A cancel that came while the session was loading stops the run before anything runs.
      if (active.cancelled !== undefined) run.abort(active.cancelled);
      events = run[Symbol.asyncIterator]();
      first = await events.next();
      const refused = refusal(first);
      if (refused !== undefined) throw refused;
    } catch (error) {
      await mcp?.close();
      this.#run = undefined;
      finish();
      this.ctx.waitUntil(flushTelemetry(this.env)); // its MCP connection's spans
      throw error;
    }
    this.#rows.setSummary({ ...head.summary, status: "running" });
    this.#exportToKv(sessionId);
    const log = new RunLog(() => this.#onIdle());
    active.log = log;
    this.#keepLog(undefined);
    const body = log.attach();
    const pumped = this.#pump(first, events, session, sessionId, head.tokenDigest, log, start);
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
    this.#lastLog = log;
    this.#lastLogUntil = Date.now() + RUN_LOG_RETENTION_MS;
  }

  /**
   * Logs the run's events (`first`, then the rest), saving after each turn's tool results and before the
   * final event. `run-start` also carries `start` (the prompt or that it is a resume, and how many
   * messages the session held before it), so a client that reattaches from the beginning can draw
   * the conversation as it was and replay the run on it. `run-end` says whether the last save was
   * made and how many characters the run's saves wrote (`savedChars`).
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
    let savedChars = 0;
    try {
      for (let next = first; !next.done; next = await events.next()) {
        const event = next.value;
        // A turn completes with its tool results; the turn that asks for no tools is the run's last,
        // saved by the run-end's save below.
        if (event.type === "message" && event.message.role === "tool_result") {
          savedChars += this.#save(sessionId, tokenDigest, session, "running").chars;
        }
        const sse = sseEventOf(event);
        if (sse === undefined) continue;
        if (event.type === "run-end") {
          // The final state is stored before any client hears the run ended.
          const outcome = this.#save(sessionId, tokenDigest, session, "idle");
          savedChars += outcome.chars;
          const notSaved = outcome.saved ? {} : { saveError: outcome.reason };
          const { pendingApprovals: pending, pendingQuestions = [] } = session.exportTail(
            Number.MAX_SAFE_INTEGER,
          );
          log.append({
            event: sse.event,
            data: {
              ...(sse.data as object),
              // What waits after the run, however it ended (a failed resume keeps its pause).
              pendingApprovals: pending.map(({ digest: _, signature: __, ...shown }) => shown),
              pendingQuestions: pendingQuestions.map(({ digest: _, signature: __, ...shown }) => shown),
              saved: outcome.saved,
              ...notSaved,
              savedChars,
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
      // The session stays for the next run, unless a failed save dropped it.
      if (this.#live?.session !== session) await session.close();
      log.end();
      // The run's spans (when OTEL_EXPORTER_OTLP_ENDPOINT is set) leave after the client heard it end.
      this.ctx.waitUntil(flushTelemetry(this.env));
    }
  }
}
