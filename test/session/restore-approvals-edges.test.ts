/**
 * The verification of a restored state's seals, called directly with crafted states: verifiedApprovals
 * (restore-approvals.ts), verifiedQuestions (restore-questions.ts) and sessionPolicy / sealPolicy
 * (restore-permissions.ts). Pins what a refused restore tells its reader — the message, the path and
 * the details naming the call — for each refusal, and the signing domain of a permission policy, so
 * the states an earlier version signed keep verifying.
 */
import { describe, expect, it } from "vitest";
import { sign } from "../../src/agent/approval-digest.ts";
import type { StoredApproval } from "../../src/agent/approvals.ts";
import { resolvePermissions } from "../../src/agent/permission-policy.ts";
import { questionDigest } from "../../src/agent/question-digest.ts";
import type { StoredQuestion } from "../../src/agent/questions.ts";
import type { ConfigError, SessionState } from "../../src/index.ts";
import { verifiedApprovals } from "../../src/session/restore-approvals.ts";
import { sealPolicy, sessionPolicy } from "../../src/session/restore-permissions.ts";
import { verifiedQuestions } from "../../src/session/restore-questions.ts";

const SECRET = "s3cret-s3cret-s3cret-s3cret-s3cret";
const BYPASS = resolvePermissions({ mode: "bypass" });

function state(fields: Partial<SessionState>): SessionState {
  return { sessionId: "sess", pendingApprovals: [], toolPermissions: {}, ...fields } as SessionState;
}

function approval(fields: Partial<StoredApproval> = {}): StoredApproval {
  return {
    toolCallId: "call-1",
    toolName: "send",
    args: {},
    requestedAt: "2025-01-01T00:00:00.000Z",
    digest: "0".repeat(64),
    ...fields,
  } as StoredApproval;
}

function question(fields: Partial<StoredQuestion> = {}): StoredQuestion {
  return {
    toolCallId: "ask-1",
    toolName: "ask_user",
    questions: [
      {
        question: "Which database?",
        header: "Database",
        options: [{ label: "Postgres" }, { label: "SQLite" }],
        multiSelect: false,
      },
    ],
    requestedAt: "2025-01-01T00:00:00.000Z",
    digest: "0".repeat(64),
    ...fields,
  } as StoredQuestion;
}

async function thrown(work: Promise<unknown>): Promise<ConfigError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toMatchObject({ _tag: "ConfigError" });
  return error as ConfigError;
}

describe("verifiedApprovals", () => {
  it("without a secret, says which seal it cannot verify: a pending approval's", async () => {
    const signed = state({ pendingApprovals: [approval({ signature: "a".repeat(64) })] });
    const error = await thrown(verifiedApprovals(signed, "sess", undefined));
    expect(error).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0.signature",
      details: { reason: "secret-missing" },
    });
    expect(error.message).toMatch(
      /^Its pending approvals are signed with an approvalSecret, and this session has none/,
    );
  });

  it("without a secret, says which seal it cannot verify: the standing permissions'", async () => {
    const signed = state({ toolPermissions: { send: "allow" }, toolPermissionsSignature: "a".repeat(64) });
    const error = await thrown(verifiedApprovals(signed, "sess", undefined));
    expect(error.path).toBe("restore.toolPermissionsSignature");
    expect(error.message).toMatch(/^Its standing tool permissions are signed with an approvalSecret/);
  });

  it("names the call of an approval edited after the pause", async () => {
    const error = await thrown(
      verifiedApprovals(state({ pendingApprovals: [approval()] }), "sess", undefined),
    );
    expect(error).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingApprovals.0",
      details: { toolCallId: "call-1" },
    });
    expect(error.message).toMatch(/^Pending approval of tool call call-1 is refused: /);
  });

  it("with a secret, refuses unsigned standing permissions, saying so", async () => {
    const error = await thrown(
      verifiedApprovals(state({ toolPermissions: { send: "allow" } }), "sess", SECRET),
    );
    expect(error.path).toBe("restore.toolPermissions");
    expect(error.message).toMatch(/^The standing tool permissions are refused: \S/);
  });
});

describe("verifiedQuestions", () => {
  it("without a secret, refuses a signed question, naming the call", async () => {
    const signed = state({ pendingQuestions: [question({ signature: "a".repeat(64) })] });
    const error = await thrown(verifiedQuestions(signed, "sess", undefined));
    expect(error).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.pendingQuestions.0.signature",
      details: { reason: "secret-missing", toolCallId: "ask-1" },
    });
    expect(error.message).toMatch(
      /^Its pending questions are signed with an approvalSecret, and this session has none/,
    );
  });

  it("names the call of a question edited after the pause", async () => {
    const error = await thrown(
      verifiedQuestions(state({ pendingQuestions: [question()] }), "sess", undefined),
    );
    expect(error).toMatchObject({ path: "restore.pendingQuestions.0", details: { toolCallId: "ask-1" } });
    expect(error.message).toMatch(/^Pending question of tool call ask-1 is refused: \S/);
  });

  it("names the call and the rule of a question that breaks the ask tool's rules", async () => {
    const crafted = question();
    crafted.questions[0]!.options = [{ label: "Only one" }];
    crafted.digest = await questionDigest("sess", crafted);
    const error = await thrown(verifiedQuestions(state({ pendingQuestions: [crafted] }), "sess", undefined));
    expect(error).toMatchObject({
      path: "restore.pendingQuestions.0.questions.0.options",
      details: { toolCallId: "ask-1" },
    });
    expect(error.message).toMatch(
      /^Pending question of tool call ask-1 is refused: questions\.0\.options \S/,
    );
  });
});

describe("sessionPolicy", () => {
  it("signs a policy under the session's id in the permissions domain", async () => {
    const sealed = await sealPolicy({ mode: "acceptEdits" }, "sess", SECRET);
    expect(sealed.signature).toBe(await sign(SECRET, ["permissions", "sess", sealed.policy as never]));
  });

  it("refuses a signed policy without a secret, saying what to do", async () => {
    const signed = state({ permissions: BYPASS, permissionsSignature: "a".repeat(64) });
    const error = await thrown(sessionPolicy(undefined, signed, "sess", undefined));
    expect(error).toMatchObject({
      code: "APPROVAL_TAMPERED",
      path: "restore.permissions",
      details: { reason: "secret-missing" },
      message:
        "Its permission policy is signed with an approvalSecret, and this session has none to verify it: create the session with the approvalSecret it was signed with",
    });
  });

  it("refuses a signature whose policy was removed, with no details", async () => {
    const error = await thrown(
      sessionPolicy(undefined, state({ permissionsSignature: "a".repeat(64) }), "sess", SECRET),
    );
    expect(error).toMatchObject({
      code: "APPROVAL_TAMPERED",
      message: "The permission policy is refused: it was removed from a state that signed one",
    });
    expect(error.details).toBeUndefined();
  });

  it("refuses an unsigned or wrongly signed policy under a secret", async () => {
    const unsigned = await thrown(sessionPolicy(undefined, state({ permissions: BYPASS }), "sess", SECRET));
    expect(unsigned.message).toBe(
      "The permission policy is refused: it is not signed, and this session requires signed approvals",
    );
    const forged = state({ permissions: BYPASS, permissionsSignature: "a".repeat(64) });
    expect((await thrown(sessionPolicy(undefined, forged, "sess", SECRET))).message).toBe(
      "The permission policy is refused: its signature is not valid",
    );
  });
});
