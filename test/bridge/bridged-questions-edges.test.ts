/**
 * The ask tool across the bridge (bridged-questions.ts), against a main side that answers by hand:
 * what the worker makes of an answer that is null or does not fit (a main thread of another build, or
 * a hostile one), the hook's decision and who made it, tools that are not the ask tool, and the
 * hook's own time limit following the question's.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ServeSessionOptions,
  type SessionServer,
  serveSession,
  BRIDGE_PROTOCOL_VERSION as v,
} from "../../src/bridge/index.ts";
import { type AgentEvent, askUserTool, defineTool } from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { ASK_COLOR } from "../support/bridge-channel.ts";

type Posted = { t: string; id?: string; requestId?: string; event?: unknown; [field: string]: unknown };
type Listener = (...args: unknown[]) => void;

/** A Node-style port that records what the worker posts and delivers what the test sends. */
class FakePort {
  readonly sent: Posted[] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  postMessage(message: unknown): void {
    this.sent.push(message as Posted);
  }
  on(type: string, listener: Listener): void {
    this.listeners.set(type, (this.listeners.get(type) ?? new Set()).add(listener));
  }
  off(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }
  send(message: object): void {
    for (const listener of [...(this.listeners.get("message") ?? [])])
      listener({ wisp: "bridge", v, key: "k1", ...message });
  }
  of(t: string): Posted[] {
    return this.sent.filter((message) => message.t === t);
  }
  events(): AgentEvent[] {
    return this.of("event").map((message) => message.event as AgentEvent);
  }
}

const lookup = defineTool({
  name: "lookup",
  description: "Looks up",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: ({ q }: { q?: string }) => `found ${q}`,
});

const servers: SessionServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A served session whose main side decides questions; its run started. */
async function asking(
  script: ScriptedTurn[],
  timeouts: object = {},
  options: Partial<ServeSessionOptions> = {},
) {
  const port = new FakePort();
  const model = createScriptedModel({ script });
  servers.push(
    serveSession(port, {
      model: "anthropic/claude-sonnet-4-5",
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
      tools: [askUserTool(), lookup],
      onReport: () => {},
      ...options,
    }),
  );
  port.send({ t: "hello", conn: "c1", decides: ["question"], timeouts });
  await expect.poll(() => port.of("ready")).toHaveLength(1);
  port.send({ t: "run", id: "r1", op: "chat", input: "go", options: {}, window: 0, quiet: false });
  return { port, model };
}

/** Answers the first question the worker asks with `answer`, and waits for the run's end. */
async function answered(port: FakePort, answer: unknown) {
  await expect.poll(() => port.of("decide")).toHaveLength(1);
  port.send({ t: "decision", requestId: port.of("decide")[0]?.requestId, answer });
  return ended(port);
}

async function ended(port: FakePort) {
  await expect.poll(() => port.events().some((event) => event.type === "run-end")).toBe(true);
  const events = port.events();
  const result = events.find((event) => event.type === "tool-result");
  const decision = events.find((event) => event.type === "hook-decision");
  return { result: result?.type === "tool-result" ? result.result : undefined, decision };
}

describe("answers from the main thread", () => {
  it("a fitting answer is the call's result, allowed by the bridge's hook and decided by the person", async () => {
    const { port } = await asking([calls(["ask_user", ASK_COLOR]), says("painted")]);
    const { result, decision } = await answered(port, { answers: [{ selected: ["Blue"] }] });
    expect(result).toMatchObject({
      isError: false,
      output: 'The user answered your questions:\n- "Which color?": Blue',
    });
    expect(decision).toMatchObject({
      event: "preToolUse",
      hook: "bridge-question",
      decision: { decision: "allow" },
      decidedBy: "person",
    });
  });

  it("an answer of null is no answer: the question ends unanswered, by default", async () => {
    const { port } = await asking([calls(["ask_user", ASK_COLOR]), says("ok")]);
    const { result, decision } = await answered(port, null);
    expect(result).toMatchObject({
      isError: true,
      output: expect.stringContaining("(the main thread gave no answer)"),
    });
    expect(decision).toMatchObject({
      hook: "bridge-question",
      decision: { decision: "deny" },
      decidedBy: "default",
    });
  });

  it("an answer that does not fit says where, and ends the question unanswered", async () => {
    const { port } = await asking([calls(["ask_user", ASK_COLOR]), says("ok")]);
    const { result } = await answered(port, { answers: [{ selected: ["Green"] }] });
    expect(result).toMatchObject({
      isError: true,
      output: expect.stringContaining("(the main thread's answer did not fit (answers.0"),
    });
  });
});

describe("a hook of the user's that asks for approval", () => {
  it("does not ask again about the ask tool once the main thread answered it, as in-process", async () => {
    const hooks = {
      preToolUse: [{ handler: () => ({ decision: "ask" as const, reason: "check every call" }) }],
    };
    const { port } = await asking([calls(["ask_user", ASK_COLOR]), says("painted")], {}, { hooks });
    const { result } = await answered(port, { answers: [{ selected: ["Blue"] }] });
    expect(port.events().filter((event) => event.type === "approval-requested")).toEqual([]);
    expect(result).toMatchObject({ isError: false, output: expect.stringContaining("Blue") });
  });
});

describe("the other tools", () => {
  it("a tool that is not the ask tool runs as it is, and nobody is asked about it", async () => {
    const { port } = await asking([calls(["lookup", { q: "x" }]), says("ok")]);
    const { result } = await ended(port);
    expect(result).toMatchObject({ isError: false, output: "found x" });
    expect(port.of("decide")).toEqual([]);
  });
});

describe("the hook's time limit", () => {
  it("follows the question's: a long question timeout is not cut short by the hook", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { port } = await asking([calls(["ask_user", ASK_COLOR]), says("painted")], { question: 60_000 });
      await vi.waitFor(() => expect(port.of("decide")).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(30_000);
      const { result } = await answered(port, { answers: [{ selected: ["Red"] }] });
      expect(result).toMatchObject({ isError: false });
    } finally {
      vi.useRealTimers();
    }
  });
});
