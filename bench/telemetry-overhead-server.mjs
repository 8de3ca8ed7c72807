// The model of the telemetry bench's "tools-http" workload, in a process of its own (so its CPU is not
// the measured process's): the scripted model behind a real HTTP server on 127.0.0.1
// (`wisp-agent/testing/node`), answering Anthropic's wire format. Stateless, so every run and every
// process it serves gets the same turns: a request that sends back fewer than TOOL_TURNS tool results
// is answered with one more call of `add`; the one after the last, with the answer.
// Prints its URL, then serves until stdin closes.

import { serveScriptedModel } from "../dist/runtime/node/index.js";
import { createScriptedModel } from "../dist/src/testing/index.js";
import { TOOL_TURNS } from "./telemetry-overhead-reader.mjs";

/** How many tool results a request carries (the whole conversation's: one per earlier turn). */
const resultsSent = (request) => request.messages.filter((message) => message.role === "tool_result").length;

const model = createScriptedModel({
  respond: (request) => {
    const done = resultsSent(request);
    return done < TOOL_TURNS
      ? { content: [{ type: "tool_call", name: "add", args: { a: done, b: 1 } }] }
      : { content: [{ type: "text", text: "Done: ten sums." }] };
  },
});
const server = await serveScriptedModel(model);
console.log(server.url);
process.stdin.on("end", () => server.close().then(() => process.exit(0)));
process.stdin.resume();
