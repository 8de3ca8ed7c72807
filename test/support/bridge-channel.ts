/**
 * What the in-thread bridge tests share: Node's MessageChannels (`worker_threads`, so a test can watch a
 * port with `on`) closed after each test, a session served with a scripted model, two tools — `send`
 * (asks for approval) and `lookup` (throws for "boom") — and a question for the ask tool.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { type ServeSessionOptions, type SessionServer, serveSession } from "../../src/bridge/index.ts";
import { defineTool } from "../../src/index.ts";
import type { ScriptedModel } from "../../src/testing/index.ts";

const ports: MessagePort[] = [];

/** A fresh channel's two ports, closed by {@link closePorts}. */
export function channel(): [MessagePort, MessagePort] {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  return [port1, port2];
}

/** Closes every port {@link channel} made (call it in `afterEach`). */
export function closePorts(): void {
  for (const port of ports.splice(0)) port.close();
}

/**
 * Serves a session on `port` that talks to `model` (no retries, reports dropped), with `options` over
 * those defaults.
 */
export function serveScripted(
  port: Parameters<typeof serveSession>[0],
  model: ScriptedModel,
  options: Partial<ServeSessionOptions> = {},
): SessionServer {
  return serveSession(port, {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    onReport: () => undefined,
    ...options,
  });
}

/** The ask tool's input for one question with two options. */
export const ASK_COLOR = {
  questions: [
    {
      question: "Which color?",
      header: "Color",
      options: [{ label: "Red" }, { label: "Blue" }],
      multiSelect: false,
    },
  ],
};

/** A tool that waits for approval before it "sends". */
export const send = defineTool({
  name: "send",
  description: "Sends",
  inputSchema: { type: "object", properties: { to: { type: "string" } } },
  needsApproval: true,
  execute: ({ to }: { to?: string }) => `sent to ${to}`,
});

/** A tool that finds what it is asked, and fails for "boom". */
export const lookup = defineTool({
  name: "lookup",
  description: "Looks up",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: ({ q }: { q?: string }) => {
    if (q === "boom") throw new Error("the index is down");
    return `found ${q}`;
  },
});
