/**
 * Reads a SessionState from untrusted JSON: migrates older versions, validates with the schema, and
 * checks that the conversation can be sent. Every problem is a ConfigError `CONFIG_INVALID` whose
 * `path` names the first bad field — never a crash later in the loop.
 *
 * @module
 */

import { ConfigError } from "../errors/sdk-error.ts";
import { SESSION_STATE_VERSION, type SessionState } from "./session-state.ts";
import { sessionStateSchema } from "./state-schema.ts";
import { unpairedToolCall } from "./tool-call-pairs.ts";

type Migration = (state: Record<string, unknown>) => Record<string, unknown>;

/**
 * Steps from each older version to the next. Version 0 was the pre-release format: one
 * `"provider/model"` string, no parameters, turn count, queue or metadata.
 */
export const MIGRATIONS: Record<number, Migration> = {
  0: (state) => {
    const [provider, ...rest] = String(state.model ?? "").split("/");
    const { model: _, ...others } = state;
    return {
      ...others,
      version: 1,
      provider,
      model: rest.join("/"),
      parameters: {},
      turns: 0,
      queue: [],
      metadata: {},
    };
  },
};

function invalid(message: string, path: string): ConfigError {
  return new ConfigError(`Invalid session state at ${path || "(root)"}: ${message}`, {
    code: "CONFIG_INVALID",
    path,
  });
}

function migrate(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("expected an object", "");
  }
  let state = value as Record<string, unknown>;
  if (typeof state.version !== "number" || !Number.isInteger(state.version)) {
    throw invalid("expected an integer version", "version");
  }
  if (state.version > SESSION_STATE_VERSION) {
    throw invalid(
      `version ${state.version} was written by a newer Wisp (this one reads up to ${SESSION_STATE_VERSION})`,
      "version",
    );
  }
  while ((state.version as number) < SESSION_STATE_VERSION) {
    const step = MIGRATIONS[state.version as number];
    if (step === undefined) throw invalid(`version ${state.version} cannot be migrated`, "version");
    state = step(state);
  }
  return state;
}

/** Parses and checks a SessionState. Throws ConfigError(CONFIG_INVALID) naming the first problem. */
export function parseSessionState(value: unknown): SessionState {
  const migrated = migrate(value);
  const parsed = sessionStateSchema.safeParse(migrated);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(issue?.message ?? "invalid", (issue?.path ?? []).map(String).join("."));
  }
  const state = parsed.data as unknown as SessionState;
  const unpaired = unpairedToolCall(state.messages);
  if (unpaired !== undefined) throw invalid(unpaired.problem, unpaired.path);
  return state;
}
