/**
 * Reads a `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1): the
 * `resource_metadata` URL, the `scope` the server asks for, and the `error`.
 *
 * @module
 */

/** What a Bearer challenge says. */
export interface BearerChallenge {
  /** Where the protected resource metadata is (RFC 9728), when given. */
  resourceMetadata?: string;
  /** The scope the request needs, space-separated, when given. */
  scope?: string;
  /** `invalid_token`, `insufficient_scope`, … when given. */
  error?: string;
}

const PARAMETER = /([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;

/** The parameters of the Bearer challenge in `header` (an empty object for none or another scheme). */
export function readBearerChallenge(header: string | null): BearerChallenge {
  if (header === null) return {};
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return {};
  const challenge: BearerChallenge = {};
  // From the Bearer scheme on; its own name is no parameter (a name needs "=" after it).
  for (const match of header.slice(start).matchAll(PARAMETER)) {
    const name = (match[1] ?? "").toLowerCase();
    const value = match[2] === undefined ? (match[3] ?? "") : match[2].replace(/\\(.)/g, "$1");
    if (name === "resource_metadata" && challenge.resourceMetadata === undefined)
      challenge.resourceMetadata = value;
    else if (name === "scope" && challenge.scope === undefined) challenge.scope = value;
    else if (name === "error" && challenge.error === undefined) challenge.error = value;
  }
  return challenge;
}
