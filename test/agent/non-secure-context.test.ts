/**
 * A page that is not a secure context (plain http from a LAN name or address) has
 * `crypto.getRandomValues` but neither `crypto.randomUUID` nor `crypto.subtle`. Wisp still runs there:
 * turns, runs and sessions with approvals (digests by Wisp's own SHA-256), and a state paused there
 * restores on a server, and the other way round. Only signing approvals needs Web Crypto: a session
 * with an `approvalSecret` is a ConfigError that says why. (test/examples/insecure-page.test.ts shows
 * the same in real Chromium.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import {
  createAgentSession,
  defineTool,
  runAgent,
  type SessionOptions,
  type SessionState,
  streamTurn,
} from "../../src/index.ts";
import { createScriptedModel } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { failure, okValue } from "../support/results.ts";

/** Makes `crypto` what a non-secure page has. */
function insecure(): void {
  const { getRandomValues } = crypto;
  vi.stubGlobal("crypto", { getRandomValues: getRandomValues.bind(crypto) });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function sendTool() {
  const ran: unknown[] = [];
  const tool = defineTool({
    name: "send",
    description: "Sends a message",
    input: z.object({ to: z.string() }),
    needsApproval: true,
    execute: (args) => {
      ran.push(args);
      return `sent to ${args.to}`;
    },
  });
  return { tool, ran };
}

/** A session's options over a scripted model; `resumed` skips the turn that asks for the call. */
function sessionOptions(resumed = false): { options: SessionOptions; ran: unknown[] } {
  const script = resumed ? [says("sent")] : [calls(["send", { to: "ada" }]), says("sent")];
  const model = createScriptedModel({ script });
  const { tool, ran } = sendTool();
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    tools: [tool],
  };
  return { options, ran };
}

const exported = (state: SessionState): SessionState => JSON.parse(JSON.stringify(state)) as SessionState;

describe("a context without crypto.randomUUID and crypto.subtle", () => {
  it("streams a turn and runs an agent", async () => {
    insecure();
    const model = createScriptedModel({ script: [says("hello there"), says("done")] });
    const turn = streamTurn(
      { messages: [{ id: "1", role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 0 }] },
      { model: "anthropic/claude-sonnet-5-5", apiKey: "k", fetch: model.fetch },
    );
    const message = await turn.message;
    expect(message.stopReason).toBe("complete");
    expect(message.id).toMatch(/^[0-9a-f-]{36}$|^msg_/);
    const result = await runAgent({
      model: "anthropic/claude-sonnet-5-5",
      apiKey: "k",
      fetch: model.fetch,
      prompt: "go",
    });
    expect(result.ok && result.value.text).toBe("done");
  });

  it("pauses for approval, restores and resumes; the state moves to and from a secure context", async () => {
    insecure();
    const here = sessionOptions();
    const session = okValue(await createAgentSession(here.options));
    const paused = await session.chat("go");
    expect(paused.ok && paused.value.stopReason).toBe("approval");
    const state = exported(session.export());
    const id = state.pendingApprovals[0]?.toolCallId as string;
    // Restored and resumed in the same kind of context.
    const again = okValue(await createAgentSession({ ...here.options, restore: state }));
    const resumed = await again.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("sent");
    expect(here.ran).toEqual([{ to: "ada" }]);
    // The same paused state restored on a server (Web Crypto's digest): it verifies and runs.
    vi.unstubAllGlobals();
    const there = sessionOptions(true);
    const server = okValue(await createAgentSession({ ...there.options, restore: state }));
    const onServer = await server.resume([{ toolCallId: id, approved: true }]);
    expect(onServer.ok && onServer.value.text).toBe("sent");
    // And an edited one is refused there too: the digests agree.
    const edited = structuredClone(state);
    (edited.pendingApprovals[0] as { args: unknown }).args = { to: "mallory" };
    expect(failure(await createAgentSession({ ...there.options, restore: edited }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
    });
  });

  it("refuses an approvalSecret with a ConfigError that says why, never a TypeError", async () => {
    insecure();
    const { options } = sessionOptions();
    expect(
      failure(
        await createAgentSession({ ...options, approvalSecret: "a-server-side-secret-of-some-length" }),
      ),
    ).toMatchObject({
      _tag: "ConfigError",
      code: "CONFIG_INVALID",
      path: "approvalSecret",
      message: expect.stringContaining("secure contexts"),
    });
  });
});
