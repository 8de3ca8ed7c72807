/**
 * The demo's HTTP API (Hono). JSON in and out; a run streams back as SSE. Every session call needs
 * the session's token (`Authorization: Bearer …`); a wrong token and an unknown session get the same
 * 404. Bad input is a 4xx `{ error: { code, message, path? } }`. See worker/README.md.
 *
 * @module
 */

import { Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import {
  ConfigError,
  emptyUsage,
  parseSessionState,
  resolveModel,
  SESSION_STATE_VERSION,
  type SessionState,
} from "wisp-agent";
import { configuredModel, isScripted } from "./agent-config.ts";
import {
  ApiError,
  errorResponse,
  MAX_MCP_BODY,
  MAX_MESSAGE_BODY,
  noSuchSession,
  readJson,
  readText,
} from "./api-error.ts";
import { clientKey, DEFAULT_MCP_RATE_LIMIT, parseRate } from "./client-limiter.ts";
import type { Env } from "./env.ts";
import { handleMcp } from "./mcp-notes.ts";
import { mountMcpServerRoutes } from "./mcp-server-routes.ts";
import { apiHeaders } from "./security-headers.ts";
import { leafIdOf, parentIdOf } from "./session-branches.ts";
import type { RunnerCommand } from "./session-runner.ts";
import { listSessions, loadEntry } from "./session-store.ts";
import { newToken, tokenDigest, tokenMatches } from "./tokens.ts";
import { exportFormat, transcriptResponse } from "./transcript-export.ts";
import { readImport } from "./transcript-import.ts";

/** Longest prompt, in characters. */
const MAX_PROMPT_CHARS = 32_000;

/** Most of an import's warnings its response lists (it gives their count too). */
const MAX_WARNINGS_SHOWN = 20;

type App = { Bindings: Env; Variables: { sessionId: string } };

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Sends a command to the session's runner. */
function runner(
  env: Env,
  sessionId: string,
  command: RunnerCommand,
  signal?: AbortSignal,
): Promise<Response> {
  const stub = env.RUNNER.get(env.RUNNER.idFromName(sessionId));
  const init: RequestInit = { method: "POST", body: JSON.stringify(command) };
  if (signal !== undefined) init.signal = signal;
  return stub.fetch("https://runner/", init);
}

/** A new, empty SessionState for the configured model. */
function emptyState(env: Env, sessionId: string): SessionState {
  const { provider, model } = resolveModel(configuredModel(env));
  const now = Date.now();
  return {
    version: SESSION_STATE_VERSION,
    sessionId,
    createdAt: now,
    updatedAt: now,
    provider,
    model,
    parameters: {},
    messages: [],
    usage: emptyUsage(),
    turns: 0,
    queue: [],
    metadata: {},
    pendingApprovals: [],
    pendingResults: [],
    toolPermissions: {},
  };
}

/** A client secret: what lists a client's sessions (`wisp-client` on create, Bearer on the list). */
const CLIENT_SECRET = /^[\w-]{22,128}$/;

/** The digest of the request's `wisp-client` header, or undefined without one; a bad one is a 400. */
async function listingClient(request: Request): Promise<string | undefined> {
  const secret = request.headers.get("wisp-client");
  if (secret === null) return undefined;
  if (!CLIENT_SECRET.test(secret)) {
    throw new ApiError(
      400,
      "INVALID_REQUEST",
      "wisp-client must be 22 to 128 letters, digits, _ or -",
      "wisp-client",
    );
  }
  return tokenDigest(secret);
}

/**
 * Stores a state under a new session id and token, in the session's own runner (which restores it
 * first, as a run would: a ConfigError is a 400, too large a 413); answers `{ sessionId, token }`.
 */
async function createWith(
  env: Env,
  request: Request,
  state: (sessionId: string) => SessionState,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  const client = await listingClient(request);
  const sessionId = crypto.randomUUID();
  const token = newToken();
  const command: RunnerCommand = {
    op: "create",
    sessionId,
    tokenDigest: await tokenDigest(token),
    state: state(sessionId),
    ...(client === undefined ? {} : { client }),
  };
  const created = await runner(env, sessionId, command);
  if (created.status !== 201) return created;
  return Response.json({ sessionId, token, ...extra }, { status: 201 });
}

/** The prompt of a message request, checked. */
function promptOf(body: unknown): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "INVALID_REQUEST", "The body must be an object { text }");
  }
  const text = (body as { text?: unknown }).text;
  if (typeof text !== "string") throw new ApiError(400, "INVALID_REQUEST", "text must be a string", "text");
  if (text.trim() === "") throw new ApiError(400, "INVALID_REQUEST", "text is empty", "text");
  if (text.length > MAX_PROMPT_CHARS) {
    throw new ApiError(400, "INVALID_REQUEST", `text is longer than ${MAX_PROMPT_CHARS} characters`, "text");
  }
  return text;
}

