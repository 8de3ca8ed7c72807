/**
 * The hidden tool a structured answer is given through where an API cannot combine its JSON mode with
 * tools (Gemini before 3): the model is made to call a tool, and calls this one with its answer.
 *
 * @module
 */

/** The answer tool's name; a call of it carries the structured answer as its arguments. */
export const ANSWER_TOOL = "final_answer";

/**
 * Whether a request to `model` on `provider`, with tools, gives its structured answer through the
 * hidden tool: Gemini before 3 cannot combine its JSON mode with function calling. (A schema that is
 * no object cannot be a tool's parameters; it is asked for in the system instruction instead.)
 */
export function usesAnswerTool(
  provider: string,
  model: string,
  hasTools: boolean,
  schema: { type?: unknown },
): boolean {
  return (
    provider === "google" && !/^(models\/)?gemini-[3-9]/.test(model) && hasTools && schema.type === "object"
  );
}
