// A consumer's program, run from a project that installed the packed tarball: an agent with a zod
// tool against the scripted model. Prints one JSON line; the test checks it. Runs unchanged in Node,
// Deno and Bun.
import { defineTool, isSdkError, runAgent } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import { z } from "zod";

const model = createScriptedModel({
  script: [
    { content: [{ type: "tool_call", name: "add", args: { a: 2, b: 3 } }] },
    { content: [{ type: "text", text: "2 + 3 is 5." }] },
  ],
});
const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const result = await runAgent({
  model: "anthropic/claude-sonnet-4-5",
  fetch: model.fetch,
  prompt: "What is 2 + 3?",
  tools: [add],
});
const refused = await runAgent({ model: "nowhere/model", fetch: model.fetch, prompt: "Hi" });
console.log(
  JSON.stringify({
    ok: result.ok,
    text: result.ok ? result.value.text : result.error.message,
    toolOutput: model.requests[1]?.body?.messages?.at(-1)?.content?.[0]?.content,
    refusedTag: refused.ok ? undefined : refused.error._tag,
    refusedIsSdkError: refused.ok ? false : isSdkError(refused.error),
  }),
);
