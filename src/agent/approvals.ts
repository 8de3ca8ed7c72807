/**
 * Approvals: a tool call that waits for a person. A call whose tool says `needsApproval`, or whose
 * `preToolUse` hook answers `{ decision: "ask" }`, is not run; the run ends ok with stopReason
 * `approval` and the call in `pendingApprovals`. A later `session.resume(decisions)` — in another
 * request, on another machine — runs the approved calls, answers the denied ones, and goes on.
 *
 * @module
 */

import type { JsonObject, ToolResultPart } from "../types.ts";
import type { Tool } from "./define-tool.ts";
import type { HeldQuestion, StoredQuestion } from "./questions.ts";
import type { AnyTool, ArgsOf } from "./typed-tool-call.ts";

/** A tool call waiting for a person's decision. */
export interface PendingApproval {
  /** The provider's id for the call; a decision names it. */
  toolCallId: string;
  /** The name of the tool called. */
  toolName: string;
  /** The arguments the call will run with if approved as is (the model's, or a hook's edit of them). */
  args: JsonObject;
  /** Why approval was asked for (a hook's reason), when one was given. */
  reason?: string;
  /** Epoch milliseconds. */
  requestedAt: number;
}

/**
 * The pending approvals of a run typed by its tools `T`: discriminated by `toolName`, with `args` that
 * tool's input (a tool whose name is only known as `string` gives a plain {@link PendingApproval}).
 */
export type TypedPendingApproval<T extends AnyTool = AnyTool> =
  T extends Tool<infer _Args, infer Name, infer Input>
    ? string extends Name
      ? PendingApproval
      : Omit<PendingApproval, "toolName" | "args"> & {
          /** The name of the tool called. */
          toolName: Name;
          /** The arguments the call will run with if approved as is. */
          args: ArgsOf<Input>;
        }
    : never;

/**
 * A pending approval as the loop hands it on: with sequential tools (`toolExecution: "sequential"`),
 * the later calls of the same turn wait behind it, not started, and run in order once it is decided.
 */
export interface HeldApproval extends PendingApproval {
  /** Ids of the calls after this one that have not started because it waits (sequential tools only). */
  holds?: string[];
}

/**
 * A pending approval as a SessionState keeps it: bound by `digest` to its session, call, tool,
 * arguments and the calls it holds back, and signed when the session has an `approvalSecret`.
 */
export interface StoredApproval extends HeldApproval {
  /**
   * SHA-256 (hex) of the canonical JSON of `[sessionId, toolCallId, toolName, args]`, with `holds`
   * appended when there is one.
   */
  digest: string;
  /**
   * HMAC-SHA-256 (hex) under the session's `approvalSecret` of `digest`, `reason` and `requestedAt`.
   */
  signature?: string;
}

/** A person's answer to one pending call. */
export interface ApprovalDecisionFields {
  /** The {@link PendingApproval.toolCallId} this decides. */
  toolCallId: string;
  /**
   * The name of the call's tool: optional, checked against the call when given (a mismatch refuses
   * the resume with APPROVAL_INVALID); in a session typed by its tools it types `args` by that tool.
   */
  toolName?: string;
  /** True runs the call; false answers it with a denial the model reads. */
  approved: boolean;
  /** Shown to the model with a denial; kept with an approval's record. */
  reason?: string;
  /** Arguments the approver edited: the call runs with these, checked by the tool's schema first. */
  args?: JsonObject;
  /** Remember this answer for every later call of the same tool in this session ("always allow"). */
  always?: boolean;
  /** Who decided (a user id, an email): recorded on the run's trace (`wisp.approval.decided_by`), nowhere else. */
  decidedBy?: string;
}

/**
 * A decision on a call that waits for approval. In a session or run typed by its tools, `toolName`
 * picks the tool and `args` (an edit of the arguments) must be that tool's input; without
 * `toolName`, `args` must be some tool's input.
 */
export type ApprovalDecision<T extends AnyTool = AnyTool> =
  T extends Tool<infer _Args, infer Name, infer Input>
    ? string extends Name
      ? ApprovalDecisionFields
      : Omit<ApprovalDecisionFields, "toolName" | "args"> & {
          /** The call's tool, checked against the call. */
          toolName?: Name;
          /** Arguments the approver edited: the call runs with these, checked by the tool's schema first. */
          args?: ArgsOf<Input>;
        }
    : never;

/** A pending approval as a Result shows it: without its digest and signature. */
export function publicApproval(approval: PendingApproval): PendingApproval {
  const { toolCallId, toolName, args, reason, requestedAt } = approval;
  return reason === undefined
    ? { toolCallId, toolName, args, requestedAt }
    : { toolCallId, toolName, args, reason, requestedAt };
}

/** A pending approval as stored, without its seal: its public fields and the calls it holds back. */
export function heldApproval(approval: HeldApproval): HeldApproval {
  const held: HeldApproval = publicApproval(approval);
  if (approval.holds !== undefined) held.holds = [...approval.holds];
  return held;
}

/** Standing answers per tool name, set by decisions with `always`. */
export type ToolPermissions = Record<string, "allow" | "deny">;

/** A run paused for approvals (or questions): the calls waiting, and the results of the turn's other calls. */
export interface PausedTurn<A extends HeldApproval = HeldApproval, Q extends HeldQuestion = HeldQuestion> {
  approvals: A[];
  /** Calls of the ask tool waiting for the person's answers (see questions.ts); absent: none. */
  questions?: Q[];
  /** Results already produced for the paused turn's other calls, in the model's order. */
  results: ToolResultPart[];
}

/** A paused turn as a session keeps it: its approvals and questions sealed (see approval-digest.ts). */
export type Paused = PausedTurn<StoredApproval, StoredQuestion>;

/** The result a denied call gets (its `isError` is true). */
export function deniedOutput(reason: string | undefined, standing = false): string {
  const who = standing ? "The user always denies this tool" : "The user denied this tool call";
  return reason === undefined || reason === "" ? who : `${who}: ${reason}`;
}
