/**
 * The routes by which a session adds MCP servers of its own, OAuth-protected ones included:
 *
 * - `POST /api/sessions/:id/mcp-servers` `{ url, prefix? }` (the session's token, like every session
 *   route): 201 `{ status: "connected", server }` when the server lets the session in, or 202
 *   `{ status: "authorization_required", authorizationUrl }` for the page to send the person to
 *   (and a cookie that binds the authorization to this browser, see worker/oauth-state.ts). Limited per
 *   client like creating sessions (429 `RATE_LIMITED`).
 * - `GET /api/sessions/:id/mcp-servers`: `{ servers: [{ url, prefix?, addedAt }] }`.
 * - `GET /oauth/callback?code&state`: where the authorization server sends the person back. It finds
 *   the session by `state`, finishes the authorization in the session's Durable Object (the tokens
 *   stay there), and sends the browser back to the page (`/?mcp=connected`, or
 *   `/?mcp=failed&code=<CODE>`); a client that is not a browser navigating gets the API's JSON. A
 *   callback for a session deleted meanwhile writes nothing and is 404 `NOT_FOUND`
 *   (`/?mcp=failed&code=NOT_FOUND` for a browser).
 *
 * The work itself runs in the session's Durable Object (worker/session-mcp.ts).
 *
 * @module
 */

import type { Context, Hono } from "hono";
import { ApiError, errorResponse, readJson } from "./api-error.ts";
import { clientKey, parseRate } from "./client-limiter.ts";
import type { Env } from "./env.ts";
import { checkMcpUrl } from "./mcp-url-policy.ts";
import {
  bindingCookie,
  CALLBACK_PATH,
  plausibleState,
  rememberAuthorization,
  takeAuthorization,
} from "./oauth-state.ts";
import { apiHeaders } from "./security-headers.ts";
import type { AuthorizationNeeded, SessionMcpCommand } from "./session-mcp.ts";

type App = { Bindings: Env; Variables: { sessionId: string } };

/** Largest body of an add-server request. */
const MAX_ADD_BODY = 8 * 1024;

/** What a tool-name prefix may look like (it goes in front of every tool's name). */
const PREFIX_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;

/** Sends a command to the session's Durable Object. */
function runner(env: Env, sessionId: string, command: SessionMcpCommand): Promise<Response> {
  const stub = env.RUNNER.get(env.RUNNER.idFromName(sessionId));
  return stub.fetch("https://runner/", { method: "POST", body: JSON.stringify(command) });
}

/** The `{ url, prefix? }` of an add-server request, checked. */
function serverOf(body: unknown): { url: string; prefix?: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "INVALID_REQUEST", "The body must be an object { url, prefix? }");
  }
  const { url, prefix } = body as { url?: unknown; prefix?: unknown };
  const checked = checkMcpUrl(url);
  if (prefix === undefined || prefix === "") return { url: checked };
  if (typeof prefix !== "string" || !PREFIX_PATTERN.test(prefix)) {
    throw new ApiError(
      400,
      "INVALID_REQUEST",
      "prefix must be a letter then up to 31 letters, digits or _",
      "prefix",
    );
  }
  return { url: checked, prefix };
}

/** Whether the request is a browser navigating (it gets redirects to the page, not JSON). */
function navigating(c: Context<App>): boolean {
  return c.req.header("sec-fetch-mode") === "navigate" || /\btext\/html\b/.test(c.req.header("accept") ?? "");
}

/** The page, with the outcome of an authorization in its query (no secret is ever put there). */
function backToPage(
  c: Context<App>,
  outcome: { mcp: "connected" } | { mcp: "failed"; code: string },
): Response {
  const page = new URL("/", c.req.url);
  for (const [name, value] of Object.entries(outcome)) page.searchParams.set(name, value);
  return new Response(null, { status: 303, headers: { location: page.href } });
}

