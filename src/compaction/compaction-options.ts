/**
 * The `compaction` option and its table: what each setting does, its default and its check. Loaded
 * with the run's other options (the compactor itself is loaded only by runs that compact).
 *
 * @module
 */

import { invalidOption, notCountOption } from "../config/option-checks.ts";
import { nestedTable, type OptionTable } from "../config/option-table.ts";
import { showValue } from "../config/show-value.ts";
import type { ConfigError } from "../errors/sdk-error.ts";

/** The `compaction` option: `true` for the defaults. */
export interface CompactionOptions {
  /** Compact when the next request would pass this many tokens. */
  maxTokens?: number;
  /** Or this fraction of the model's context window, for models whose window is known (default 0.8). */
  fraction?: number;
  /** Assistant turns sent as they are after the summary (default 2). */
  keepTurns?: number;
  /** What the summary must keep, in place of Wisp's instructions (and the provider's, with `native`). */
  instructions?: string;
  /**
   * Use the provider's own compaction where it has one — Anthropic (`compact_20260112`, on the models
   * that support it; a threshold of at least 50,000 tokens) and OpenAI Responses — and Wisp's summary
   * elsewhere. The provider's summary is opaque to Wisp: it is kept as a provider part and goes back
   * only to that provider; a session that moves to another API sends the messages in full.
   */
  native?: boolean;
}

/** The settings of `compaction`, in the order they are checked. */
export const COMPACTION_OPTIONS: OptionTable<CompactionOptions> = {
  maxTokens: notCountOption,
  fraction: (value, path) =>
    typeof value === "number" && value > 0 && value <= 1
      ? undefined
      : invalidOption(`${path} must be a number above 0 and at most 1, got ${showValue(value)}`, path),
  keepTurns: notCountOption,
  instructions: (value, path) =>
    typeof value === "string" && value.trim() !== ""
      ? undefined
      : invalidOption(`${path} must be a non-empty string`, path),
  native: null,
};

const compactionSettings = nestedTable(COMPACTION_OPTIONS);

/** What is wrong with a `compaction` option (`true`, or its settings), or undefined. */
export function compactionProblem(value: unknown, path: string): ConfigError | undefined {
  return value === true ? undefined : compactionSettings(value, path);
}
