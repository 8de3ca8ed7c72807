/**
 * What the session list shows of a session: a summary small enough for KV metadata (1,024 bytes),
 * kept beside the session's rows and copied to KV with its other records.
 *
 * @module
 */

import type { Message, SessionStateTail, Usage } from "wisp-agent";

/** What a summary is made from: a tail, with or without its metadata. */
type TailOf = Omit<SessionStateTail, "metadata">;

/** A session as `GET /api/sessions` lists it. */
export interface SessionSummary {
  sessionId: string;
  /** The first prompt, whitespace collapsed, at most {@link TITLE_CHARS} characters; "" while empty. */
  title: string;
  /** `paused` while tool calls wait for approval; `closed` when the stored state cannot be continued. */
  status: "idle" | "running" | "paused" | "closed";
  messageCount: number;
  usage: { input: number; output: number; costUsd?: number };
  createdAt: number;
  updatedAt: number;
}

/** The longest title. */
const TITLE_CHARS = 80;

/** The title a message gives a session: its text, whitespace collapsed and cut to {@link TITLE_CHARS}. */
function titleOf(message: Message | undefined): string {
  if (message?.role !== "user") return "";
  const text = message.content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join(" ")
    .slice(0, TITLE_CHARS * 4)
    .replace(/\s+/g, " ")
    .trim();
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}

/** The usage a summary shows. */
function shownUsage(usage: Usage): SessionSummary["usage"] {
  const shown: SessionSummary["usage"] = { input: usage.input, output: usage.output };
  if (usage.costUsd !== undefined) shown.costUsd = Math.round(usage.costUsd * 1e6) / 1e6;
  return shown;
}

/**
 * The summary after a save of `tail`: the title stays once set (from the first message, which a tail
 * from 0 holds), the rest follows the tail.
 */
export function summaryOf(
  sessionId: string,
  tail: TailOf,
  previous: SessionSummary | undefined,
  status: SessionSummary["status"],
): SessionSummary {
  const title = previous?.title || (tail.messagesFrom === 0 ? titleOf(tail.messages[0]) : "");
  return {
    sessionId,
    title,
    status:
      status === "idle" && tail.pendingApprovals.length + (tail.pendingQuestions?.length ?? 0) > 0
        ? "paused"
        : status,
    messageCount: tail.messageCount,
    usage: shownUsage(tail.usage),
    createdAt: tail.createdAt,
    updatedAt: tail.updatedAt,
  };
}