/** Adds the routes to the app (after its `/api/sessions/:id/*` token check). */
export function mountMcpServerRoutes(app: Hono<App>): void {
  app.post("/api/sessions/:id/mcp-servers", async (c) => {
    const server = serverOf(await readJson(c.req.raw, MAX_ADD_BODY));
    // Each attempt makes requests to a URL the client chose: limited per client like creating
    // sessions (CREATE_RATE_LIMIT), on a counter of its own.
    const rate = parseRate(c.env.CREATE_RATE_LIMIT);
    const limiter = c.env.LIMITER.get(c.env.LIMITER.idFromName(`mcp-connect:${clientKey(c.req.raw)}`));
    const { allowed, retryAfterSeconds } = await limiter.take(rate);
    if (!allowed) {
      const message = `Too many MCP connection attempts from this client (${rate.count} per ${rate.seconds} s); retry in ${retryAfterSeconds} s`;
      return errorResponse(new ApiError(429, "RATE_LIMITED", message), {
        "retry-after": String(retryAfterSeconds),
      });
    }
    const sessionId = c.get("sessionId");
    const redirectUrl = new URL(CALLBACK_PATH, c.req.url).href;
    const answer = await runner(c.env, sessionId, { op: "mcp-connect", sessionId, ...server, redirectUrl });
    if (answer.status !== 202) return answer;
    const { authorizationUrl, state } = (await answer.json()) as AuthorizationNeeded;
    const nonce = await rememberAuthorization(
      c.env.SESSIONS,
      state,
      { sessionId, redirectUrl, ...server },
      c.req.header("cookie"),
    );
    return Response.json(
      { status: "authorization_required", authorizationUrl },
      {
        status: 202,
        headers: { "set-cookie": bindingCookie(nonce, new URL(c.req.url).protocol === "https:") },
      },
    );
  });

  app.get("/api/sessions/:id/mcp-servers", (c) => {
    const sessionId = c.get("sessionId");
    return runner(c.env, sessionId, { op: "mcp-list", sessionId });
  });

  app.all("/api/sessions/:id/mcp-servers", (c) =>
    errorResponse(
      new ApiError(405, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use GET or POST`),
      {
        allow: "GET, POST",
      },
    ),
  );

  app.use(CALLBACK_PATH, apiHeaders);
  app.get(CALLBACK_PATH, async (c) => {
    const fail = (error: ApiError): Response =>
      navigating(c) ? backToPage(c, { mcp: "failed", code: error.code }) : errorResponse(error);
    const state = c.req.query("state");
    if (!plausibleState(state)) {
      return fail(new ApiError(400, "OAUTH_STATE_INVALID", "The callback carries no valid state", "state"));
    }
    const entry = await takeAuthorization(c.env.SESSIONS, state, c.req.header("cookie"));
    if (entry === "unknown") {
      return fail(
        new ApiError(
          400,
          "OAUTH_STATE_INVALID",
          "No authorization is waiting for this state (unknown, expired, or already used)",
          "state",
        ),
      );
    }
    if (entry === "other_browser") {
      return fail(
        new ApiError(403, "OAUTH_BROWSER_MISMATCH", "This authorization was started in another browser"),
      );
    }
    const { sessionId, url, prefix, redirectUrl } = entry;
    const finished = await runner(c.env, sessionId, {
      op: "mcp-finish",
      sessionId,
      url,
      redirectUrl,
      callbackUrl: c.req.url,
      ...(prefix === undefined ? {} : { prefix }),
    });
    if (!finished.ok) {
      const body = (await finished.json().catch(() => ({}))) as {
        error?: { code?: string; message?: string };
      };
      const code = body.error?.code ?? "OAUTH_FAILED";
      return fail(
        new ApiError(finished.status, code, body.error?.message ?? "The authorization did not complete"),
      );
    }
    return navigating(c) ? backToPage(c, { mcp: "connected" }) : finished;
  });
  app.all(CALLBACK_PATH, (c) =>
    errorResponse(new ApiError(405, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use GET`), {
      allow: "GET",
    }),
  );
}
