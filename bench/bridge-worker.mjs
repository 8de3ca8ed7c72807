// The worker of the bridge benchmark: one thread that stays warm across rounds, serving a session
// (its scripted model in this thread) on each port the main thread transfers with `{ serve, pieces,
// calls }`. The port is wrapped to time each decision's round trip on this side's clock (from the
// question posted to the answer received); "trips?" (not a bridge message) asks for the times.
import { parentPort } from "node:worker_threads";
import { defineTool } from "wisp-agent";
import { serveSession } from "wisp-agent/bridge";
import { createScriptedModel } from "wisp-agent/testing";

const asked = new Map();
const trips = [];

/** The script: a long text answer, or `calls` tool calls that each need approval, then a short answer. */
function script(pieces, calls) {
  if (calls === 0)
    return [{ content: [{ type: "text", text: Array.from({ length: pieces }, (_, n) => `w${n} `) }] }];
  const toolCalls = Array.from({ length: calls }, (_, n) => ({
    type: "tool_call",
    name: "approve_me",
    args: { n },
  }));
  return [{ content: toolCalls }, { content: [{ type: "text", text: "done" }] }];
}

const approveMe = defineTool({
  name: "approve_me",
  description: "Needs a person",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  needsApproval: true,
  execute: ({ n }) => `ran ${n}`,
});

/** `inner` with every decision's round trip timed. */
function timed(inner) {
  return {
    postMessage(message) {
      if (message?.t === "decide") asked.set(message.requestId, performance.now());
      inner.postMessage(message);
    },
    on(type, listener) {
      if (type !== "message") return inner.on(type, listener);
      return inner.on("message", (message) => {
        if (message?.t === "decision") trips.push(performance.now() - asked.get(message.requestId));
        listener(message);
      });
    },
    off: (type, listener) => inner.off(type, listener),
  };
}

parentPort.on("message", (message) => {
  if (message === "trips?") {
    parentPort.postMessage({ trips: trips.splice(0) });
    return;
  }
  serveSession(timed(message.serve), {
    model: "anthropic/claude-sonnet-4-5",
    apiKey: "k",
    fetch: createScriptedModel({ script: script(message.pieces, message.calls) }).fetch,
    tools: [approveMe],
    toolExecution: "sequential",
    onReport: () => {},
  });
});