/** Most decisions one request may carry (a turn rarely has more calls). */
const MAX_DECISIONS = 64;

/** The decisions of an approvals request: an array, each checked by the SDK (its path names the bad one). */
function decisionsOf(body: unknown): unknown[] {
  const decisions = (body as { decisions?: unknown } | null)?.decisions;
  // Parsed JSON: only an object can hold a `decisions` array.
  if (!Array.isArray(decisions)) {
    throw new ApiError(
      400,
      "INVALID_REQUEST",
      "The body must be an object { decisions: [...] }",
      "decisions",
    );
  }
  if (decisions.length === 0 || decisions.length > MAX_DECISIONS) {
    throw new ApiError(400, "INVALID_REQUEST", `Send 1 to ${MAX_DECISIONS} decisions`, "decisions");
  }
  return decisions;
}

/** The methods each route takes (for 405 answers). */
const ROUTE_METHODS: Record<string, string> = {
  "/api/info": "GET",
  "/api/sessions": "GET, POST",
  "/api/sessions/import": "POST",
  "/api/sessions/:id": "DELETE",
  "/api/sessions/:id/messages": "POST",
  "/api/sessions/:id/approvals": "POST",
  "/api/sessions/:id/events": "GET",
  "/api/sessions/:id/cancel": "POST",
  "/api/sessions/:id/export": "GET",
  "/api/sessions/:id/branches": "GET, POST",
};

/** The origins ALLOWED_ORIGINS lists (comma-separated, spaces around entries ignored). */
function allowedOrigins(env: Env): string[] {
  return (env.ALLOWED_ORIGINS ?? "").split(",").map((entry) => entry.trim());
}

