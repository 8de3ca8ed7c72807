/**
 * The worker side of the forks-over-the-bridge test (test/bridge/forks.test.ts), bundled by esbuild
 * for a Node `worker_threads` worker and a Chromium module Web Worker: a session whose scripted model
 * answers every prompt with `re: <prompt>`.
 */

import { serveSession } from "../../../src/bridge/index.ts";
import { createScriptedModel } from "../../../src/testing/index.ts";
import { workerPort } from "../../support/bridge-worker-port.ts";

const model = createScriptedModel({
  respond: (request) => {
    const last = request.messages.findLast((message) => message.role === "user");
    const part = last?.content.find((candidate) => candidate.type === "text");
    return { content: [{ type: "text", text: `re: ${part?.type === "text" ? part.text : ""}` }] };
  },
});

serveSession(await workerPort(), {
  model: "anthropic/claude-sonnet-5-5",
  apiKey: "scripted",
  fetch: model.fetch,
  retry: { maxRetries: 0 },
});
