/**
 * Questions: the model asks the person. A call of the ask tool (`askUserTool()`) with valid questions
 * is not run; the run ends ok with stopReason `question` and the call in `pendingQuestions`. A later
 * `session.resume([{ toolCallId, answers }])` — in another request, on another machine — gives the
 * call its result (the answers, or that the person did not answer) and the run goes on.
 *
 * @module
 */

/** One choice the model offers. */
export interface QuestionOption {
  /** What the person picks (a few words); an answer names it in `selected`. */
  label: string;
  /** What picking it means, when the model said. */
  description?: string;
}

/** One question the model asks, with 2–4 options; the person may always answer in their own words. */
export interface Question {
  /** The whole question, as the person reads it. */
  question: string;
  /** A short label for it (a chip, a tab title): "Database", "Scope". */
  header: string;
  /** The choices, 2–4, their labels distinct. */
  options: QuestionOption[];
  /** Whether the person may pick more than one option. */
  multiSelect: boolean;
}

/** A call of the ask tool waiting for the person's answers. */
export interface PendingQuestion {
  /** The provider's id for the call; an answer names it. */
  toolCallId: string;
  /** The name of the ask tool (`ask_user` unless it was given another). */
  toolName: string;
  /** The questions, 1–4, in the model's order. */
  questions: Question[];
  /** Epoch milliseconds. */
  requestedAt: number;
}

/**
 * A pending question as the loop hands it on: with sequential tools, the later calls of the same turn
 * wait behind it, not started, and run in order once it is answered.
 */
export interface HeldQuestion extends PendingQuestion {
  /** Ids of the calls after this one that have not started because it waits (sequential tools only). */
  holds?: string[];
}

/**
 * A pending question as a SessionState keeps it: bound by `digest` to its session, call, tool,
 * questions and the calls it holds back, and signed when the session has an `approvalSecret`.
 */
export interface StoredQuestion extends HeldQuestion {
  /** SHA-256 (hex) of the canonical JSON of `["question", sessionId, toolCallId, toolName, questions]` (and `holds`). */
  digest: string;
  /** HMAC-SHA-256 (hex) under the session's `approvalSecret` of `digest` and `requestedAt`. */
  signature?: string;
}

/** The person's answer to one question: options picked, their own words, or both. */
export interface QuestionAnswer {
  /** Labels of the options picked: at most one unless the question is `multiSelect`. */
  selected?: string[];
  /** The person's own words (an answer none of the options gives, or a note to one). */
  text?: string;
}

/** The person answered: one answer per question, in the questions' order. */
export interface AnsweredReply {
  /** The {@link PendingQuestion.toolCallId} this answers. */
  toolCallId: string;
  /** One answer per question, in order; each picks options or writes text (not nothing). */
  answers: QuestionAnswer[];
}

/** The person did not answer (dismissed it, or no answer came in time): the model is told so. */
export interface UnansweredReply {
  /** The {@link PendingQuestion.toolCallId} this answers. */
  toolCallId: string;
  /** Always true: nothing was answered, and the model is not given a made-up answer. */
  unanswered: true;
  /** Why, shown to the model ("dismissed", "no answer within 5 minutes"). */
  reason?: string;
}

/** What `session.resume` takes for a pending question: its answers, or that it went unanswered. */
export type QuestionReply = AnsweredReply | UnansweredReply;

/** A pending question as a Result shows it: without its digest, signature and held calls. */
export function publicQuestion(question: PendingQuestion): PendingQuestion {
  const { toolCallId, toolName, questions, requestedAt } = question;
  return { toolCallId, toolName, questions, requestedAt };
}

/** A pending question as stored, without its seal: its public fields and the calls it holds back. */
export function heldQuestion(question: HeldQuestion): HeldQuestion {
  const held: HeldQuestion = publicQuestion(question);
  if (question.holds !== undefined) held.holds = [...question.holds];
  return held;
}

/** Whether a pending entry of a paused turn is a question (else it is an approval). */
export function isHeldQuestion(pending: object): pending is HeldQuestion {
  return "questions" in pending;
}

/**
 * Whether an entry given to `resume` answers a question (it has `answers` or `unanswered`) rather
 * than deciding an approval.
 */
export function isReplyEntry(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (Object.hasOwn(value, "answers") || Object.hasOwn(value, "unanswered"))
  );
}
