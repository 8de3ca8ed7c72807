/**
 * Property tests: any value — random JSON, or a valid state with one random mutation — either
 * restores or is a ConfigError CONFIG_INVALID. Never another exception.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAgentSession, isSdkError, parseSessionState, type SessionState } from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { says } from "../support/agent.ts";
import { okValue } from "../support/results.ts";

function restoresOrConfigError(value: unknown): boolean {
  try {
    parseSessionState(value);
    return true;
  } catch (error) {
    return isSdkError(error) && error._tag === "ConfigError" && error.code === "CONFIG_INVALID";
  }
}

async function validState(): Promise<SessionState> {
  const model = createScriptedModel({
    script: [
      {
        content: [
          { type: "thinking", text: "hmm", signature: "sig" },
          { type: "tool_call", name: "noop", args: { a: [1, { b: null }] } },
        ],
      },
      says("done"),
    ],
  });
  const session = okValue(
    await createAgentSession({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      tools: [{ name: "noop", description: "", inputSchema: { type: "object" }, execute: () => "ok" }],
    }),
  );
  await session.chat("go");
  return session.export();
}

/** Every path to a value inside `value`. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== "object" || value === null) return [prefix];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item] as const)
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
}

function setAt(root: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cursor = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (replacement === undefined) delete cursor[last];
  else cursor[last] = replacement;
  return copy;
}

describe("restoring arbitrary input", () => {
  it("random JSON values restore or give CONFIG_INVALID", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => restoresOrConfigError(value)),
      { numRuns: 500 },
    );
  });

  it("random objects shaped like a state restore or give CONFIG_INVALID", () => {
    const shaped = fc.record({
      version: fc.oneof(fc.constant(1), fc.constant(0), fc.integer()),
      sessionId: fc.string(),
      createdAt: fc.integer(),
      updatedAt: fc.integer(),
      provider: fc.constantFrom("anthropic", "openai-chat", "x"),
      model: fc.string(),
      parameters: fc.object(),
      messages: fc.array(fc.object()),
      usage: fc.object(),
      turns: fc.integer(),
      queue: fc.array(fc.object()),
      metadata: fc.object(),
    });
    fc.assert(
      fc.property(shaped, (value) => restoresOrConfigError(value)),
      { numRuns: 300 },
    );
  });

  it("a valid state with one field removed or replaced restores or gives CONFIG_INVALID", async () => {
    const state = await validState();
    const paths = pathsOf(state);
    const replacement = fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(fc.constantFrom(...paths), replacement, (path, value) => {
        const mutated = setAt(state, path, value);
        expect(restoresOrConfigError(mutated)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("a mutated state that restores gives a session that can export again", async () => {
    const state = await validState();
    const paths = pathsOf(state).filter((path) => path[0] === "metadata" || path[0] === "usage");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 1 }), async (path, value) => {
        const mutated = setAt(state, path, value);
        try {
          parseSessionState(mutated);
        } catch {
          return;
        }
        const session = okValue(await createAgentSession({ apiKey: "k", restore: mutated }));
        expect(session.export().messages).toEqual(state.messages);
      }),
      { numRuns: 100 },
    );
  });
});

it("the mutation helper reaches real problems: removing a tool result is caught", async () => {
  const state = await validState();
  const broken = { ...state, messages: state.messages.filter((message) => message.role !== "tool_result") };
  expect(() => parseSessionState(broken)).toThrow(/has no result/);
});
