// @ts-check
/**
 * The portability scenario, one plain ES module that every runtime example runs unchanged (Node 20
 * and 22, Deno, Bun, Chromium, workerd): a streamed two-turn run with a zod tool and a hook that
 * denies one call, an abort mid-stream, and an export → JSON → restore → continue. The scripted
 * model answers from what each request holds, so the last check proves the restored session sent the
 * whole earlier conversation over the wire.
 *
 * `runScenario` returns the number of failed checks; each example exits non-zero when it is not 0.
 */
import { createAgentSession, defineTool, unwrap } from "wisp-agent";
import { createScriptedModel } from "wisp-agent/testing";
import * as z from "zod";

/** The model every example talks to (the Anthropic Messages wire format). */
export const MODEL = "anthropic/claude-sonnet-5-5";
/** The prompt of the first run. */
export const FIRST_PROMPT = "What is 6 × 7, and what is 1 ÷ 0?";
const STORY_PROMPT = "Tell me a long story.";
const RECALL_PROMPT = "What did we talk about?";

/**
 * The last user message of an Anthropic request body.
 * @param {unknown} body
 * @returns {{ text: string, toolResults: number, messages: number }}
 */
function lastTurn(body) {
  const messages = /** @type {{ messages?: { role: string, content: unknown }[] }} */ (body).messages ?? [];
  const last = messages.at(-1);
  const blocks = Array.isArray(last?.content)
    ? last.content
    : [{ type: "text", text: String(last?.content ?? "") }];
  const text = blocks.map((block) => (block.type === "text" ? block.text : "")).join("");
  const toolResults = blocks.filter((block) => block.type === "tool_result").length;
  return { text, toolResults, messages: messages.length };
}

/**
 * The scripted model of the scenario: answers from the request, so the order of runs does not matter.
 * @returns {import("wisp-agent/testing").ScriptedModel}
 */
export function createScenarioModel() {
  return createScriptedModel({
    respond: (request) => {
      const turn = lastTurn(request.body);
      if (turn.toolResults > 0) {
        return { content: [{ type: "text", text: "6 × 7 is 42. Dividing by zero was not allowed." }] };
      }
      if (turn.text === FIRST_PROMPT) {
        return {
          content: [
            { type: "text", text: "Let me work those out." },
            { type: "tool_call", name: "calculator", args: { op: "multiply", a: 6, b: 7 } },
            { type: "tool_call", name: "calculator", args: { op: "divide", a: 1, b: 0 } },
          ],
        };
      }
      if (turn.text === STORY_PROMPT) {
        // Streams a few words, then never finishes: only an abort ends this answer.
        return {
          content: [{ type: "text", text: "Once upon a time a pelican flew over the sea and" }],
          fault: { type: "stall", afterEvents: 6 },
        };
      }
      return { content: [{ type: "text", text: `Your request held ${turn.messages} messages.` }] };
    },
  });
}

const calculator = defineTool({
  name: "calculator",
  description: "Multiplies or divides two numbers",
  input: z.object({ op: z.enum(["multiply", "divide"]), a: z.number(), b: z.number() }),
  execute: ({ op, a, b }) => (op === "multiply" ? a * b : a / b),
});

/** @type {import("wisp-agent").Hooks} */
const hooks = {
  preToolUse: ({ toolCall }) =>
    toolCall.args.op === "divide" && toolCall.args.b === 0
      ? { decision: "deny", reason: "Division by zero is not allowed." }
      : undefined,
};

/**
 * JSON with every object's keys sorted, to compare two states whatever order their keys were set in.
 * @param {unknown} value
 * @returns {string}
 */
function canonical(value) {
  return JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

/**
 * @typedef {object} ScenarioOptions
 * @property {{ baseURL?: string, fetch?: typeof fetch }} connection How to reach the scripted model:
 *   its loopback URL, or its in-process fetch.
 * @property {() => number | Promise<number>} disconnects How many streams the model saw the client leave.
 * @property {(line: string) => void} log Where the report goes, line by line.
 */

/**
 * Runs the scenario and reports every check through `log`.
 * @param {ScenarioOptions} options
 * @returns {Promise<number>} the number of failed checks
 */
export async function runScenario({ connection, disconnects, log }) {
  let failed = 0;
  /** @param {boolean} ok @param {string} what */
  const check = (ok, what) => {
    if (!ok) failed++;
    log(`${ok ? "ok  " : "FAIL"} ${what}`);
  };
  const options = { apiKey: "example", ...connection, tools: [calculator], hooks };

  // 1. A streamed two-turn run: text deltas, two tool calls, the hook denies one.
  const session = unwrap(await createAgentSession({ ...options, model: MODEL }));
  let streamed = "";
  const toolLines = [];
  const run = session.stream(FIRST_PROMPT);
  for await (const event of run) {
    if (event.type === "text-delta") streamed += event.delta;
    if (event.type === "tool-result") {
      toolLines.push(
        `${event.toolCall.name}(${JSON.stringify(event.toolCall.args)}) → ${event.result.output}`,
      );
    }
  }
  const first = await run.result;
  for (const line of toolLines) log(`     ${line}`);
  check(first.ok && first.value.turns === 2, "a streamed run took two turns");
  check(
    first.ok &&
      first.value.toolCalls[0]?.result.output === "42" &&
      first.value.toolCalls[1]?.result.isError === true,
    "the zod tool answered 42 and the hook denied the division by zero",
  );
  check(
    first.ok && streamed === `Let me work those out.${first.value.text}`,
    "the streamed text is the text of both turns",
  );

  // 2. Abort mid-stream: the run ends ABORTED with its partial text, and the connection closes.
  const before = await disconnects();
  const story = session.stream(STORY_PROMPT);
  for await (const event of story) {
    if (event.type === "text-delta") session.abort(new Error("the user pressed stop"));
  }
  const aborted = await story.result;
  check(!aborted.ok && aborted.error.code === "ABORTED", "an abort mid-stream ended the run as ABORTED");
  check(
    !aborted.ok && aborted.partial.text.startsWith("Once"),
    `the partial text was kept: "${aborted.ok ? "" : aborted.partial.text}"`,
  );
  let after = await disconnects();
  // The close reaches the server at once on an idle machine; a loaded one (a CI run with two browsers
  // and workerd at work) can take seconds. The loop ends as soon as it is seen.
  for (let waited = 0; after === before && waited < 10_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = await disconnects();
  }
  check(after === before + 1, "the model saw the client close the stream");

  // 3. Export → JSON → restore → continue: the restored session sends the whole conversation.
  const saved = JSON.stringify(session.export());
  await session.close();
  const restored = unwrap(await createAgentSession({ ...options, restore: JSON.parse(saved) }));
  check(
    canonical(restored.export()) === canonical(JSON.parse(saved)),
    "the restored state equals the exported one",
  );
  const count = restored.export().messages.length;
  const next = await restored.chat(RECALL_PROMPT);
  check(
    next.ok && next.value.text === `Your request held ${count + 1} messages.`,
    `the continued run sent all ${count} earlier messages and the new prompt`,
  );
  await restored.close();
  log(`${failed === 0 ? "passed" : "FAILED"}: ${failed} of 8 checks failed`);
  return failed;
}
