/**
 * Permission policies (issue 40) in sessions, in the style of approvals.test.ts: every policy that
 * matters goes through export → JSON → restore into a new session object before the run it decides;
 * a state edited to loosen its policy is refused; the policy changes between runs (never during one),
 * a UI's "always allow" holds, and all of it works across the bridge.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import * as Effect from "effect/Effect";
import { afterEach, describe, expect, it } from "vitest";
import { connectSession, serveSession } from "../../src/bridge/index.ts";
import { createAgentSessionEffect } from "../../src/effect/index.ts";
import {
  type AgentEvent,
  type AgentSession,
  createAgentSession,
  createSession,
  type SessionOptions,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, collect, gate, says } from "../support/agent.ts";
import { permissionTools } from "../support/permission-tools.ts";
import { failure, okValue } from "../support/results.ts";

const SECRET = "a-secret-of-at-least-16-characters";

/** `read` has no side effects; `write` asks (class edit); what ran is recorded. */
function tools() {
  const { ran, read, write } = permissionTools();
  return { ran, list: [read, write] };
}

async function start(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
  const { ran, list } = tools();
  const model = createScriptedModel({ script });
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    tools: list,
    ...extra,
  };
  const session = okValue(await createAgentSession(options));
  return { model, options, session, ran };
}

/** The session as another machine would get it: exported, through JSON, restored into a new object. */
async function moved(session: AgentSession, options: SessionOptions): Promise<AgentSession> {
  const json = JSON.stringify(session.export());
  return okValue(await createAgentSession({ ...options, restore: JSON.parse(json) }));
}

/** Restores `state` (after a JSON round trip) with `options`; the Result. */
function restore(state: SessionState, options: SessionOptions) {
  return createAgentSession({ ...options, restore: JSON.parse(JSON.stringify(state)) });
}

const writeB = calls(["write", { path: "b.txt" }]);

