/**
 * The hidden tool a structured answer is given through where an API cannot combine its JSON mode with
 * tools (Gemini before 3): the model is made to call a tool, and calls this one with its answer.
 *
 * @module
 */

/** The answer tool's name; a call of it carries the structured answer as its arguments. */
export const ANSWER_TOOL = "final_answer";