/** Builds the app. */
export function createApp(): Hono<App> {
  const app = new Hono<App>();

  app.use("/api/*", apiHeaders);

  app.use(
    "/api/*",
    cors({
      // Explicit: only the origins listed in ALLOWED_ORIGINS; the page itself is same-origin.
      origin: (origin, c) => (allowedOrigins(c.env as Env).includes(origin) ? origin : null),
      allowMethods: ["GET", "POST", "DELETE"],
      allowHeaders: ["content-type", "authorization"],
      maxAge: 600,
    }),
  );

  app.get("/api/info", (c) => c.json({ model: configuredModel(c.env), scripted: isScripted(c.env) }));

  // Creating and importing store a session: limited per client (CREATE_RATE_LIMIT), 429 beyond it.
  const limitCreation: MiddlewareHandler<App> = async (c, next) => {
    if (c.req.method !== "POST") return next();
    const rate = parseRate(c.env.CREATE_RATE_LIMIT);
    const limiter = c.env.LIMITER.get(c.env.LIMITER.idFromName(clientKey(c.req.raw)));
    const { allowed, retryAfterSeconds } = await limiter.take(rate);
    if (allowed) return next();
    c.res = errorResponse(
      new ApiError(
        429,
        "RATE_LIMITED",
        `Too many new sessions from this client (${rate.count} per ${rate.seconds} s); retry in ${retryAfterSeconds} s`,
      ),
      { "retry-after": String(retryAfterSeconds) },
    );
  };
  app.use("/api/sessions", limitCreation);
  app.use("/api/sessions/import", limitCreation);

  app.post("/api/sessions", (c) => createWith(c.env, c.req.raw, (sessionId) => emptyState(c.env, sessionId)));

  // The sessions created with this client secret (`wisp-client`), from KV metadata: never a state.
  app.get("/api/sessions", async (c) => {
    const header = c.req.header("authorization") ?? "";
    const secret = /^\s*bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (secret === undefined || !CLIENT_SECRET.test(secret)) {
      throw new ApiError(
        401,
        "UNAUTHORIZED",
        "Send the client secret you created sessions with as Authorization: Bearer <secret>",
      );
    }
    return c.json({ sessions: await listSessions(c.env.SESSIONS, await tokenDigest(secret)) });
  });

  // A Wisp session (JSON), a Claude Code transcript or a pi session file (JSONL), told apart by content.
  app.post("/api/sessions/import", async (c) => {
    const { state, format, warnings } = await readImport(c.req.raw);
    // A new id, so an import can never overwrite someone else's session. The runner restores it under
    // that id, checking what a run would (settings, and pending approvals against their digests and,
    // with APPROVAL_SECRET, their signatures), which binds its approvals to the new id.
    return createWith(c.env, c.req.raw, () => state, {
      format,
      warnings: warnings.slice(0, MAX_WARNINGS_SHOWN),
      warningCount: warnings.length,
    });
  });

  const authorize: MiddlewareHandler<App> = async (c, next) => {
    const sessionId = c.req.param("id") ?? "";
    const header = c.req.header("authorization") ?? "";
    const token = /^\s*bearer\s+(\S+)\s*$/i.exec(header)?.[1]; // the scheme is case-insensitive (RFC 9110)
    if (token === undefined)
      throw new ApiError(401, "UNAUTHORIZED", "Send the session's token as Authorization: Bearer <token>");
    const record = SESSION_ID.test(sessionId) ? await loadEntry(c.env.SESSIONS, sessionId) : undefined;
    if (record === undefined || !(await tokenMatches(token, record.tokenDigest))) throw noSuchSession();
    c.set("sessionId", sessionId);
    await next();
  };
  app.use("/api/sessions/:id", authorize);
  app.use("/api/sessions/:id/*", authorize);

  app.post("/api/sessions/:id/messages", async (c) => {
    const body = await readJson(c.req.raw, MAX_MESSAGE_BODY);
    const text = promptOf(body);
    // The run belongs to the runner: a dropped connection detaches from it (see RUN_GRACE_MS).
    // With `parentId`, the conversation forks at that message (docs/forks.md).
    return runner(c.env, c.get("sessionId"), {
      op: "run",
      sessionId: c.get("sessionId"),
      text,
      ...parentIdOf(body),
    });
  });

  // The session's branches (after forks), and a switch to another: `{ leafId }`.
  app.get("/api/sessions/:id/branches", (c) =>
    runner(c.env, c.get("sessionId"), { op: "branches", sessionId: c.get("sessionId") }),
  );
  app.post("/api/sessions/:id/branches", async (c) => {
    const leafId = leafIdOf(await readJson(c.req.raw, MAX_MESSAGE_BODY));
    return runner(c.env, c.get("sessionId"), { op: "switch", sessionId: c.get("sessionId"), leafId });
  });

  // Decide the calls that wait for approval; the resumed run streams back like a message's.
  app.post("/api/sessions/:id/approvals", async (c) => {
    const decisions = decisionsOf(await readJson(c.req.raw, MAX_MESSAGE_BODY));
    return runner(c.env, c.get("sessionId"), { op: "resume", sessionId: c.get("sessionId"), decisions });
  });

  // Reattach to the run in flight (or the last one): the events after Last-Event-ID / ?after=, then live.
  app.get("/api/sessions/:id/events", (c) => {
    const after = c.req.header("last-event-id") ?? c.req.query("after");
    return runner(
      c.env,
      c.get("sessionId"),
      after === undefined ? { op: "attach" } : { op: "attach", after },
    );
  });

  app.post("/api/sessions/:id/cancel", (c) => runner(c.env, c.get("sessionId"), { op: "cancel" }));

  // ?format=claude-code or pi: the session as that tool's transcript (JSONL); Wisp JSON by default.
  app.get("/api/sessions/:id/export", async (c) => {
    const format = exportFormat(c.req.query("format"));
    const exported = await runner(c.env, c.get("sessionId"), { op: "export", sessionId: c.get("sessionId") });
    if (format === "wisp" || !exported.ok) return exported;
    return transcriptResponse(parseSessionState(await exported.json()), format);
  });

  app.delete("/api/sessions/:id", (c) =>
    runner(c.env, c.get("sessionId"), { op: "delete", sessionId: c.get("sessionId") }),
  );

  // The session's own MCP servers (OAuth-protected ones too) and the OAuth callback: worker/mcp-server-routes.ts.
  mountMcpServerRoutes(app);

  // A known route asked with a method it does not take: 405 with Allow, in the API's shape.
  for (const [path, allow] of Object.entries(ROUTE_METHODS)) {
    app.all(path, (c) =>
      errorResponse(
        new ApiError(405, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${allow}`),
        {
          allow,
        },
      ),
    );
  }

  // The demo's MCP server (worker/mcp-notes.ts). A browser on another site may not call it (the
  // specification asks servers to check Origin, against DNS rebinding); other clients send none.
  // It is a shared demo store with no accounts (worker/README.md): limited per client
  // (MCP_RATE_LIMIT) and in body size, like the API.
  app.use("/mcp", apiHeaders);
  // A page on a listed origin may call it from the browser: its preflight and answers carry CORS.
  app.use(
    "/mcp",
    cors({
      origin: (origin, c) => (allowedOrigins(c.env as Env).includes(origin) ? origin : null),
      allowMethods: ["POST"],
      allowHeaders: ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"],
      exposeHeaders: ["mcp-session-id"],
      maxAge: 600,
    }),
  );
  app.post("/mcp", async (c) => {
    const origin = c.req.header("origin");
    const allowed = allowedOrigins(c.env as Env);
    if (origin !== undefined && origin !== new URL(c.req.url).origin && !allowed.includes(origin)) {
      throw new ApiError(403, "FORBIDDEN", "This origin may not call the MCP server");
    }
    const rate = parseRate(c.env.MCP_RATE_LIMIT, DEFAULT_MCP_RATE_LIMIT);
    const limiter = c.env.LIMITER.get(c.env.LIMITER.idFromName(`mcp:${clientKey(c.req.raw)}`));
    const { allowed: permitted, retryAfterSeconds } = await limiter.take(rate);
    if (!permitted) {
      const message = `Too many MCP requests from this client (${rate.count} per ${rate.seconds} s); retry in ${retryAfterSeconds} s`;
      return errorResponse(new ApiError(429, "RATE_LIMITED", message), {
        "retry-after": String(retryAfterSeconds),
      });
    }
    const body = await readText(c.req.raw, MAX_MCP_BODY, [/^application\/json\b/i], "application/json");
    return handleMcp(new Request(c.req.raw, { body }), c.env.SESSIONS);
  });
  app.all("/mcp", (c) =>
    errorResponse(new ApiError(405, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use POST`), {
      allow: "POST",
    }),
  );

  app.notFound(() => errorResponse(new ApiError(404, "NOT_FOUND", "No such route")));

  app.onError((error) => {
    if (error instanceof ApiError) return errorResponse(error);
    if (error instanceof ConfigError) {
      return errorResponse(new ApiError(400, error.code, error.message, error.path));
    }
    console.error(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return errorResponse(new ApiError(500, "INTERNAL", "Something went wrong on our side"));
  });

  return app;
}
