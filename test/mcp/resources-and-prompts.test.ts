/**
 * Resources and prompts on an MCP connection, against the official SDK's McpServer on real loopback
 * HTTP: listing (with templates), reading text and binary contents, list changes, prompts with
 * arguments, and turning both into a Wisp prompt's parts; plus a server of prompts only (no tools).
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgent } from "../../src/index.ts";
import { connectMcp, resourceParts } from "../../src/mcp/index.ts";
import { says, scripted } from "../support/agent.ts";
import { okValue } from "../support/results.ts";
import { callContext, useExtendedServer } from "./support/extended-server.ts";
import { toolNamed } from "./support/tool-named.ts";

/** A 1×1 PNG: an image every provider takes. */
const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function extend(server: McpServer): void {
  server.registerResource(
    "today",
    "notes://today",
    { title: "Today's notes", description: "What happened today", mimeType: "text/markdown" },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/markdown", text: "# Today\nShipped MCP." }],
    }),
  );
  server.registerResource("logo", "images://logo", { mimeType: "image/png" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: PIXEL }],
  }));
  server.registerResource(
    "note",
    new ResourceTemplate("notes://{id}", { list: undefined }),
    { description: "One note by id" },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `note ${String(id)}` }] }),
  );
  server.registerPrompt(
    "review",
    {
      title: "Review code",
      description: "Asks for a review",
      argsSchema: { language: z.string(), focus: z.string().optional() },
    },
    ({ language, focus }) => ({
      description: `A ${language} review`,
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Review this ${language}${focus ? ` for ${focus}` : ""}.` },
        },
        { role: "assistant", content: { type: "text", text: "Send the code." } },
        { role: "user", content: { type: "image", data: PIXEL, mimeType: "image/png" } },
      ],
    }),
  );
  let added = 0;
  server.registerTool("add-note", { description: "Adds a resource and a prompt" }, async () => {
    added++;
    server.registerResource(`extra-${added}`, `notes://extra-${added}`, {}, async (uri) => ({
      contents: [{ uri: uri.href, text: "extra" }],
    }));
    server.registerPrompt(`extra-${added}`, { description: "Extra" }, () => ({ messages: [] }));
    return { content: [{ type: "text", text: "added" }] };
  });
}

describe("resources and prompts from the official server", () => {
  const served = useExtendedServer(extend);
  const connect = served.connect;

  it("lists resources and templates with what the server said of them", async () => {
    const connection = await connect();
    const resources = okValue(await connection.listResources());
    expect(resources).toContainEqual({
      uri: "notes://today",
      name: "today",
      title: "Today's notes",
      description: "What happened today",
      mimeType: "text/markdown",
    });
    expect(resources.map((resource) => resource.uri)).toContain("images://logo");
    const templates = okValue(await connection.listResourceTemplates());
    expect(templates).toEqual([{ uriTemplate: "notes://{id}", name: "note", description: "One note by id" }]);
  });

  it("reads text, binary and templated resources, and makes them a prompt's parts", async () => {
    const connection = await connect();
    const today = okValue(await connection.readResource("notes://today"));
    expect(today).toEqual([
      { uri: "notes://today", mimeType: "text/markdown", text: "# Today\nShipped MCP." },
    ]);
    const logo = okValue(await connection.readResource("images://logo"));
    expect(logo).toEqual([{ uri: "images://logo", mimeType: "image/png", blob: PIXEL }]);
    expect(okValue(await connection.readResource("notes://42"))).toEqual([
      { uri: "notes://42", text: "note 42" },
    ]);
    const parts = resourceParts([...today, ...logo]);
    expect(parts).toEqual([
      { type: "text", text: "[resource notes://today (text/markdown)]\n# Today\nShipped MCP." },
      { type: "image", data: PIXEL, mimeType: "image/png" },
    ]);
    const { model, options } = scripted([says("Summarised.")]);
    const run = okValue(
      await runAgent(options({ prompt: [...parts, { type: "text", text: "Summarise." }] })),
    );
    expect(run.text).toBe("Summarised.");
    const sent = JSON.stringify(model.requests[0]?.body);
    expect(sent).toContain("Shipped MCP.");
    expect(sent).toContain(PIXEL);
  });

  it("an unknown resource, and a subscription the server does not offer, are ProviderErrors", async () => {
    const connection = await connect();
    const missing = await connection.readResource("notes://nowhere/at/all");
    expect(missing.ok ? undefined : missing.error).toMatchObject({ _tag: "ProviderError", provider: "mcp" });
    const subscribe = await connection.subscribeResource("notes://today");
    expect(subscribe.ok ? undefined : subscribe.error).toMatchObject({
      _tag: "ProviderError",
      provider: "mcp",
    });
  });

  it("lists prompts with their arguments and fills one in, its messages as Wisp parts", async () => {
    const connection = await connect();
    const prompts = okValue(await connection.listPrompts());
    expect(prompts.find((prompt) => prompt.name === "review")).toEqual({
      name: "review",
      title: "Review code",
      description: "Asks for a review",
      arguments: [
        { name: "language", required: true },
        { name: "focus", required: false },
      ],
    });
    const review = okValue(await connection.getPrompt("review", { language: "TypeScript", focus: "errors" }));
    expect(review).toEqual({
      description: "A TypeScript review",
      messages: [
        { role: "user", content: [{ type: "text", text: "Review this TypeScript for errors." }] },
        { role: "assistant", content: [{ type: "text", text: "Send the code." }] },
        { role: "user", content: [{ type: "image", data: PIXEL, mimeType: "image/png" }] },
      ],
    });
    const missingArgument = await connection.getPrompt("review");
    expect(missingArgument.ok ? undefined : missingArgument.error).toMatchObject({ _tag: "ProviderError" });
  });

  it("tells the app when the server's resources or prompts change", async () => {
    let resourcesChanged = 0;
    let promptsChanged = 0;
    const connection = await connect({
      onResourcesChanged: () => resourcesChanged++,
      onPromptsChanged: () => promptsChanged++,
    });
    await toolNamed(connection, "add-note").execute({}, callContext());
    await expect.poll(() => resourcesChanged).toBeGreaterThan(0);
    await expect.poll(() => promptsChanged).toBeGreaterThan(0);
    const resources = okValue(await connection.listResources());
    expect(resources.some((resource) => resource.uri.startsWith("notes://extra-"))).toBe(true);
  });
});

