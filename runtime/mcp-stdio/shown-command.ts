/**
 * A command line fit for errors and records: the command and its arguments, with the values of
 * arguments that carry credentials (`--token x`, `--api-key=x`, `API_KEY=x`) and anything shaped like
 * a provider key replaced; an argument past 120 characters (a script given inline) is cut. Environment
 * variables are never shown.
 *
 * @module
 */

import { redactText } from "../../src/errors/redact.ts";

const SECRET_NAME = /key|token|secret|password|passwd|credential|auth/i;
const REDACTED = "[redacted]";

/** The most characters of one argument shown (a script given inline is cut there). */
const MAX_ARGUMENT_CHARS = 120;

/** An argument, quoted when it holds spaces or quotes, so the line reads back as it was given. */
function quoted(argument: string): string {
  const shown = argument.length > MAX_ARGUMENT_CHARS ? `${argument.slice(0, MAX_ARGUMENT_CHARS)}…` : argument;
  return /^[\w@%+=:,./-]+$/.test(shown) ? shown : JSON.stringify(shown);
}

/** `command args…` as one line, without secrets. */
export function shownCommand(command: string, args: readonly string[]): string {
  const shown: string[] = [];
  let secretNext = false;
  for (const argument of args) {
    const assignment = /^(-{0,2}[^=\s]+)=/.exec(argument);
    if (secretNext) shown.push(REDACTED);
    else if (assignment?.[1] !== undefined && SECRET_NAME.test(assignment[1]))
      shown.push(`${assignment[1]}=${REDACTED}`);
    else shown.push(quoted(argument));
    secretNext = /^--?[\w-]+$/.test(argument) && SECRET_NAME.test(argument);
  }
  return redactText([quoted(command), ...shown].join(" "), []);
}
