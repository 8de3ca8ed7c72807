/**
 * The demo Worker's traces, end to end: the real Worker (workerd via wrangler, wrangler.toml: no
 * `nodejs_compat`) started with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at an OTLP/HTTP receiver this
 * test runs on 127.0.0.1 (`POST /v1/traces`, OTLP/JSON). A chat that calls the calculator sends its
 * spans there once the run has ended: `invoke_agent`, `chat` and `execute_tool` in one trace, the run's
 * span the parent of the others, under `service.name` wisp-demo, with the configured headers. A run
 * refused before it starts sends its MCP connection's spans all the same.
 */

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatTurn } from "./chat-turn.ts";
import { type RunningWorker, startWorker } from "./start-worker.ts";

/** The parts of OTLP/JSON the test reads. */
interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values: AnyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  status?: { code?: number };
}
interface TraceRequest {
  resourceSpans: Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ scope: { name: string }; spans: Span[] }>;
  }>;
}

/** A span as received, with its resource's and scope's names. */
interface ReceivedSpan extends Span {
  service: string | undefined;
  scope: string;
}

/** A minimal OTLP/HTTP receiver: `POST /v1/traces` with an OTLP/JSON body, answered as a collector would. */
class OtlpReceiver {
  readonly requests: Array<{ headers: IncomingHttpHeaders; body: TraceRequest }> = [];
  readonly refused: string[] = [];
  readonly #server: Server;

  constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const type = request.headers["content-type"] ?? "";
        if (request.method !== "POST" || request.url !== "/v1/traces") {
          this.refused.push(`${request.method} ${request.url}`);
          response.writeHead(404).end();
          return;
        }
        if (!type.startsWith("application/json")) {
          // This receiver speaks OTLP/JSON only (the demo's exporter sends nothing else).
          this.refused.push(`content-type ${type}`);
          response.writeHead(415).end();
          return;
        }
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as TraceRequest;
          this.requests.push({ headers: request.headers, body });
        } catch (error) {
          this.refused.push(`bad JSON: ${error}`);
          response.writeHead(400, { "content-type": "application/json" }).end('{"message":"bad JSON"}');
          return;
        }
        // An ExportTraceServiceResponse with nothing rejected.
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Every span received so far. */
  spans(): ReceivedSpan[] {
    return this.requests.flatMap(({ body }) =>
      body.resourceSpans.flatMap((resourceSpans) => {
        const service = resourceSpans.resource.attributes.find((kv) => kv.key === "service.name")?.value
          .stringValue;
        return resourceSpans.scopeSpans.flatMap((scopeSpans) =>
          scopeSpans.spans.map((span) => ({ ...span, service, scope: scopeSpans.scope.name })),
        );
      }),
    );
  }
}

function attribute(span: Span, key: string): unknown {
  const value = span.attributes.find((kv) => kv.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.arrayValue !== undefined) return value.arrayValue.values.map((item) => Object.values(item)[0]);
  return Object.values(value)[0];
}

describe("the demo Worker with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  const receiver = new OtlpReceiver();
  let worker: RunningWorker;
  beforeAll(async () => {
    const endpoint = await receiver.start();
    worker = await startWorker({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_HEADERS: "x-otlp-test=wisp%20e2e",
    });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await receiver.stop();
  });

  it("sends a chat's spans over OTLP/HTTP JSON: invoke_agent, chat and execute_tool in one trace, under the run's span", async () => {
    const before = Date.now();
    const events = await chatTurn(worker.url, "What is 12 * 7?");
    expect(events.find((event) => event.event === "tool-result")?.data).toMatchObject({ name: "calculator" });
    expect(events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });

    // Flushed under waitUntil once the run has ended: after the client heard run-end.
    await expect
      .poll(() => receiver.spans().some((span) => span.name.startsWith("invoke_agent")), {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(true);
    const after = Date.now();
    expect(receiver.refused).toEqual([]);
    for (const { headers } of receiver.requests) {
      expect(headers["content-type"]).toBe("application/json");
      expect(headers["x-otlp-test"]).toBe("wisp e2e");
    }

    const spans = receiver.spans();
    const runs = spans.filter((span) => span.name.startsWith("invoke_agent"));
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    const inRun = spans.filter((span) => span.traceId === run.traceId);
    const chats = inRun.filter((span) => span.name.startsWith("chat "));
    const tools = inRun.filter((span) => span.name.startsWith("execute_tool"));
    // Two model turns: one asks for the calculator, one answers with its result.
    expect(chats.length).toBeGreaterThanOrEqual(2);
    expect(tools.map((span) => span.name)).toEqual(["execute_tool calculator"]);
    for (const span of [...chats, ...tools]) expect(span.parentSpanId).toBe(run.spanId);
    expect(run.parentSpanId ?? "").toBe("");
    expect(run.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(inRun.map((span) => span.spanId)).size).toBe(inRun.length);

    for (const span of inRun) expect(span.service).toBe("wisp-demo");
    expect(attribute(run, "gen_ai.operation.name")).toBe("invoke_agent");
    expect(attribute(chats[0]!, "gen_ai.operation.name")).toBe("chat");
    expect(attribute(chats[0]!, "gen_ai.provider.name")).toBe("anthropic");
    expect(chats[0]!.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(attribute(tools[0]!, "gen_ai.tool.name")).toBe("calculator");
    expect(attribute(tools[0]!, "gen_ai.tool.call.id")).toEqual(expect.any(String));

    // Times are unix nanoseconds of this run (workerd's clock is the epoch), each span within its run.
    const millis = (nanos: string) => Number(BigInt(nanos) / 1_000_000n);
    for (const span of inRun) {
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      expect(millis(span.startTimeUnixNano)).toBeGreaterThanOrEqual(before - 1_000);
      expect(millis(span.endTimeUnixNano)).toBeLessThanOrEqual(after + 1_000);
      expect(BigInt(span.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(run.startTimeUnixNano));
      expect(BigInt(span.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(run.endTimeUnixNano));
    }
    // The model's turns stream word by word with a delay (35 ms a word): they take time on this clock.
    expect(millis(run.endTimeUnixNano) - millis(run.startTimeUnixNano)).toBeGreaterThan(0);
  });

  it("an MCP tool call's request is a span under its execute_tool span, in the run's trace", async () => {
    const events = await chatTurn(worker.url, "note: traced notes");
    expect(events.at(-1)).toMatchObject({ event: "run-end", data: { ok: true } });
    const toolSpan = () => receiver.spans().find((span) => span.name === "execute_tool notes_add");
    await expect.poll(() => toolSpan() !== undefined, { timeout: 15_000, interval: 50 }).toBe(true);
    const tool = toolSpan()!;
    const call = receiver
      .spans()
      .find((span) => span.name === "tools/call add" && span.traceId === tool.traceId);
    expect(call?.parentSpanId).toBe(tool.spanId);
    expect(attribute(call!, "mcp.method.name")).toBe("tools/call");
    expect(attribute(call!, "server.address")).toBe("wisp-demo.internal");
  });

  it("a run refused before it starts still sends the spans of its MCP connection", async () => {
    const created = await fetch(`${worker.url}/api/sessions`, { method: "POST" });
    const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
    const listed = () => receiver.spans().filter((span) => span.name === "tools/list").length;
    const before = listed();
    const refused = await fetch(`${worker.url}/api/sessions/${sessionId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Hello", parentId: "no-such-message" }),
    });
    expect(refused.status).toBe(400);
    await expect.poll(listed, { timeout: 15_000, interval: 50 }).toBeGreaterThan(before);
  });
});
