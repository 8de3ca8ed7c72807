/**
 * Binds a pending question to what was asked, as approval-digest.ts binds an approval: a digest of
 * (session, call id, tool, questions) and, with a secret, an HMAC of that digest with the time it was
 * asked. The digest's first element, `"question"`, keeps a question's seal from passing for an
 * approval's (and the other way round).
 *
 * @module
 */

import type { JsonValue } from "../types.ts";
import { canonicalJson, sameText, sha256Hex, sign } from "./approval-digest.ts";
import { type HeldQuestion, heldQuestion, type StoredQuestion } from "./questions.ts";

/** SHA-256 hex of `["question", sessionId, toolCallId, toolName, questions]`, with `holds` when there are any. */
export function questionDigest(sessionId: string, question: HeldQuestion): Promise<string> {
  const bound: JsonValue[] = [
    "question",
    sessionId,
    question.toolCallId,
    question.toolName,
    question.questions as unknown as JsonValue,
  ];
  if (question.holds !== undefined) bound.push(question.holds);
  return sha256Hex(canonicalJson(bound));
}

/** What a question's signature covers: its digest and the time it was asked. */
function signedPart(question: StoredQuestion): JsonValue {
  return ["question", question.digest, question.requestedAt];
}

/** `question` (without any earlier seal) with its digest under `sessionId`, and its signature with a secret. */
export async function sealQuestion(
  sessionId: string,
  question: HeldQuestion,
  secret: string | undefined,
): Promise<StoredQuestion> {
  const held = heldQuestion(question);
  const sealed: StoredQuestion = { ...held, digest: await questionDigest(sessionId, held) };
  if (secret !== undefined) sealed.signature = await sign(secret, signedPart(sealed));
  return sealed;
}

/**
 * Why `question` cannot be trusted, or undefined: its digest does not match (it was edited after the
 * pause), or — with a secret — its signature is missing or wrong. Fails closed like approvals.
 */
export async function questionTampering(
  sessionId: string,
  question: StoredQuestion,
  secret: string | undefined,
): Promise<string | undefined> {
  const digest = await questionDigest(sessionId, question);
  if (!sameText(digest, question.digest)) return "its digest does not match its session, tool and questions";
  if (secret === undefined) return undefined;
  if (question.signature === undefined) return "it is not signed, and this session requires signed pauses";
  if (!sameText(await sign(secret, signedPart(question)), question.signature))
    return "its signature is not valid";
  return undefined;
}
