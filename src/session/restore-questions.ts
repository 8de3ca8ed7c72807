/**
 * The question part of a restored SessionState, verified before a session holds it, as
 * restore-approvals.ts verifies approvals: a pending question whose digest no longer matches (its
 * questions were edited after the pause), or — with an `approvalSecret` — that is unsigned or wrongly
 * signed, is refused; a signed one without a secret to check it fails closed; and the questions must
 * still follow the ask tool's rules. Under another session id they are sealed again under the new one.
 *
 * @module
 */

import { checkQuestions } from "../agent/question-checks.ts";
import { questionTampering, sealQuestion } from "../agent/question-digest.ts";
import { ConfigError } from "../errors/sdk-error.ts";
import type { SessionState } from "./session-state.ts";

function tampered(message: string, path: string, details: Record<string, string>): ConfigError {
  return new ConfigError(message, { code: "APPROVAL_TAMPERED", path, details });
}

/**
 * `state` with its pending questions verified (under `state.sessionId`) and, when `sessionId` differs,
 * sealed again under it; throws ConfigError `APPROVAL_TAMPERED` naming the first that cannot be trusted.
 * The rest of the state (its approvals, its id) is restore-approvals.ts's to verify and rebind.
 */
export async function verifiedQuestions(
  state: SessionState,
  sessionId: string,
  secret: string | undefined,
): Promise<SessionState> {
  const questions = state.pendingQuestions;
  if (questions === undefined) return state;
  for (const [index, question] of questions.entries()) {
    const path = `restore.pendingQuestions.${index}`;
    const { toolCallId } = question;
    if (secret === undefined && question.signature !== undefined)
      throw tampered(
        "Its pending questions are signed with an approvalSecret, and this session has none to verify them: create the session with the approvalSecret they were signed with",
        `${path}.signature`,
        { reason: "secret-missing", toolCallId },
      );
    const why = await questionTampering(state.sessionId, question, secret);
    if (why !== undefined)
      throw tampered(`Pending question of tool call ${toolCallId} is refused: ${why}`, path, { toolCallId });
    const rules = checkQuestions({ questions: question.questions });
    if (!Array.isArray(rules))
      throw tampered(
        `Pending question of tool call ${toolCallId} is refused: ${rules.path} ${rules.problem}`,
        `${path}.${rules.path}`,
        { toolCallId },
      );
  }
  if (sessionId === state.sessionId) return state;
  return {
    ...state,
    pendingQuestions: await Promise.all(
      questions.map((question) => sealQuestion(sessionId, question, secret)),
    ),
  };
}
