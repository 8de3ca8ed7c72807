/**
 * Thinking settings in the form each Claude model takes. Models before 4.6 take a fixed budget
 * (`thinking: {type: "enabled", budget_tokens}`); 4.6 and later take adaptive thinking with an effort
 * level (`thinking: {type: "adaptive"}` + `output_config.effort`), and reject a manual budget on the
 * 5 family; Fable and Mythos think always and reject `disabled` too.
 *
 * @module
 */

import type { JsonObject, ThinkingLevel } from "../../types.ts";

/** How a model takes its thinking settings. */
type AnthropicThinkingStyle = "budget" | "adaptive" | "adaptive-only";

/** Budget tokens per level (budget style), and the headroom added to `max_tokens` in every style. */
const ANTHROPIC_THINKING_BUDGETS: Record<Exclude<ThinkingLevel, "off">, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_240,
  high: 24_576,
};

/** `output_config.effort` per level (adaptive style). */
const ANTHROPIC_EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
};

const VERSIONED = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-|$)/;

/** The thinking style of a model id; unknown ids (compatible servers, old models) get `budget`. */
function anthropicThinkingStyle(model: string): AnthropicThinkingStyle {
  if (/^claude-(?:fable|mythos)/.test(model)) return "adaptive-only";
  const match = VERSIONED.exec(model);
  if (match === null) return "budget";
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 6) ? "adaptive" : "budget";
}

/** The body fields for `level` on `model`, and the tokens they add to `max_tokens`. */
export function anthropicThinking(
  level: ThinkingLevel | undefined,
  model: string,
): { fields: JsonObject; extraTokens: number } {
  if (level === undefined) return { fields: {}, extraTokens: 0 };
  const style = anthropicThinkingStyle(model);
  if (level === "off") {
    // Budget-style models do not think unless asked; adaptive-only ones cannot be turned off.
    return { fields: style === "adaptive" ? { thinking: { type: "disabled" } } : {}, extraTokens: 0 };
  }
  const budget = ANTHROPIC_THINKING_BUDGETS[level];
  if (style === "budget") {
    return { fields: { thinking: { type: "enabled", budget_tokens: budget } }, extraTokens: budget };
  }
  return {
    fields: { thinking: { type: "adaptive" }, output_config: { effort: ANTHROPIC_EFFORT[level] } },
    extraTokens: budget,
  };
}
