/**
 * Checks the decisions given to `session.resume` before anything runs: each must name a pending call
 * of the paused turn, once; a call already answered (a replay) or unknown is refused; edited
 * arguments must pass the tool's schema; a call can be approved only when the session has its tool (a
 * session restored without its tools). Every problem is a ConfigError `APPROVAL_INVALID` whose
 * `path` names the decision, and nothing executes.
 *
 * @module
 */

import type { ApprovalDecision, Paused, StoredApproval, ToolPermissions } from "../agent/approvals.ts";
import type { Tool } from "../agent/define-tool.ts";
import { isReplyEntry, type QuestionReply } from "../agent/questions.ts";
import { invalidOption, isPlainObject, notStringOption, oneOfOption } from "../config/option-checks.ts";
import { checkOptions, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { JsonObject, Message } from "../types.ts";

function refused(message: string, path: string, details: JsonObject = {}): ConfigError {
  return new ConfigError(message, { code: "APPROVAL_INVALID", path, details });
}

/** The fields of a decision, in the order they are checked. */
const DECISION_FIELDS: OptionTable<ApprovalDecision> = {
  toolCallId: { required: true, check: notStringOption },
  approved: {
    required: true,
    check: oneOfOption([true, false]),
  },
  args: (value, path) =>
    isPlainObject(value) ? undefined : invalidOption(`${path} must be an object of arguments`, path),
  always: oneOfOption([true, false]),
  reason: notStringOption,
  toolName: notStringOption,
  decidedBy: notStringOption,
};

/** The shape of one decision from plain JavaScript. */
function badDecision(value: unknown, path: string): ConfigError | undefined {
  if (!isPlainObject(value))
    return refused(`${path} must be a decision object, got ${showValue(value)}`, path);
  const problem = checkOptions(DECISION_FIELDS, value, { what: "decision field", path });
  if (problem !== undefined) return refused(problem.message, problem.path ?? path);
  if (value.args !== undefined && value.approved === false)
    return refused(`${path} edits the arguments of a call it denies`, `${path}.args`);
  return undefined;
}

/** Whether the conversation already holds a result for `toolCallId` (its decision was used). */
export function answered(
  messages: readonly Message[],
  paused: Paused | undefined,
  toolCallId: string,
): boolean {
  if (paused?.results.some((result) => result.toolCallId === toolCallId)) return true;
  return messages.some(
    (message) =>
      message.role === "tool_result" && message.content.some((part) => part.toolCallId === toolCallId),
  );
}

/** What a resume runs with: the decisions (with those a standing rule adds) and the new rules. */
export interface CheckedDecisions {
  decisions: ApprovalDecision[];
  permissions: ToolPermissions;
  /** The signature of `permissions`, when the session has an `approvalSecret`. */
  permissionsSignature?: string;
  /** Answers to the paused turn's questions (checked by check-replies.ts). */
  replies?: QuestionReply[];
}

/**
 * Checks `input` against the paused turn. Returns the decisions to run — plus, for a decision with
 * `always`, the other pending calls of that tool, decided the same way — and the session's rules
 * with the new standing answers; or the ConfigError that refuses the whole resume.
 */
export async function checkDecisions(
  input: unknown,
  paused: Paused | undefined,
  messages: readonly Message[],
  tools: ReadonlyMap<string, Tool<unknown>>,
  permissions: ToolPermissions,
): Promise<CheckedDecisions | ConfigError> {
  if (!Array.isArray(input) || input.length === 0)
    return refused("resume needs an array of one or more decisions", "decisions");
  const byId = new Map<string, ApprovalDecision>();
  for (const [index, value] of input.entries()) {
    // Answers to questions are check-replies.ts's.
    if (isReplyEntry(value)) continue;
    const path = `decisions.${index}`;
    const problem = badDecision(value, path);
    if (problem !== undefined) return problem;
    const decision = value as ApprovalDecision;
    const id = decision.toolCallId;
    if (byId.has(id))
      return refused(`Tool call ${id} is decided twice`, `${path}.toolCallId`, { toolCallId: id });
    if (!paused?.approvals.some((approval) => approval.toolCallId === id)) {
      const used = answered(messages, paused, id);
      const why = used
        ? `Tool call ${id} was already decided (a decision is used once)`
        : `Tool call ${id} is not waiting for approval`;
      return refused(why, `${path}.toolCallId`, { toolCallId: id, replayed: used });
    }
    byId.set(id, decision);
  }
  const pending = paused?.approvals ?? [];
  let rules: ToolPermissions = { ...permissions };
  const standing = new Set<string>();
  for (const [index, decision] of (input as ApprovalDecision[]).entries()) {
    if (isReplyEntry(decision)) continue;
    const approval = pending.find(
      (candidate) => candidate.toolCallId === decision.toolCallId,
    ) as StoredApproval;
    if (decision.toolName !== undefined && decision.toolName !== approval.toolName)
      return refused(
        `Tool call ${approval.toolCallId} is a call of "${approval.toolName}", not "${decision.toolName}"`,
        `decisions.${index}.toolName`,
        { toolCallId: approval.toolCallId, toolName: approval.toolName },
      );
    if (decision.always === true) {
      // A literal's computed key defines an own property even for a tool named "__proto__".
      rules = { ...rules, [approval.toolName]: decision.approved ? "allow" : "deny" };
      standing.add(approval.toolName);
    }
    if (decision.approved && !tools.has(approval.toolName))
      // Approving a call the session has no code for would use the approval up on an "unknown tool" answer.
      return refused(
        `Tool call ${approval.toolCallId} is approved, but this session has no tool "${approval.toolName}": give the session its tools (createAgentSession({ tools, restore }))`,
        `decisions.${index}.approved`,
        { toolCallId: approval.toolCallId, toolName: approval.toolName },
      );
    const edit = await badEdit(decision, approval, tools, `decisions.${index}.args`);
    if (edit !== undefined) return edit;
  }
  const decisions = [...byId.values()];
  // "Always" answers the other calls of that tool waiting in this turn too.
  for (const approval of pending) {
    if (byId.has(approval.toolCallId) || !standing.has(approval.toolName)) continue;
    decisions.push({ toolCallId: approval.toolCallId, approved: rules[approval.toolName] === "allow" });
  }
  return { decisions, permissions: rules };
}

/** A ConfigError when an approver's edited arguments fail the tool's schema. */
async function badEdit(
  decision: ApprovalDecision,
  approval: StoredApproval,
  tools: ReadonlyMap<string, Tool<unknown>>,
  path: string,
): Promise<ConfigError | undefined> {
  const parse = tools.get(approval.toolName)?.parseArgs;
  if (decision.args === undefined || parse === undefined) return undefined;
  let parsed: Awaited<ReturnType<typeof parse>>;
  try {
    parsed = await parse(decision.args);
  } catch (error) {
    return refused(`The edited arguments of tool call ${approval.toolCallId} could not be checked`, path, {
      toolCallId: approval.toolCallId,
      cause: String(error),
    });
  }
  if (parsed.ok) return undefined;
  return refused(
    `The edited arguments of "${approval.toolName}" (tool call ${approval.toolCallId}) are invalid: ${parsed.message}`,
    path,
    { toolCallId: approval.toolCallId },
  );
}
