/**
 * ServerRequests at its edges: a handler that throws something other than an Error is answered with
 * a generic internal error, and a cancel without a reason aborts the handler's signal with Wisp's own.
 */
import { describe, expect, it } from "vitest";
import { ServerRequests } from "../../src/mcp/server-requests.ts";
import type { JsonObject } from "../../src/types.ts";

describe("ServerRequests", () => {
  it("answers a handler that throws a non-Error with -32603 and a generic message", async () => {
    const sent: JsonObject[] = [];
    const requests = new ServerRequests(
      new Map([
        [
          "odd",
          async () => {
            throw "a string, not an Error";
          },
        ],
      ]),
      (answer) => sent.push(answer),
    );
    await requests.answer(7, "odd", {});
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 7, error: { code: -32603, message: "The client could not answer" } },
    ]);
  });

  it("aborts a handler the server cancels without a reason with a reason of its own", async () => {
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
    const done = requests.answer(1, "slow", {});
    requests.cancel(1, { not: "a string" });
    await done;
    const reason: unknown = started[0]?.reason;
    expect(reason).toBeInstanceOf(Error);
    expect(reason instanceof Error ? reason.message : undefined).toBe("The MCP server cancelled the request");
    expect(sent).toEqual([]);
  });
});
