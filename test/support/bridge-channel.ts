/**
 * What the in-thread bridge tests share: Node's MessageChannels (`worker_threads`, so a test can watch a
 * port with `on`) closed after each test, and two tools — `send` (asks for approval) and `lookup` (throws
 * for "boom").
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { defineTool } from "../../src/index.ts";

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