describe("the policy is part of the state", () => {
  it("exported filled in, restored on a new object, it decides the next run there", async () => {
    const { options, session, ran } = await start([writeB, says("planned")], {
      permissions: { mode: "plan" },
    });
    const state = session.export();
    expect(state.permissions).toEqual({ mode: "plan", allow: [], deny: [], acceptClasses: ["edit"] });
    expect(state.permissionsSignature).toBeUndefined();
    const { permissions: _, ...withoutOption } = options;
    const elsewhere = await moved(session, withoutOption);
    expect(elsewhere.export()).toEqual(JSON.parse(JSON.stringify(state)));
    expect(elsewhere.permissions().mode).toBe("plan");
    const result = okValue(await elsewhere.chat("change b"));
    expect(ran).toEqual([]);
    expect(result.stopReason).toBe("complete");
    expect(result.toolCalls[0]?.result.output).toMatch(/plan mode/);
  });

  it("a session without a policy exports none, and an older state restores unchanged", async () => {
    const { options, session } = await start([says("hi")]);
    await session.chat("hi");
    const state = session.export();
    expect("permissions" in state).toBe(false);
    expect(session.permissions()).toEqual({ mode: "default", allow: [], deny: [], acceptClasses: ["edit"] });
    const restored = okValue(await restore(state, options));
    expect(restored.export()).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it("the option given with restore replaces the state's policy", async () => {
    const { options, session } = await start([], { permissions: { mode: "plan", deny: ["x"] } });
    const restored = okValue(
      await restore(session.export(), { ...options, permissions: { allow: ["read"] } }),
    );
    expect(restored.permissions()).toEqual({
      mode: "default",
      allow: ["read"],
      deny: [],
      acceptClasses: ["edit"],
    });
    expect(restored.export().permissions?.allow).toEqual(["read"]);
  });

  it("a policy option that is not valid refuses the session, naming the field", async () => {
    const model = createScriptedModel({ script: [] });
    const base = { model: "anthropic/claude-sonnet-5-5", apiKey: "k", fetch: model.fetch } as const;
    for (const [permissions, path] of [
      [{ mode: "yolo" }, "permissions.mode"],
      [{ deny: ["a b"] }, "permissions.deny.0"],
      ["plan", "permissions"],
    ] as const) {
      const error = failure(await createAgentSession({ ...base, permissions: permissions as never }));
      expect([error.code, error.path]).toEqual(["CONFIG_INVALID", path]);
    }
  });

  it("a crafted policy in a state is a ConfigError naming the field", async () => {
    const { options, session } = await start([]);
    const state = session.export();
    for (const [permissions, path] of [
      [{ mode: "yolo" }, "permissions.mode"],
      [{ allow: ["bad name"] }, "permissions.allow.0"],
      [{ deny: "x" }, "permissions.deny"],
      ["bypass", "permissions"],
    ] as const) {
      const error = failure(await restore({ ...state, permissions } as unknown as SessionState, options));
      expect([error.code, error.path]).toEqual(["CONFIG_INVALID", path]);
    }
  });
});

describe("a client holding the state cannot loosen a signed policy", () => {
  async function signed() {
    const { options, session } = await start([], {
      approvalSecret: SECRET,
      permissions: { mode: "default", deny: ["write"] },
    });
    const state = session.export();
    expect(state.permissionsSignature).toMatch(/^[0-9a-f]{64}$/);
    return { options, state };
  }

  it("the untouched state restores, and verifies again after a second move", async () => {
    const { options, state } = await signed();
    const { permissions: _, ...withoutOption } = options;
    const once = okValue(await restore(state, withoutOption));
    const twice = okValue(await restore(once.export(), withoutOption));
    expect(twice.permissions().deny).toEqual(["write"]);
  });

  it.each([
    [
      "switched to bypass",
      (state: SessionState) => ({ ...state, permissions: { ...state.permissions, mode: "bypass" } }),
    ],
    [
      "added to allow",
      (state: SessionState) => ({ ...state, permissions: { ...state.permissions, allow: ["*"] } }),
    ],
    [
      "emptied its deny list",
      (state: SessionState) => ({ ...state, permissions: { ...state.permissions, deny: [] } }),
    ],
    [
      "dropped the signature",
      (state: SessionState) => {
        const { permissionsSignature: _, ...rest } = state;
        return rest;
      },
    ],
    [
      "dropped the policy, kept its signature",
      (state: SessionState) => {
        const { permissions: _, ...rest } = state;
        return rest;
      },
    ],
  ])("%s: refused with APPROVAL_TAMPERED", async (_what, edit) => {
    const { options, state } = await signed();
    const { permissions: _, ...withoutOption } = options;
    const error = failure(await restore(edit(state) as SessionState, withoutOption));
    expect([error.code, error.path]).toEqual(["APPROVAL_TAMPERED", "restore.permissions"]);
  });

  it("both removed, the state restores without a policy (the documented limit); the option given on restore holds", async () => {
    const { options, state } = await signed();
    const { permissions: _, permissionsSignature: __, ...stripped } = state;
    const { permissions: given, ...withoutOption } = options;
    const loose = okValue(await restore(stripped as SessionState, withoutOption));
    expect(loose.export().permissions).toBeUndefined();
    const held = okValue(await restore(stripped as SessionState, options));
    expect(held.permissions()).toMatchObject(given ?? {});
  });

  it("a tampered policy is refused even when the option would replace it", async () => {
    const { options, state } = await signed();
    const edited = { ...state, permissions: { ...state.permissions, mode: "bypass" } } as SessionState;
    expect(failure(await restore(edited, options)).code).toBe("APPROVAL_TAMPERED");
  });

  it("a signed policy restored without the secret fails closed", async () => {
    const { options, state } = await signed();
    const { approvalSecret: _, permissions: __, ...noSecret } = options;
    const error = failure(await restore(state, noSecret));
    expect([error.code, error.details?.reason]).toEqual(["APPROVAL_TAMPERED", "secret-missing"]);
  });

  it("restored under another session id, the policy is signed again for the copy", async () => {
    const { options, state } = await signed();
    const { permissions: _, ...withoutOption } = options;
    const copy = okValue(await restore(state, { ...withoutOption, sessionId: "the-copy" }));
    const exported = copy.export();
    expect(exported.permissionsSignature).not.toBe(state.permissionsSignature);
    const { sessionId: __, ...again } = withoutOption;
    expect(okValue(await restore(exported, again)).permissions().deny).toEqual(["write"]);
  });
});

describe("setPermissions: between runs, never during one", () => {
  it("changes the next run, and the change is exported and restored", async () => {
    const { options, session, ran } = await start([writeB, says("paused?"), writeB, says("done")]);
    const first = okValue(await session.chat("write b"));
    expect(first.stopReason).toBe("approval");
    // Deciding the paused call, then switching to acceptEdits for the calls after it.
    const set = okValue(await session.setPermissions({ mode: "acceptEdits" }));
    expect(set).toEqual({ mode: "acceptEdits", allow: [], deny: [], acceptClasses: ["edit"] });
    const id = first.pendingApprovals?.[0]?.toolCallId as string;
    okValue(await session.resume([{ toolCallId: id, approved: true }]));
    const elsewhere = await moved(session, options);
    const events = await collect(elsewhere.stream("write b again"));
    const decided = events.filter(
      (event): event is Extract<AgentEvent, { type: "permission-decision" }> =>
        event.type === "permission-decision",
    );
    expect(decided.map((event) => event.verdict)).toEqual([
      { decision: "allow", rule: "accept-edits", match: "edit" },
    ]);
    expect(ran).toEqual(["write b.txt", "write b.txt"]);
    expect(elsewhere.export().permissions?.mode).toBe("acceptEdits");
  });

  it("is refused with SESSION_BUSY while a run is in flight, and the policy stays", async () => {
    const { tool, hasStarted, release } = gate();
    const model = createScriptedModel({ script: [calls(["gate", {}]), says("done")] });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [tool],
      }),
    );
    const running = session.chat("go");
    await hasStarted;
    const refused = failure(await session.setPermissions({ mode: "bypass" }));
    expect([refused.code, refused.path]).toEqual(["SESSION_BUSY", "permissions"]);
    release();
    okValue(await running);
    expect(session.permissions().mode).toBe("default");
    expect(okValue(await session.setPermissions({ mode: "bypass" })).mode).toBe("bypass");
  });

  it("refuses a policy that is not valid, and a closed session, leaving the policy as it was", async () => {
    const { session } = await start([], { permissions: { deny: ["write"] } });
    const bad = failure(await session.setPermissions({ allow: ["no spaces"] }));
    expect([bad.code, bad.path]).toEqual(["CONFIG_INVALID", "permissions.allow.0"]);
    expect(failure(await session.setPermissions(undefined as never)).code).toBe("CONFIG_INVALID");
    expect(session.permissions().deny).toEqual(["write"]);
    await session.close();
    expect(failure(await session.setPermissions({})).code).toBe("SESSION_CLOSED");
  });

  it("with a secret, a policy set between runs is signed and verifies on restore", async () => {
    const { options, session } = await start([], { approvalSecret: SECRET });
    expect(session.export().permissionsSignature).toBeUndefined();
    okValue(await session.setPermissions({ allow: ["write"] }));
    const state = session.export();
    expect(state.permissionsSignature).toMatch(/^[0-9a-f]{64}$/);
    expect(okValue(await restore(state, options)).permissions().allow).toEqual(["write"]);
    const loosened = { ...state, permissions: { ...state.permissions, allow: ["*"] } } as SessionState;
    expect(failure(await restore(loosened, options)).code).toBe("APPROVAL_TAMPERED");
  });
});

