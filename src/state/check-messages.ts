/**
 * Checks a conversation given from outside (`runAgent`'s `messages`) the way a restore would: its
 * nesting depth, the shape of every message (the zod/mini state schema), and every tool call
 * answered. It sits below the agent layer, which loads it only when `messages` are passed, so a
 * program that never passes them never downloads the schema.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../stream/storable-values.ts";
import type { Message } from "../types.ts";
import { describeIssue, type SchemaIssue } from "./describe-issue.ts";
import { messagesSchema } from "./state-schema.ts";
import { unpairedToolCall } from "./tool-call-pairs.ts";

/** How deep a state may nest: messages → content → tool arguments, with room to spare. */
export const MAX_STATE_DEPTH = MAX_JSON_DEPTH + 28;

/** A ConfigError about a state (or conversation) at `path`. */
export function invalidState(message: string, path: string): ConfigError {
  return new ConfigError(`Invalid session state at ${path || "(root)"}: ${message}`, {
    code: "CONFIG_INVALID",
    path,
  });
}

/** The first schema issue in `root` as a ConfigError in plain words, its path under `prefix`. */
export function firstIssue(issues: ReadonlyArray<SchemaIssue>, root: unknown, prefix: string[]): ConfigError {
  const issue = issues[0];
  const message = issue === undefined ? "invalid" : describeIssue(issue, root);
  return invalidState(message, [...prefix, ...(issue?.path ?? []).map(String)].join("."));
}

/** The first problem with `messages` as a ConfigError naming its path, or undefined. */
export function checkMessages(messages: unknown): ConfigError | undefined {
  if (nestsDeeperThan(messages, MAX_STATE_DEPTH - 1)) {
    return invalidState(`nested deeper than ${MAX_STATE_DEPTH} levels`, "messages");
  }
  const parsed = messagesSchema.safeParse(messages);
  if (!parsed.success) return firstIssue(parsed.error.issues as SchemaIssue[], messages, ["messages"]);
  const unpaired = unpairedToolCall(parsed.data as unknown as Message[]);
  return unpaired === undefined ? undefined : invalidState(unpaired.problem, unpaired.path);
}
