/**
 * The code a run needs only once it has a tool call to run, a hook to call or an approval to seal.
 * Loaded on first need through {@link loadToolMachinery} (a run whose config has tools or hooks starts
 * loading it at once), so a program whose runs have none never downloads it.
 *
 * @module
 */

export { sealApproval } from "./approval-digest.ts";
export { answerDecisions } from "./resume-run.ts";
export { runHooks } from "./run-hooks.ts";
export { runToolCalls } from "./run-tool-calls.ts";