describe('a UI\'s "always allow this tool" holds', () => {
  it("allowed while paused, the pending call is still decided by the person; later calls run without asking", async () => {
    const { options, session, ran } = await start([writeB, says("one"), writeB, says("two")], {
      approvalSecret: SECRET,
    });
    const paused = okValue(await session.chat("write"));
    const policy = session.permissions();
    okValue(await session.setPermissions({ ...policy, allow: [...policy.allow, "write"] }));
    const elsewhere = await moved(session, options);
    // The pause stays a pause: the policy answers calls that come, not the one already waiting.
    expect(failure(await elsewhere.chat("again")).code).toBe("APPROVAL_PENDING");
    const id = paused.pendingApprovals?.[0]?.toolCallId as string;
    okValue(await elsewhere.resume([{ toolCallId: id, approved: true }]));
    const next = okValue(await (await moved(elsewhere, options)).chat("write again"));
    expect(next.stopReason).toBe("complete");
    expect(ran).toEqual(["write b.txt", "write b.txt"]);
  });

  it("holds against a canUseTool that asks for every call", async () => {
    const model = createScriptedModel({ script: [writeB, says("done")] });
    const { ran, list } = tools();
    const created = okValue(
      await createSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: list,
        permissions: { allow: ["write"] },
        canUseTool: () => ({ behavior: "ask" }),
      }),
    );
    okValue(await created.send("write"));
    const results = (await collect(created.receive())).filter((message) => message.type === "result");
    expect(results.map((message) => message.type === "result" && message.subtype)).toEqual(["success"]);
    expect(ran).toEqual(["write b.txt"]);
    await created.close();
  });

  it("a policy changed while paused binds the approved call: denied tools and plan mode do not run it", async () => {
    for (const policy of [{ deny: ["write"] }, { mode: "plan" as const }]) {
      const { options, session, ran } = await start([writeB, says("ok")]);
      const paused = okValue(await session.chat("write"));
      okValue(await session.setPermissions(policy));
      const elsewhere = await moved(session, options);
      const id = paused.pendingApprovals?.[0]?.toolCallId as string;
      const resumed = okValue(await elsewhere.resume([{ toolCallId: id, approved: true }]));
      expect(ran).toEqual([]);
      expect(resumed.toolCalls[0]?.result).toMatchObject({ isError: true });
      expect(resumed.toolCalls[0]?.result.output).toMatch(/permission policy/);
    }
  });
});

