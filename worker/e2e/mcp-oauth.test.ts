/**
 * The demo Worker connects to an OAuth-protected MCP server, end to end: a local authorization server
 * and MCP server (worker/e2e/support/oauth-mcp-servers.ts, real HTTP on 127.0.0.1), the real Worker
 * under wrangler, and the real page in headless Chromium. The page starts the authorization, the
 * browser goes through the authorization server and back to the Worker's `/oauth/callback`, the page
 * shows the server connected, and a run calls its tool with the stored token. No token ever reaches
 * the page. Also: a callback for an authorization another browser started is refused (the browser
 * binding against consent phishing), and a forged callback is shown as an error on the page. Takes a
 * screenshot (test-results/demo-mcp-oauth.png).
 */
import { mkdirSync } from "node:fs";
import type { Page, Response as PageResponse } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type OAuthMcpServers, SECRET_PHRASE, startOAuthMcpServers } from "./support/oauth-mcp-servers.ts";
import { useDemo } from "./use-demo.ts";

const demo = useDemo();
let servers: OAuthMcpServers;

beforeAll(async () => {
  servers = await startOAuthMcpServers();
});
afterAll(() => servers?.close());

/** Records the body of every response the page receives (redirects have none). */
function recordBodies(page: Page): Promise<string>[] {
  const bodies: Promise<string>[] = [];
  page.on("response", (response: PageResponse) => {
    bodies.push(response.text().catch(() => ""));
  });
  return bodies;
}

