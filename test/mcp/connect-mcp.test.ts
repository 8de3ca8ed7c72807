/**
 * `connectMcp` against the official MCP TypeScript SDK's server on real loopback HTTP: stateful
 * (sessions, the GET stream, SSE answers), stateful with JSON answers, and stateless.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { toolAnswer } from "../../src/agent/tool-answer.ts";
import {
  createAgentSession,
  defineTool,
  type Message,
  runAgent,
  type SessionState,
  type ToolContext,
} from "../../src/index.ts";
import {
  connectMcp,
  type McpConnection,
  type McpProgress,
  McpToolFailure,
  mcpMetadata,
  mcpServerRecord,
} from "../../src/mcp/index.ts";
import type { JsonObject } from "../../src/types.ts";
import { calls, says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";
import { startOfficialServer } from "./support/official-server.mjs";
import { toolNamed } from "./support/tool-named.ts";

type Server = Awaited<ReturnType<typeof startOfficialServer>>;

const context = (signal: AbortSignal = new AbortController().signal): ToolContext => ({
  signal,
  toolCallId: "call_1",
  sessionId: "s",
  turn: 1,
  messages: [] as Message[],
});

async function connected(options: Parameters<typeof connectMcp>[0]): Promise<McpConnection> {
  const result = await connectMcp(options);
  if (!result.ok) throw result.error;
  return result.value;
}

describe("a stateful server answering with SSE", () => {
  let server: Server;
  const open: McpConnection[] = [];
  beforeAll(async () => {
    server = await startOfficialServer();
  });
  afterAll(async () => {
    for (const connection of open) await connection.close();
    await server.close();
  });
  const connect = async (extra: Partial<Parameters<typeof connectMcp>[0]> = {}) => {
    const connection = await connected({ url: server.url, ...extra });
    open.push(connection);
    return connection;
  };

  it("negotiates the newest version, keeps the session id and lists the server's tools", async () => {
    const connection = await connect({ headers: { authorization: "Bearer secret-token" } });
    expect(connection.tools.map((tool) => tool.name).sort()).toEqual(
      ["add", "fail", "grow", "picture", "poll", "sleep", "weather"].sort(),
    );
    expect(connection.serverInfo.name).toBe("wisp-test-server");
    const record = connection.record();
    expect(record.protocolVersion).toBe("2025-11-25");
    expect(record.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.sessions.has(record.sessionId as string)).toBe(true);
    expect(JSON.stringify(record)).not.toContain("secret-token");
    const add = toolNamed(connection, "add");
    expect(add.inputSchema).toMatchObject({ type: "object", required: ["a", "b"] });
  });

  it("sends the caller's headers and MCP-Protocol-Version after initialize", async () => {
    const before = server.log.methods.length;
    const connection = await connect({ headers: { authorization: "Bearer abc" } });
    await toolNamed(connection, "add").execute({ a: 1, b: 2 }, context());
    const methods = server.log.methods.slice(before);
    const versions = server.log.versions.slice(before);
    expect(methods).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call"]);
    expect(versions.slice(1)).toEqual(["2025-11-25", "2025-11-25", "2025-11-25"]);
    expect(server.log.authorizations.slice(before)).toEqual(Array(4).fill("Bearer abc"));
  });

  it("runs a tool in an agent run: the model's call reaches the server and its answer the model", async () => {
    const connection = await connect();
    const { model, options } = scripted([calls(["add", { a: 2, b: 3 }]), says("It is 5.")]);
    const result = await runAgent(options({ tools: connection.tools }));
    expect(result.ok).toBe(true);
    const toolResult = result.ok
      ? result.value.messages.find((message) => message.role === "tool_result")
      : undefined;
    expect(toolResult?.content[0]).toMatchObject({ output: "5", isError: false });
    expect(JSON.stringify(model.requests.at(-1)?.body)).toContain('"5"');
  });

  it("checks arguments against the input schema before calling the server", async () => {
    const connection = await connect();
    const add = toolNamed(connection, "add");
    const parsed = await add.parseArgs?.({ a: "two" });
    expect(parsed).toEqual({ ok: false, message: "b: required; a: expected number, got string" });
    expect(await add.parseArgs?.({ a: 1, b: 2 })).toEqual({ ok: true, args: { a: 1, b: 2 } });
  });

  it("turns an isError result into a failure the run reports to the model as an error result", async () => {
    const connection = await connect();
    await expect(toolNamed(connection, "fail").execute({ why: "on purpose" }, context())).rejects.toThrow(
      new McpToolFailure("failed: on purpose"),
    );
    const { options } = scripted([calls(["fail", { why: "nope" }]), says("ok")]);
    const result = await runAgent(options({ tools: connection.tools }));
    const toolResult = result.ok
      ? result.value.messages.find((message) => message.role === "tool_result")
      : undefined;
    expect(toolResult?.content[0]).toMatchObject({ isError: true });
    expect(JSON.stringify(toolResult)).toContain("failed: nope");
  });

  it("sends structured content checked against the output schema", async () => {
    const connection = await connect();
    const output = await toolNamed(connection, "weather").execute({ city: "Oslo" }, context());
    expect(JSON.parse(output as string)).toEqual({ city: "Oslo", celsius: 21 });
  });

  it("gives text, the image and an embedded text resource, and the whole result to onResult", async () => {
    const results: JsonObject[] = [];
    const connection = await connect({ onResult: (_tool, result) => results.push(result) });
    const output = await toolNamed(connection, "picture").execute({}, context());
    expect(toolAnswer(output)).toEqual({
      text: "here it is\n[resource note://1 (text/plain)]\nnote one",
      images: [{ type: "image", data: expect.any(String), mimeType: "image/png" }],
    });
    expect(results[0]?.content).toHaveLength(3);
  });

  it("reports progress of a call", async () => {
    const seen: Array<[string, McpProgress]> = [];
    const connection = await connect({ onProgress: (tool, progress) => seen.push([tool, progress]) });
    expect(await toolNamed(connection, "sleep").execute({ ms: 10 }, context())).toBe("slept 10 ms");
    expect(seen).toEqual([["sleep", { progress: 0, total: 10, message: "started" }]]);
  });

  it("an abort settles the call at once and the server's handler sees notifications/cancelled", async () => {
    const connection = await connect();
    const controller = new AbortController();
    const call = toolNamed(connection, "sleep").execute({ ms: 30_000 }, context(controller.signal));
    await vi.waitFor(() => expect(server.log.methods.at(-1)).toBe("tools/call"));
    controller.abort();
    await expect(call).rejects.toMatchObject({ _tag: "AbortError", code: "ABORTED" });
    await vi.waitFor(() => expect(server.log.methods).toContain("notifications/cancelled"));
    await vi.waitFor(() => expect(server.log.cancelled.length).toBeGreaterThan(0));
  });

  it("an abort of an agent run during an MCP call ends the run as aborted", async () => {
    const connection = await connect();
    const cancelledBefore = server.log.cancelled.length;
    const { options } = scripted([calls(["sleep", { ms: 30_000 }]), says("done")]);
    const controller = new AbortController();
    const run = runAgent(options({ tools: connection.tools, signal: controller.signal }));
    await vi.waitFor(() => expect(server.log.methods.at(-1)).toBe("tools/call"));
    controller.abort();
    const result = await run;
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error.code).toBe("ABORTED");
    await vi.waitFor(() => expect(server.log.cancelled.length).toBe(cancelledBefore + 1));
  });

  it("a call past timeoutMs fails with a TIMEOUT RequestError and is cancelled on the server", async () => {
    const connection = await connect({ timeoutMs: 300 });
    const cancelledBefore = server.log.cancelled.length;
    await expect(toolNamed(connection, "sleep").execute({ ms: 30_000 }, context())).rejects.toMatchObject({
      _tag: "RequestError",
      code: "TIMEOUT",
      provider: "mcp",
    });
    await vi.waitFor(() => expect(server.log.cancelled.length).toBe(cancelledBefore + 1));
  });

  it("reads the tool list again on notifications/tools/list_changed", async () => {
    const changes: string[][] = [];
    const notifications: string[] = [];
    const connection = await connect({
      onToolsChanged: (tools) => changes.push(tools.map((tool) => tool.name)),
      onNotification: (method) => notifications.push(method),
    });
    expect(await toolNamed(connection, "grow").execute({}, context())).toMatch(/^added extra_\d+$/);
    await vi.waitFor(() => expect(changes.length).toBeGreaterThan(0));
    expect(connection.tools.some((tool) => tool.name.startsWith("extra_"))).toBe(true);
    expect(notifications).toContain("notifications/tools/list_changed");
  });

  it("a server that forgot the session (404) is initialized again, once, transparently", async () => {
    const connection = await connect();
    const oldSession = connection.record().sessionId;
    server.forgetSessions();
    const before = server.log.methods.length;
    expect(await toolNamed(connection, "add").execute({ a: 4, b: 4 }, context())).toBe("8");
    expect(server.log.methods.slice(before)).toEqual([
      "tools/call",
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
    expect(connection.record().sessionId).not.toBe(oldSession);
  });

  it("a clash with a local tool's name is a ConfigError before the run, and a prefix resolves it", async () => {
    const local = defineTool({
      name: "add",
      description: "local",
      inputSchema: { type: "object" },
      execute: () => "local",
    });
    const clashing = await connect({ filter: (tool) => tool.name === "add" });
    const { options } = scripted([calls(["add", { a: 1, b: 1 }]), says("2")]);
    const refused = await runAgent(options({ tools: [...clashing.tools, local] }));
    expect(refused.ok ? undefined : refused.error).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
    });

    const connection = await connect({ prefix: "calc_", filter: (tool) => tool.name === "add" });
    expect(connection.tools.map((tool) => tool.name)).toEqual(["calc_add"]);
    const { options: next } = scripted([calls(["calc_add", { a: 1, b: 1 }]), says("2")]);
    const result = await runAgent(next({ tools: [...connection.tools, local] }));
    expect(result.ok ? result.value.toolCalls[0]?.result.output : undefined).toBe("2");
  });

  it("a session kept in SessionState metadata is taken over without a new handshake", async () => {
    const first = await connect({ url: `${server.url}?token=hunter2` });
    const metadata = JSON.parse(JSON.stringify(mcpMetadata(first))) as JsonObject;
    expect(JSON.stringify(metadata)).not.toContain("hunter2");
    const record = mcpServerRecord(metadata, `${server.url}?token=hunter2`);
    expect(record).toEqual(first.record());
    const before = server.log.methods.length;
    const second = await connect({
      url: `${server.url}?token=hunter2`,
      ...(record ? { resume: record } : {}),
    });
    expect(await toolNamed(second, "add").execute({ a: 1, b: 6 }, context())).toBe("7");
    expect(server.log.methods.slice(before)).toEqual(["tools/list", "tools/call"]);
    expect(second.record().sessionId).toBe(first.record().sessionId);
  });

  it("needsApproval pauses the run before the call reaches the server", async () => {
    const connection = await connect({ needsApproval: (tool) => tool.name === "add" });
    expect(connection.tools.filter((tool) => tool.needsApproval === true).map((tool) => tool.name)).toEqual([
      "add",
    ]);
    const before = server.log.methods.length;
    const { options } = scripted([calls(["add", { a: 1, b: 2 }]), says("done")]);
    const result = await runAgent(options({ tools: connection.tools }));
    expect(result.ok ? result.value.stopReason : result.error.code).toBe("approval");
    expect(result.ok ? result.value.pendingApprovals?.map((pending) => pending.toolName) : []).toEqual([
      "add",
    ]);
    expect(server.log.methods.slice(before)).toEqual([]);
  });

  it("a call after close is a SESSION_CLOSED ConfigError and sends nothing", async () => {
    const connection = await connected({ url: server.url });
    await connection.close();
    const before = server.log.methods.length;
    await expect(toolNamed(connection, "add").execute({ a: 1, b: 1 }, context())).rejects.toMatchObject({
      _tag: "ConfigError",
      code: "SESSION_CLOSED",
    });
    expect(server.log.methods.length).toBe(before);
  });

  it("a session exported with the record in its metadata reconnects to the same MCP session when restored", async () => {
    const url = `${server.url}?key=sk-secret`;
    const first = await connect({ url, headers: { authorization: "Bearer never-stored" } });
    const script = [calls(["add", { a: 1, b: 1 }]), says("2"), calls(["add", { a: 2, b: 2 }]), says("4")];
    const options = {
      model: "anthropic/claude-sonnet-4-5" as const,
      apiKey: "test-key",
      fetch: scripted(script).model.fetch,
    };
    const session = okValue(
      await createAgentSession({
        ...options,
        tools: first.tools,
        metadata: mcpMetadata(first),
      }),
    );
    expect((await session.chat("one plus one")).ok).toBe(true);
    const stored = JSON.parse(JSON.stringify(session.export())) as SessionState;
    expect(JSON.stringify(stored)).not.toMatch(/sk-secret|never-stored/);

    const record = mcpServerRecord(stored.metadata, url);
    expect(record?.sessionId).toBe(first.record().sessionId);
    const before = server.log.methods.length;
    const second = await connect({
      url,
      headers: { authorization: "Bearer never-stored" },
      ...(record ? { resume: record } : {}),
    });
    const restored = okValue(await createAgentSession({ ...options, restore: stored, tools: second.tools }));
    const result = await restored.chat("two plus two");
    expect(result.ok ? result.value.toolCalls[0]?.result.output : undefined).toBe("4");
    expect(server.log.methods.slice(before)).toEqual(["tools/list", "tools/call"]);
  });

  it("close ends the session on the server", async () => {
    const connection = await connected({ url: server.url });
    const id = connection.record().sessionId as string;
    expect(server.sessions.has(id)).toBe(true);
    await connection.close();
    await vi.waitFor(() => expect(server.sessions.has(id)).toBe(false));
  });

  it("close({ endSession: false }) keeps the server's session, which a later connection resumes", async () => {
    const first = await connected({ url: server.url });
    const record = first.record();
    const before = server.log.methods.length;
    await first.close({ endSession: false });
    expect(server.sessions.has(record.sessionId as string)).toBe(true);
    await expect(toolNamed(first, "add").execute({ a: 1, b: 1 }, context())).rejects.toMatchObject({
      code: "SESSION_CLOSED",
    });
    const second = await connected({ url: server.url, resume: record, listen: false });
    expect(await toolNamed(second, "add").execute({ a: 2, b: 3 }, context())).toBe("5");
    expect(server.log.methods.slice(before)).toEqual(["tools/list", "tools/call"]);
    await second.close();
    await vi.waitFor(() => expect(server.sessions.has(record.sessionId as string)).toBe(false));
  });
});

describe("a stateful server answering with JSON", () => {
  let server: Server;
  beforeAll(async () => {
    server = await startOfficialServer({ json: true });
  });
  afterAll(() => server.close());

  it("calls tools and reads plain JSON responses", async () => {
    const connection = await connected({ url: server.url });
    expect(await toolNamed(connection, "add").execute({ a: 20, b: 22 }, context())).toBe("42");
    expect(connection.record().sessionId).toBeDefined();
    await connection.close();
  });
});

describe("a stateful server that keeps events (resumable streams)", () => {
  let server: Server;
  beforeAll(async () => {
    server = await startOfficialServer({ resumable: true });
  });
  afterAll(() => server.close());

  it("resumes a response stream the server closed, with Last-Event-ID, and gets the answer", async () => {
    const connection = await connected({ url: server.url, listen: false });
    expect(await toolNamed(connection, "poll").execute({}, context())).toBe("answered after a resume");
    expect(server.log.resumes.length).toBeGreaterThan(0);
    expect(await toolNamed(connection, "add").execute({ a: 1, b: 2 }, context())).toBe("3");
    await connection.close();
  });
});

describe("a stateless server", () => {
  let server: Server;
  beforeAll(async () => {
    server = await startOfficialServer({ stateless: true });
  });
  afterAll(() => server.close());

  it("works without a session id: list, call, structured content, failure", async () => {
    const connection = await connected({ url: server.url });
    expect(connection.record().sessionId).toBeUndefined();
    expect(await toolNamed(connection, "add").execute({ a: 2, b: 2 }, context())).toBe("4");
    expect(
      JSON.parse((await toolNamed(connection, "weather").execute({ city: "Rome" }, context())) as string),
    ).toEqual({
      city: "Rome",
      celsius: 21,
    });
    await expect(toolNamed(connection, "fail").execute({ why: "x" }, context())).rejects.toThrow("failed: x");
    await connection.close();
  });
});