describe("across the bridge", () => {
  const ports: MessagePort[] = [];
  afterEach(() => {
    for (const port of ports.splice(0)) port.close();
  });

  async function bridged(script: ScriptedTurn[], extra: Partial<SessionOptions> = {}) {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const { ran, list } = tools();
    const model = createScriptedModel({ script });
    const server = serveSession(port1, {
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      retry: { maxRetries: 0 },
      tools: list,
      onReport: () => {},
      ...extra,
    });
    const session = okValue(await connectSession(port2, { onReport: () => {} }));
    return { server, session, ran };
  }

  it("reads and sets the worker session's policy; the next run there is decided by it", async () => {
    const { session, ran } = await bridged([writeB, says("asked"), writeB, says("done")]);
    expect(okValue(await session.permissions()).mode).toBe("default");
    const paused = okValue(await session.chat("write"));
    expect(paused.stopReason).toBe("approval");
    const set = okValue(await session.setPermissions({ allow: ["write"] }));
    expect(set.allow).toEqual(["write"]);
    const id = paused.pendingApprovals?.[0]?.toolCallId as string;
    okValue(await session.resume([{ toolCallId: id, approved: true }]));
    const events = await collect(session.stream("write again"));
    const decided = events.find((event) => event.type === "permission-decision");
    expect(decided?.type === "permission-decision" && [decided.toolCall.name, decided.verdict]).toEqual([
      "write",
      { decision: "allow", rule: "allow-list", match: "write" },
    ]);
    expect(ran).toEqual(["write b.txt", "write b.txt"]);
    const state = okValue(await session.export());
    expect(state.permissions?.allow).toEqual(["write"]);
    await session.close();
  });

  it("an invalid policy is refused before it is sent; a busy worker session refuses with SESSION_BUSY", async () => {
    const { tool, hasStarted, release } = gate();
    const { session } = await bridged([calls(["gate", {}]), says("done")], { tools: [tool] });
    const bad = failure(await session.setPermissions({ mode: "sometimes" as "plan" }));
    expect([bad.code, bad.path]).toEqual(["CONFIG_INVALID", "permissions.mode"]);
    const running = session.chat("go");
    await hasStarted;
    expect(failure(await session.setPermissions({ mode: "plan" })).code).toBe("SESSION_BUSY");
    release();
    okValue(await running);
    expect(okValue(await session.setPermissions({ mode: "plan" })).mode).toBe("plan");
    await session.close();
  });

  it("a restored state's signed policy is verified in the worker", async () => {
    const { session: local } = await start([], { approvalSecret: SECRET, permissions: { deny: ["write"] } });
    const state = local.export();
    const loosened = { ...state, permissions: { ...state.permissions, deny: [] } };
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const model = createScriptedModel({ script: [] });
    serveSession(port1, {
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      approvalSecret: SECRET,
    });
    const refused = failure(await connectSession(port2, { restore: loosened, onReport: () => {} }));
    expect(refused.code).toBe("APPROVAL_TAMPERED");
  });
});

describe("the Effect face", () => {
  it("reads and sets the policy; a refused policy is the Effect's failure", async () => {
    const model = createScriptedModel({ script: [] });
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const session = yield* createAgentSessionEffect({
            model: "anthropic/claude-sonnet-5-5",
            apiKey: "k",
            fetch: model.fetch,
          });
          const set = yield* session.setPermissions({ mode: "plan" });
          const read = yield* session.permissions();
          const refused = yield* Effect.flip(session.setPermissions({ deny: ["a b"] }));
          return [set.mode, read.mode, refused.code, refused.path];
        }),
      ),
    );
    expect(outcome).toEqual(["plan", "plan", "CONFIG_INVALID", "permissions.deny.0"]);
  });
});
