/**
 * The server's requests, answered by handlers: the cap on requests at once, requests after close,
 * a cancel, and the checks of an elicitation's URL and defaults (hostile values).
 */
import { describe, expect, it } from "vitest";
import { applyDefaults, elicitationHandler } from "../../src/mcp/elicitation.ts";
import { MAX_SERVER_REQUESTS, ServerRequests } from "../../src/mcp/server-requests.ts";
import type { JsonObject } from "../../src/types.ts";

describe("ServerRequests", () => {
  const waiting = () => {
    const sent: JsonObject[] = [];
    const started: AbortSignal[] = [];
    const requests = new ServerRequests(
      new Map([
        [
          "slow",
          (_params: JsonObject, signal: AbortSignal) => {
            started.push(signal);
            return new Promise<JsonObject>((resolve) => signal.addEventListener("abort", () => resolve({})));
          },
        ],
      ]),
      (answer) => sent.push(answer),
    );
    return { sent, started, requests };
  };

  it(`answers at most ${MAX_SERVER_REQUESTS} at once and refuses the rest at once`, () => {
    const { sent, started, requests } = waiting();
    for (let id = 1; id <= MAX_SERVER_REQUESTS + 3; id++) requests.answer(id, "slow", {});
    expect(started).toHaveLength(MAX_SERVER_REQUESTS);
    expect(sent.map((answer) => answer.id)).toEqual([9, 10, 11]);
    expect(sent[0]).toMatchObject({ error: { code: -32603 } });
  });

  it("after close, aborts what runs, sends nothing for it, and asks no handler for later requests", async () => {
    const { sent, started, requests } = waiting();
    requests.answer(1, "slow", {});
    requests.cancelAll();
    expect(started[0]?.aborted).toBe(true);
    requests.answer(2, "slow", {});
    requests.answer(3, "ping", {});
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toHaveLength(1);
    expect(sent).toEqual([]);
  });

  it("a cancel from the server aborts its handler and sends no answer; ping is answered", async () => {
    const { sent, started, requests } = waiting();
    requests.answer("a", "slow", {});
    requests.cancel("a", "no longer needed");
    requests.answer("p", "ping", {});
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started[0]?.aborted).toBe(true);
    expect(sent).toEqual([{ jsonrpc: "2.0", id: "p", result: {} }]);
  });

  it("aborts a handler the server cancels without a reason with a reason of its own", async () => {
    const { sent, started, requests } = waiting();
    const done = requests.answer(1, "slow", {});
    requests.cancel(1, { not: "a string" });
    await done;
    const reason: unknown = started[0]?.reason;
    expect(reason).toBeInstanceOf(Error);
    expect(reason instanceof Error ? reason.message : undefined).toBe("The MCP server cancelled the request");
    expect(sent).toEqual([]);
  });
});

describe("elicitation's hostile values", () => {
  const signal = new AbortController().signal;

  it("refuses a URL request whose url is not http(s), without asking the app", async () => {
    let asked = 0;
    const handler = elicitationHandler(() => {
      asked++;
      return { action: "accept" };
    });
    for (const url of ["javascript:alert(document.domain)", "data:text/html,hi", "file:///etc/passwd"])
      await expect(
        handler({ mode: "url", message: "Go", url, elicitationId: "e" }, signal),
      ).rejects.toMatchObject({
        code: -32602,
      });
    expect(asked).toBe(0);
  });

  it("fills a field named __proto__ as a field, and never a default the schema only inherits", () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"default":"x"},"toString":{"default":"y"}}}');
    const filled = applyDefaults(schema, {});
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(Object.hasOwn(filled, "__proto__")).toBe(true);
    expect(filled.toString).toBe("y");
    expect(applyDefaults({ properties: { a: {} } }, {})).toEqual({});
  });
});