describe("subscriptions, on a server that offers them", () => {
  const subscribed = new Set<string>();
  const served = useExtendedServer((server) => {
    server.server.registerCapabilities({ resources: { subscribe: true } });
    server.registerResource("report", "files://report.pdf", { mimeType: "application/pdf" }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "application/pdf", blob: "JVBERi0xLjQK" }],
    }));
    server.server.setRequestHandler(SubscribeRequestSchema, async ({ params }) => {
      subscribed.add(params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, async ({ params }) => {
      subscribed.delete(params.uri);
      return {};
    });
    server.registerTool("touch", { description: "Changes every subscribed resource" }, async () => {
      for (const uri of subscribed) await server.server.sendResourceUpdated({ uri });
      return { content: [{ type: "text", text: `touched ${subscribed.size}` }] };
    });
  });

  it("subscribes, hears of each change by URI, and stops hearing after unsubscribing", async () => {
    const updated: string[] = [];
    const connection = await served.connect({ onResourceUpdated: (uri) => updated.push(uri) });
    okValue(await connection.subscribeResource("files://report.pdf"));
    expect(subscribed).toEqual(new Set(["files://report.pdf"]));
    expect(await toolNamed(connection, "touch").execute({}, callContext())).toBe("touched 1");
    await expect.poll(() => updated).toEqual(["files://report.pdf"]);
    okValue(await connection.unsubscribeResource("files://report.pdf"));
    expect(await toolNamed(connection, "touch").execute({}, callContext())).toBe("touched 0");
    expect(subscribed.size).toBe(0);
  });

  it("makes binary contents that are not an image a one-line note of their type and size", async () => {
    const connection = await served.connect();
    const report = okValue(await connection.readResource("files://report.pdf"));
    expect(report).toEqual([
      { uri: "files://report.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
    ]);
    const parts = resourceParts(report);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/files:\/\/report\.pdf.*application\/pdf.*9 bytes/),
    });
    expect(JSON.stringify(parts)).not.toContain("JVBERi0xLjQK");
  });
});

describe("hostile or narrow servers", () => {
  /** A server in a fetch function: `answer` gives each method's result (or a JSON-RPC error). */
  const serverOf =
    (answer: (method: string) => object): typeof fetch =>
    async (_input, init) => {
      const message = JSON.parse(String(init?.body)) as { id?: number; method: string };
      if (message.id === undefined) return new Response(null, { status: 202 });
      const result = answer(message.method);
      const body =
        "code" in result
          ? { jsonrpc: "2.0", id: message.id, error: result }
          : { jsonrpc: "2.0", id: message.id, result };
      return Response.json(body);
    };

  it("a server of prompts only connects with no tools", async () => {
    const fetch = serverOf((method) =>
      method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: { prompts: {} }, serverInfo: { name: "p" } }
        : method === "prompts/list"
          ? { prompts: [{ name: "hello" }] }
          : { code: -32601, message: "Method not found" },
    );
    const connection = okValue(await connectMcp({ url: "http://prompts.test/mcp", fetch, listen: false }));
    expect(connection.tools).toEqual([]);
    expect(okValue(await connection.listPrompts())).toEqual([{ name: "hello", arguments: [] }]);
  });

  it("a server that declares tools but refuses tools/list still fails to connect", async () => {
    const fetch = serverOf((method) =>
      method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "t" } }
        : { code: -32601, message: "Method not found" },
    );
    const result = await connectMcp({ url: "http://tools.test/mcp", fetch, listen: false });
    expect(result.ok ? undefined : result.error).toMatchObject({
      _tag: "ProviderError",
      providerCode: "-32601",
    });
  });

  it("drops entries without a name or URI, and stops paging after 100 pages", async () => {
    let pages = 0;
    const fetch = serverOf((method) => {
      if (method === "initialize")
        return { protocolVersion: "2025-11-25", capabilities: { resources: {} }, serverInfo: { name: "r" } };
      if (method === "tools/list") return { code: -32601, message: "Method not found" };
      pages++;
      return {
        resources: [
          { name: "no uri" },
          { uri: "" },
          { uri: "r://ok", size: -5 },
          "junk",
          { uri: `r://${pages}`, size: 3 },
        ],
        nextCursor: "again",
      };
    });
    const connection = okValue(await connectMcp({ url: "http://resources.test/mcp", fetch, listen: false }));
    const resources = okValue(await connection.listResources());
    expect(pages).toBe(100);
    expect(resources).toHaveLength(200);
    expect(resources[0]).toEqual({ uri: "r://ok", name: "r://ok" });
    expect(resources[1]).toEqual({ uri: "r://1", name: "r://1", size: 3 });
  });
});
