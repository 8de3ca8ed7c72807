/**
 * Elicitation: the official SDK's McpServer asks the client questions (`elicitation/create`) in the
 * middle of a tool call, on real loopback HTTP; the app answers through `onElicitation`.
 */

import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AttemptTimer } from "../../src/http/attempt-timer.ts";
import { applyDefaults } from "../../src/mcp/elicitation.ts";
import type { McpElicitationHandler, McpElicitationRequest } from "../../src/mcp/index.ts";
import { RequestHolds } from "../../src/mcp/server-request-holds.ts";
import { callContext, useExtendedServer } from "./support/extended-server.ts";
import { toolNamed } from "./support/tool-named.ts";

const FORM = {
  type: "object",
  properties: {
    name: { type: "string", default: "Ada" },
    age: { type: "integer", minimum: 0, default: 36 },
    newsletter: { type: "boolean", default: false },
    plan: { type: "string", enum: ["free", "pro"], default: "free" },
  },
  required: ["name"],
} as const;

/** What the server got back from each question, by the tool that asked. */
const answers: unknown[] = [];

function extend(server: import("@modelcontextprotocol/sdk/server/mcp.js").McpServer): void {
  server.registerTool("ask", { description: "Asks the person for a profile" }, async () => {
    try {
      const answer = await server.server.elicitInput({
        message: "Your profile?",
        requestedSchema: FORM as never,
      });
      answers.push(answer);
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    } catch (error) {
      answers.push({ error: error instanceof Error ? error.message : String(error) });
      return { content: [{ type: "text", text: "no answer" }], isError: true };
    }
  });
  server.registerTool("ask-here", { description: "Asks on the call's own stream" }, async (extra) => {
    const answer = await server.server.elicitInput(
      { message: "Your profile?", requestedSchema: FORM as never },
      { relatedRequestId: extra.requestId },
    );
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.registerTool("ask-briefly", { description: "Asks, and gives up after 300 ms" }, async () => {
    try {
      await server.server.elicitInput(
        { message: "Quick?", requestedSchema: FORM as never },
        { timeout: 300 },
      );
      return { content: [{ type: "text", text: "answered" }] };
    } catch {
      return { content: [{ type: "text", text: "gave up" }] };
    }
  });
  server.registerTool("ask-anyway", { description: "Asks even a client that cannot answer" }, async () => {
    try {
      const answer = await server.server.request(
        { method: "elicitation/create", params: { message: "Hello?", requestedSchema: FORM } },
        ElicitResultSchema,
      );
      answers.push(answer);
    } catch (error) {
      answers.push({ error: error instanceof Error ? error.message : String(error) });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("ask-oddly", { description: "Asks in a mode no spec has" }, async () => {
    try {
      await server.server.request(
        { method: "elicitation/create", params: { mode: "telepathy", message: "Think of a number" } },
        ElicitResultSchema,
      );
    } catch (error) {
      answers.push({ error: error instanceof Error ? error.message : String(error) });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool(
    "visit",
    { description: "Asks the person to visit a URL", inputSchema: { id: z.string() } },
    async ({ id }) => {
      const answer = await server.server.elicitInput({
        mode: "url",
        message: "Sign the form",
        url: "https://example.com/sign",
        elicitationId: id,
      } as never);
      answers.push(answer);
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    },
  );
}

describe("elicitation", () => {
  const served = useExtendedServer(extend);
  const connect = (onElicitation?: McpElicitationHandler) =>
    served.connect(onElicitation ? { onElicitation } : {});

  it("gives the form to onElicitation, fills in the defaults left out, and the server gets the answer", async () => {
    const asked: McpElicitationRequest[] = [];
    const connection = await connect(async (request) => {
      asked.push(request);
      return { action: "accept", content: { name: "Grace", age: 85 } };
    });
    answers.length = 0;
    await toolNamed(connection, "ask").execute({}, callContext());
    expect(asked).toEqual([{ mode: "form", message: "Your profile?", requestedSchema: FORM }]);
    expect(answers).toEqual([
      { action: "accept", content: { name: "Grace", age: 85, newsletter: false, plan: "free" } },
    ]);
  });

  it("declares the elicitation capability only with onElicitation", async () => {
    await connect(async () => ({ action: "cancel" }));
    await connect();
    const declared = served.server().log.capabilities ?? [];
    expect(declared.slice(-2)).toEqual([{ elicitation: { form: {}, url: {} } }, {}]);
  });

  it("passes a decline or a cancel on without content", async () => {
    for (const action of ["decline", "cancel"] as const) {
      const connection = await connect(async () => ({ action, content: { name: "ignored" } }));
      answers.length = 0;
      await toolNamed(connection, "ask").execute({}, callContext());
      expect(answers).toEqual([{ action }]);
    }
  });

  it("gives a URL request its url and id, and sends back only the action", async () => {
    const asked: McpElicitationRequest[] = [];
    const connection = await connect(async (request) => {
      asked.push(request);
      return { action: "accept", content: { secret: "never sent" } };
    });
    answers.length = 0;
    await toolNamed(connection, "visit").execute({ id: "e-7" }, callContext());
    expect(asked).toEqual([
      { mode: "url", message: "Sign the form", url: "https://example.com/sign", elicitationId: "e-7" },
    ]);
    expect(answers).toEqual([{ action: "accept" }]);
  });

  it("refuses as 'method not supported' when the app gave no onElicitation", async () => {
    const connection = await connect();
    answers.length = 0;
    await toolNamed(connection, "ask-anyway").execute({}, callContext());
    expect(answers).toEqual([
      { error: expect.stringMatching(/-32601.*Method not supported: elicitation\/create/) },
    ]);
  });

  it("refuses a mode it does not know as invalid params, without asking the app", async () => {
    let asked = 0;
    const connection = await connect(async () => {
      asked++;
      return { action: "decline" };
    });
    answers.length = 0;
    await toolNamed(connection, "ask-oddly").execute({}, callContext());
    expect(answers).toEqual([
      { error: expect.stringMatching(/-32602.*Unknown elicitation mode "telepathy"/) },
    ]);
    expect(asked).toBe(0);
  });

  it("answers an app that throws with an error that keeps the app's message to itself, and goes on", async () => {
    const connection = await connect(async () => {
      throw new Error("db password is hunter2");
    });
    answers.length = 0;
    // The server's tool reports the failed question as its own error result.
    await expect(toolNamed(connection, "ask").execute({}, callContext())).rejects.toThrow("no answer");
    expect(answers).toHaveLength(1);
    const answer = JSON.stringify(answers[0]);
    expect(answer).toContain("onElicitation failed");
    expect(answer).not.toContain("hunter2");
    const add = await toolNamed(connection, "add").execute({ a: 1, b: 2 }, callContext());
    expect(add).toBe("3");
  });

  it("refuses an answer that does not match the form, or is not an answer, with the reason", async () => {
    const wrong: McpElicitationHandler[] = [
      async () => ({ action: "accept", content: { name: 42 } }),
      async () => ({ action: "accept", content: { age: -1 } }),
      async () => ({ action: "maybe" }) as never,
      async () => ({ action: "accept", content: ["a"] }) as never,
    ];
    const reasons = [/name/, /age/, /action/, /content/];
    for (const [index, handler] of wrong.entries()) {
      const connection = await connect(handler);
      answers.length = 0;
      await expect(toolNamed(connection, "ask").execute({}, callContext())).rejects.toThrow("no answer");
      expect(JSON.stringify(answers[0])).toMatch(reasons[index] as RegExp);
      expect(answers[0]).toHaveProperty("error");
    }
  });

  it("aborts the question's signal when the server gives up on it, and sends no answer", async () => {
    let aborted: unknown;
    const connection = await connect(
      ({ mode }, { signal }) =>
        new Promise((resolve) => {
          expect(mode).toBe("form");
          signal.addEventListener("abort", () => {
            aborted = signal.reason;
            resolve({ action: "accept", content: { name: "late" } });
          });
        }),
    );
    const before = served.server().log.methods.length;
    const output = await toolNamed(connection, "ask-briefly").execute({}, callContext());
    expect(output).toBe("gave up");
    await expect.poll(() => aborted).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(served.server().log.methods.slice(before)).not.toContain("(response)");
  });

  it("stops the call's timeout while the person answers, on the call's stream or the GET stream", async () => {
    const slowly: McpElicitationHandler = async () => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      return { action: "accept", content: { name: "Slow" } };
    };
    const connection = await served.connect({ onElicitation: slowly, timeoutMs: 250 });
    // The same silence without a question is past the timeout.
    await expect(toolNamed(connection, "sleep").execute({ ms: 700 }, callContext())).rejects.toMatchObject({
      code: "TIMEOUT",
    });
    for (const tool of ["ask", "ask-here"]) {
      const output = await toolNamed(connection, tool).execute({}, callContext());
      expect(JSON.parse(String(output))).toMatchObject({ action: "accept", content: { name: "Slow" } });
    }
  });

  it("aborts the question's signal when the connection closes", async () => {
    let signal: AbortSignal | undefined;
    const connection = await connect((_request, context) => {
      signal = context.signal;
      return new Promise(() => {});
    });
    void Promise.resolve(toolNamed(connection, "ask").execute({}, callContext())).catch(() => {});
    await expect.poll(() => signal).toBeDefined();
    await connection.close();
    expect(signal?.aborted).toBe(true);
  });
});

describe("applyDefaults", () => {
  it("fills top-level fields left out with their defaults, and keeps what was given", () => {
    expect(applyDefaults(FORM as never, { name: "Grace", newsletter: true })).toEqual({
      name: "Grace",
      age: 36,
      newsletter: true,
      plan: "free",
    });
    expect(applyDefaults({ type: "object" }, { a: 1 })).toEqual({ a: 1 });
  });
});

describe("RequestHolds", () => {
  it("keeps the clocks stopped until the last of overlapping holds ends, then the idle limit runs afresh", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const timer = new AttemptTimer(controller, 10_000, 100);
      const holds = new RequestHolds(timer);
      let first = (): void => {};
      let second = (): void => {};
      const held = [
        holds.hold(new Promise<void>((resolve) => (first = resolve))),
        holds.hold(new Promise<void>((resolve) => (second = resolve))),
      ];
      first();
      await vi.advanceTimersByTimeAsync(500);
      expect(controller.signal.aborted).toBe(false);
      second();
      await Promise.all(held);
      await vi.advanceTimersByTimeAsync(90);
      expect(controller.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(controller.signal.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves no clock running when the request ends during a hold", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const timer = new AttemptTimer(controller, 1_000, 100);
      const holds = new RequestHolds(timer);
      let answered = (): void => {};
      const question = holds.hold(new Promise<void>((resolve) => (answered = resolve)));
      await holds.end();
      timer.clear();
      answered(); // the question is answered after its request ended: no clock starts again
      await question;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(controller.signal.aborted).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
