/**
 * A URL fit for an error message or a log: no user name or password, the values of query parameters
 * that carry credentials (`key=`, `api_key=`, `token=`, `sig=`, …) replaced, and anything shaped like
 * a provider key (in the path of a gateway URL, in another parameter) replaced too.
 *
 * @module
 */

import { redactText } from "../errors/redact.ts";

const SECRET_PARAMETER = /key|token|secret|sig|auth|password|credential|session/i;

/** `url` with its secrets taken out; text that is not a URL comes back with its query dropped. */
export function safeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Stryker disable next-line ArrayDeclaration: equivalent: no extra secrets to take out (an invented one is not in the URL)
    return redactText(url.replace(/\?[\s\S]*/, ""), []);
  }
  parsed.username = "";
  parsed.password = "";
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, "[redacted]");
  }
  // Stryker disable next-line ArrayDeclaration: equivalent: no extra secrets to take out (an invented one is not in the URL)
  return redactText(parsed.toString().replaceAll("%5Bredacted%5D", "[redacted]"), []);
}
