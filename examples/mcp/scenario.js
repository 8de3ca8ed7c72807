/**
 * The MCP scenario: the same checks in every runtime (Node, Deno, Bun, Chromium, workerd) against a
 * real MCP server (the official TypeScript SDK's, started by the test on 127.0.0.1 — see
 * test/mcp/runtimes.test.ts) through the built package. It connects, calls tools directly and from an
 * agent run on the scripted model (an image result among them), checks arguments, reads failures and structured content, aborts a
 * call (the server then records the cancellation), times one out, follows a tool-list change, and
 * reports whether this runtime allows code generation from strings (it should not matter: Wisp never
 * asks for it). `runMcpScenario` returns the number of failed checks.
 */
import { runAgent } from "wisp-agent";
import { connectMcp } from "wisp-agent/mcp";
import { createScriptedModel } from "wisp-agent/testing";

/** The number of checks the scenario makes. */
export const MCP_CHECKS = 10;

/** @param {unknown} error */
const describe = (error) =>
  error && typeof error === "object"
    ? `${/** @type {any} */ (error)._tag ?? ""} ${/** @type {any} */ (error).code ?? ""} ${/** @type {any} */ (error).message ?? ""}`
    : String(error);

/** Whether `new Function` works here (it must not, under the flags and CSPs the tests use). */
function codeGeneration() {
  try {
    return new Function("return 1")() === 1 ? "allowed" : "refused";
  } catch {
    return "refused";
  }
}

/** @param {import("wisp-agent").Tool<any>[]} tools @param {string} name */
const find = (tools, name) => {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
};

/** @param {AbortSignal} signal */
const ctx = (signal = new AbortController().signal) => ({
  signal,
  toolCallId: "c1",
  sessionId: "s",
  turn: 1,
  messages: [],
});

/**
 * @param {{ url: string, log: (line: string) => void }} options
 * @returns {Promise<number>}
 */
export async function runMcpScenario({ url, log }) {
  let failed = 0;
  /** @param {string} what @param {() => Promise<boolean | string>} body */
  const check = async (what, body) => {
    let outcome;
    try {
      outcome = await body();
    } catch (error) {
      outcome = `threw ${describe(error)}`;
    }
    if (outcome !== true) failed++;
    log(
      outcome === true ? `ok   ${what}` : `FAIL ${what}: ${outcome === false ? "not as expected" : outcome}`,
    );
  };
  log(`code generation from strings: ${codeGeneration()}`);

  const changes = [];
  let started = () => {};
  const connected = await connectMcp({
    url,
    headers: { authorization: "Bearer scenario" },
    onToolsChanged: (tools) => changes.push(tools.length),
    onProgress: (_tool, progress) => progress.message === "started" && started(),
  });
  if (!connected.ok) {
    log(`FAIL connect: ${describe(connected.error)}`);
    log(`FAILED: ${MCP_CHECKS} of ${MCP_CHECKS} checks failed`);
    return MCP_CHECKS;
  }
  const mcp = connected.value;

  await check("connected: version 2025-11-25, a session, the server's tools", async () => {
    const record = mcp.record();
    const names = mcp.tools.map((tool) => tool.name);
    return (
      record.protocolVersion === "2025-11-25" &&
      typeof record.sessionId === "string" &&
      names.includes("add") &&
      names.includes("sleep")
    );
  });
  await check(
    "add answers 5",
    async () => (await find(mcp.tools, "add").execute({ a: 2, b: 3 }, ctx())) === "5",
  );
  await check("arguments are checked against the input schema", async () => {
    const parsed = await find(mcp.tools, "add").parseArgs?.({ a: "x", b: 1 });
    return parsed?.ok === false && parsed.message === "a: expected number, got string";
  });
  await check("an isError result fails the call with the server's text", async () => {
    try {
      await find(mcp.tools, "fail").execute({ why: "scenario" }, ctx());
      return false;
    } catch (error) {
      return /** @type {Error} */ (error).message === "failed: scenario";
    }
  });
  await check("structured content arrives as JSON", async () => {
    const output = await find(mcp.tools, "weather").execute({ city: "Oslo" }, ctx());
    return JSON.stringify(JSON.parse(String(output))) === '{"city":"Oslo","celsius":21}';
  });
  await check("an agent run calls the MCP tool and reads its answer", async () => {
    const model = createScriptedModel({
      script: [
        { content: [{ type: "tool_call", name: "add", args: { a: 20, b: 22 } }] },
        { content: [{ type: "text", text: "42" }] },
      ],
    });
    const result = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "x",
      fetch: model.fetch,
      prompt: "add",
      tools: mcp.tools,
    });
    return (
      result.ok &&
      result.value.toolCalls[0]?.result.output === "42" &&
      result.value.toolCalls[0]?.result.isError === false
    );
  });
  await check("an image result reaches the model as an image in the tool result", async () => {
    const model = createScriptedModel({
      script: [
        { content: [{ type: "tool_call", name: "picture", args: {} }] },
        { content: [{ type: "text", text: "A tiny image." }] },
      ],
    });
    const result = await runAgent({
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "x",
      fetch: model.fetch,
      prompt: "picture",
      tools: mcp.tools,
    });
    const sent = JSON.stringify(model.requests[1]?.body ?? {});
    return (
      result.ok &&
      result.value.toolCalls[0]?.result.images?.[0]?.mimeType === "image/png" &&
      sent.includes('"type":"image","source":{"type":"base64","media_type":"image/png"')
    );
  });
  await check("an abort settles a running call at once as ABORTED", async () => {
    const controller = new AbortController();
    started = () => controller.abort();
    try {
      await find(mcp.tools, "sleep").execute({ ms: 30_000 }, ctx(controller.signal));
      return false;
    } catch (error) {
      return /** @type {any} */ (error).code === "ABORTED";
    }
  });
  await check("a call past timeoutMs is a TIMEOUT RequestError", async () => {
    const quick = await connectMcp({ url, timeoutMs: 300, listen: false });
    if (!quick.ok) return `connect: ${describe(quick.error)}`;
    try {
      await find(quick.value.tools, "sleep").execute({ ms: 30_000 }, ctx());
      return false;
    } catch (error) {
      return (
        /** @type {any} */ (error)._tag === "RequestError" && /** @type {any} */ (error).code === "TIMEOUT"
      );
    } finally {
      await quick.value.close();
    }
  });
  await check("a tool-list change is followed", async () => {
    const before = mcp.tools.length;
    await find(mcp.tools, "grow").execute({}, ctx());
    for (let wait = 0; wait < 100 && changes.length === 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return mcp.tools.length === before + 1;
  });
  await mcp.close();
  log(`${failed === 0 ? "passed" : "FAILED"}: ${failed} of ${MCP_CHECKS} checks failed`);
  return failed;
}