it("the page authorizes an OAuth-protected MCP server and a run uses its tool; no token reaches the page", async () => {
  const context = await demo.browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const bodies = recordBodies(page);
  const visited: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  await page.goto(demo.worker.url);
  await expect.poll(() => page.textContent("#model")).toContain("scripted");

  await page.fill("#mcp-url", servers.mcpUrl);
  await page.fill("#mcp-prefix", "vault_");
  await page.click("#mcp-connect");

  // Through the authorization server and the Worker's callback, back to the page.
  await expect
    .poll(() => page.textContent("#status"), { timeout: 15_000 })
    .toBe("MCP server connected: its tools are in your next run");
  await expect
    .poll(() => page.textContent("#mcp-servers"))
    .toContain(`${servers.mcpUrl} (tools as vault_…) — connected`);
  expect(page.url()).toBe(`${demo.worker.url}/`);
  expect(visited.some((url) => url.startsWith(`${demo.worker.url}/oauth/callback?`))).toBe(false); // a redirect, not a page
  expect(servers.events.slice(0, 4)).toEqual([
    "mcp:401",
    "register",
    "authorize",
    "token:authorization_code",
  ]);
  expect(servers.issued.accessTokens).toHaveLength(1);

  // The scripted model calls the server's tool; the answer shows on the page.
  await page.fill("#prompt", 'call vault_secret {"who":"Ada"}');
  await page.click("#send");
  await expect
    .poll(() => page.textContent("#log"), { timeout: 15_000 })
    .toContain(`← vault_secret: ${SECRET_PHRASE}, Ada`);
  await expect.poll(() => page.locator(".end").last().textContent()).toContain("complete");
  expect(await page.textContent("#log")).toContain(`Here is what the tools said: ${SECRET_PHRASE}, Ada.`);
  expect(servers.secretCalls).toEqual([`Bearer ${servers.issued.accessTokens[0]}`]);
  mkdirSync("test-results", { recursive: true });
  await page.screenshot({ path: "test-results/demo-mcp-oauth.png", fullPage: true });

  // A reload still lists the server (it is the session's, in its Durable Object).
  await page.reload();
  await expect.poll(() => page.textContent("#mcp-servers")).toContain(servers.mcpUrl);

  // No token or refresh token in anything the page received, in its cookies, or in the export.
  const session = JSON.parse((await page.evaluate(() => localStorage.getItem("wisp-demo-session"))) ?? "{}");
  const exported = await (
    await fetch(`${demo.worker.url}/api/sessions/${session.sessionId}/export`, {
      headers: { authorization: `Bearer ${session.token}` },
    })
  ).text();
  const received = [...(await Promise.all(bodies)), exported, JSON.stringify(await context.cookies())];
  expect(received.join("").length).toBeGreaterThan(1000);
  for (const secret of [...servers.issued.accessTokens, ...servers.issued.refreshTokens]) {
    expect(received.some((body) => body.includes(secret))).toBe(false);
  }
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);

it("refuses a callback in a browser that did not start the authorization, and shows a forged one as an error", async () => {
  // Someone starts an authorization for their own session and sends its URL to someone else.
  const created = (await (await fetch(`${demo.worker.url}/api/sessions`, { method: "POST" })).json()) as {
    sessionId: string;
    token: string;
  };
  const started = await fetch(`${demo.worker.url}/api/sessions/${created.sessionId}/mcp-servers`, {
    method: "POST",
    headers: { authorization: `Bearer ${created.token}`, "content-type": "application/json" },
    body: JSON.stringify({ url: servers.mcpUrl }),
  });
  expect(started.status).toBe(202);
  const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
  expect(started.headers.get("set-cookie")).toMatch(
    /^wisp_mcp_oauth=[\w-]+; Path=\/oauth\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
  );

  const context = await demo.browser.newContext();
  const page = await context.newPage();
  await page.goto(demo.worker.url);
  await page.goto(authorizationUrl);
  await expect
    .poll(() => page.textContent("#status"), { timeout: 15_000 })
    .toBe(
      "could not connect the MCP server: that authorization was started in another browser; connect from this one (OAUTH_BROWSER_MISMATCH)",
    );
  const listed = await fetch(`${demo.worker.url}/api/sessions/${created.sessionId}/mcp-servers`, {
    headers: { authorization: `Bearer ${created.token}` },
  });
  expect(await listed.json()).toEqual({ servers: [] });

  // A callback with a state nobody started.
  await page.goto(`${demo.worker.url}/oauth/callback?code=forged&state=abcdefghijklmnopqrstuvwxyz012345`);
  await expect
    .poll(() => page.textContent("#status"), { timeout: 10_000 })
    .toBe(
      "could not connect the MCP server: that authorization is unknown, expired or was already used; connect again (OAUTH_STATE_INVALID)",
    );
  await context.close();
}, 60_000);

it("connects a server that needs no authorization at once (201, its tool names, never a token)", async () => {
  const created = (await (await fetch(`${demo.worker.url}/api/sessions`, { method: "POST" })).json()) as {
    sessionId: string;
    token: string;
  };
  const added = await fetch(`${demo.worker.url}/api/sessions/${created.sessionId}/mcp-servers`, {
    method: "POST",
    headers: { authorization: `Bearer ${created.token}`, "content-type": "application/json" },
    body: JSON.stringify({ url: `${demo.worker.url}/mcp`, prefix: "n_" }),
  });
  const body = (await added.json()) as {
    status: string;
    server: { url: string; prefix: string; tools: string[] };
  };
  expect([added.status, body.status, body.server.prefix]).toEqual([201, "connected", "n_"]);
  expect(body.server.tools.sort()).toEqual(["n_add", "n_delete", "n_list", "n_read"]);
  expect(added.headers.get("set-cookie")).toBeNull();
}, 30_000);

/** Connects a new session to the OAuth server without a browser (the redirects followed by hand). */
async function connectedSession(): Promise<{ sessionId: string; token: string }> {
  const session = (await (await fetch(`${demo.worker.url}/api/sessions`, { method: "POST" })).json()) as {
    sessionId: string;
    token: string;
  };
  const started = await fetch(`${demo.worker.url}/api/sessions/${session.sessionId}/mcp-servers`, {
    method: "POST",
    headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
    body: JSON.stringify({ url: servers.mcpUrl, prefix: "vault_" }),
  });
  const cookie = (started.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
  const approved = await fetch(authorizationUrl, { redirect: "manual" });
  const callback = await fetch(approved.headers.get("location") ?? "", { headers: { cookie } });
  expect(callback.status).toBe(200);
  return session;
}

/** Runs `text` in the session; the tool results of the run. */
async function toolResults(session: { sessionId: string; token: string }, text: string): Promise<string[]> {
  const run = await fetch(`${demo.worker.url}/api/sessions/${session.sessionId}/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
  const stream = await run.text();
  return [...stream.matchAll(/^event: tool-result\ndata: (.*)$/gm)].map(
    (match) => (JSON.parse(match[1] ?? "{}") as { output: string }).output,
  );
}

it("renews a refused access token with the refresh token; with both refused, the run goes on without the server", async () => {
  const session = await connectedSession();
  expect(await toolResults(session, "call vault_secret")).toEqual([SECRET_PHRASE]);

  servers.revokeAccessTokens();
  const refreshesBefore = servers.events.filter((event) => event === "token:refresh_token").length;
  expect(await toolResults(session, "call vault_secret")).toEqual([SECRET_PHRASE]);
  expect(servers.events.filter((event) => event === "token:refresh_token").length).toBe(refreshesBefore + 1);

  servers.revokeAccessTokens();
  servers.revokeRefreshTokens();
  expect(await toolResults(session, "call vault_secret")).toEqual([]); // the tool is not offered
  const listed = await fetch(`${demo.worker.url}/api/sessions/${session.sessionId}/mcp-servers`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(((await listed.json()) as { servers: unknown[] }).servers).toHaveLength(1); // connect it again to use it
}, 60_000);
