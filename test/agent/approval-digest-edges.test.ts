/**
 * The seals of a paused session's approvals (approval-digest.ts), seen through export and restore:
 * the digest is SHA-256 of the canonical JSON of `[sessionId, toolCallId, toolName, args]` (keys
 * sorted at every level, items comma-separated), the approval's signature is HMAC-SHA-256 of
 * `["approval", digest, reason, requestedAt]` and the standing permissions' of
 * `["toolPermissions", sessionId, permissions]` — pinned against values computed here, so states sealed
 * by another version or context keep verifying. Also: reordered keys still verify, edited arguments
 * do not, each refusal says why, and signing in a context whose Web Crypto went away is a ConfigError.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AgentSession,
  createAgentSession,
  defineTool,
  type SessionOptions,
  type SessionState,
} from "../../src/index.ts";
import { createScriptedModel, type ScriptedTurn } from "../../src/testing/index.ts";
import { calls, says } from "../support/agent.ts";
import { hmacHex, sha256Hex } from "../support/digests.ts";
import { failure, okValue } from "../support/results.ts";

const SECRET = "a-server-side-secret-of-some-length";

afterEach(() => {
  vi.unstubAllGlobals();
});

const send = defineTool({
  name: "send",
  description: "Sends",
  inputSchema: { type: "object" },
  needsApproval: true,
  execute: () => "sent",
});

async function pausedOn(
  args: Record<string, unknown>,
  extra: Partial<SessionOptions> = {},
  script: ScriptedTurn[] = [calls(["send", args]), says("sent")],
) {
  const model = createScriptedModel({ script });
  const options: SessionOptions = {
    model: "anthropic/claude-sonnet-5-5",
    apiKey: "k",
    fetch: model.fetch,
    retry: { maxRetries: 0 },
    tools: [send],
    ...extra,
  };
  const session = okValue(await createAgentSession(options));
  const paused = await session.chat("go");
  expect(paused.ok && paused.value.stopReason).toBe("approval");
  return { options, session, state: exported(session) };
}

const exported = (session: AgentSession): SessionState =>
  JSON.parse(JSON.stringify(session.export())) as SessionState;

// Keys out of order at two levels, and an array whose items would run together without commas.
const ARGS = { b: [1, 23], a: { d: "x", c: 2 } };
const CANONICAL_ARGS = '{"a":{"c":2,"d":"x"},"b":[1,23]}';

describe("approval seals", () => {
  it("the digest is SHA-256 of the canonical JSON of session, call, tool and arguments", async () => {
    const { state } = await pausedOn(ARGS);
    const [approval] = state.pendingApprovals;
    if (approval === undefined) throw new Error("no pending approval");
    const bound = `[${JSON.stringify(state.sessionId)},${JSON.stringify(approval.toolCallId)},"send",${CANONICAL_ARGS}]`;
    expect(approval.digest).toBe(await sha256Hex(bound));
  });

  it("with a secret, the signature is HMAC-SHA-256 of the approval's digest, reason and time", async () => {
    const { state } = await pausedOn(ARGS, { approvalSecret: SECRET });
    const [approval] = state.pendingApprovals;
    if (approval === undefined) throw new Error("no pending approval");
    const signed = `["approval",${JSON.stringify(approval.digest)},null,${JSON.stringify(approval.requestedAt)}]`;
    expect(approval.signature).toBe(await hmacHex(SECRET, signed));
  });

  it("standing permissions are signed as HMAC-SHA-256 of their tag, the session id and the permissions", async () => {
    const { options, state } = await pausedOn({ to: "a" }, { approvalSecret: SECRET });
    const restored = okValue(await createAgentSession({ ...options, restore: state }));
    const id = state.pendingApprovals[0]?.toolCallId as string;
    await restored.resume([{ toolCallId: id, approved: true, always: true }]);
    const after = exported(restored);
    expect(after.toolPermissions).toEqual({ send: "allow" });
    const signed = `["toolPermissions",${JSON.stringify(after.sessionId)},{"send":"allow"}]`;
    expect(after.toolPermissionsSignature).toBe(await hmacHex(SECRET, signed));
  });

  it("a state whose argument keys were reordered (as a JSON store may) still verifies and resumes", async () => {
    const { options, state } = await pausedOn(ARGS, { approvalSecret: SECRET }, [
      calls(["send", ARGS]),
      says("sent"),
    ]);
    const reordered = structuredClone(state);
    const approval = reordered.pendingApprovals[0] as { args: unknown };
    approval.args = { a: { c: 2, d: "x" }, b: [1, 23] };
    const restored = okValue(await createAgentSession({ ...options, restore: reordered }));
    const id = state.pendingApprovals[0]?.toolCallId as string;
    const resumed = await restored.resume([{ toolCallId: id, approved: true }]);
    expect(resumed.ok && resumed.value.text).toBe("sent");
  });
});

describe("refusals say why", () => {
  it("edited arguments are refused, even when their items only moved across an item boundary", async () => {
    const { options, state } = await pausedOn(ARGS);
    const edited = structuredClone(state);
    (edited.pendingApprovals[0] as { args: unknown }).args = { b: [12, 3], a: { d: "x", c: 2 } };
    const id = state.pendingApprovals[0]?.toolCallId as string;
    expect(failure(await createAgentSession({ ...options, restore: edited }))).toMatchObject({
      _tag: "ConfigError",
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
      message: `Pending approval of tool call ${id} is refused: its digest does not match its session, tool and arguments`,
    });
  });

  it("an unsigned approval is refused by a session with a secret", async () => {
    const { options, state } = await pausedOn({ to: "a" });
    const id = state.pendingApprovals[0]?.toolCallId as string;
    expect(
      failure(await createAgentSession({ ...options, approvalSecret: SECRET, restore: state })),
    ).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
      message: `Pending approval of tool call ${id} is refused: it is not signed, and this session requires signed approvals`,
    });
  });

  it("standing permissions with a wrong signature are refused", async () => {
    const { options, state } = await pausedOn({ to: "a" }, { approvalSecret: SECRET });
    const restored = okValue(await createAgentSession({ ...options, restore: state }));
    await restored.resume([
      { toolCallId: state.pendingApprovals[0]?.toolCallId as string, approved: true, always: true },
    ]);
    const forged = exported(restored);
    forged.toolPermissionsSignature = "0".repeat(64);
    expect(failure(await createAgentSession({ ...options, restore: forged }))).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.toolPermissions",
      message: "The standing tool permissions are refused: their signature is not valid",
    });
  });
});

describe("signing without Web Crypto", () => {
  it("a session whose crypto.subtle went away after it was created fails the pausing run with a ConfigError", async () => {
    const model = createScriptedModel({ script: [calls(["send", { to: "a" }]), says("sent")] });
    const session = okValue(
      await createAgentSession({
        model: "anthropic/claude-sonnet-5-5",
        apiKey: "k",
        fetch: model.fetch,
        tools: [send],
        approvalSecret: SECRET,
      }),
    );
    const { getRandomValues } = crypto;
    vi.stubGlobal("crypto", { getRandomValues: getRandomValues.bind(crypto) });
    try {
      expect(failure(await session.chat("go"))).toMatchObject({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "approvalSecret",
        message:
          "approvalSecret needs crypto.subtle to sign approvals, which browsers give only to secure contexts (https, localhost)",
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
