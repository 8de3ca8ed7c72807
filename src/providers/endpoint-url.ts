/**
 * Endpoint URLs from a caller's `baseURL`: the path is appended to the base's path (trailing slashes
 * ignored), and a query the base carries (Azure's `api-version=…`, a gateway's key) is kept.
 *
 * @module
 */

/** `baseURL` + `path`, with the base's query kept and `query` added. */
export function endpointUrl(baseURL: string, path: string, query: Record<string, string> = {}): string {
  const [base = "", search = ""] = baseURL.split("?", 2) as [string, string?];
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(query)) params.set(name, value);
  const text = params.toString();
  return `${base.replace(/\/+$/, "")}${path}${text === "" ? "" : `?${text}`}`;
}
