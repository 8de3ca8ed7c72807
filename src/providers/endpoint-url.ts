/**
 * Endpoint URLs from a caller's `baseURL`, by one rule for every provider:
 *
 * - trailing slashes on the base are ignored (`…/v1/` is `…/v1`);
 * - a query the base carries (Azure's `api-version=…`, a gateway's parameters) is kept;
 * - a base that already ends with the endpoint's path (a full endpoint URL pasted as `baseURL`) is
 *   used as it is, not extended again;
 * - where the provider's official SDK takes the base without its API version (Anthropic, Gemini), the
 *   version is added unless the base's last path segment already is one (`v1`, `v1beta`, `v1alpha`).
 *
 * @module
 */

/** A last path segment that names an API version: `/v1`, `/v2`, `/v1beta`, `/v1alpha`, `/v1beta2`. */
const VERSION_SEGMENT = /\/v\d+(?:alpha|beta)?\d*$/i;

/** How {@link endpointUrl} extends a base. */
export interface EndpointOptions {
  /** Query parameters to add (they replace the base's parameters of the same name). */
  query?: Record<string, string>;
  /** The API version segment (`/v1`) to insert when the base does not end in a version segment. */
  version?: string;
}

/** `baseURL` + (`version`) + `path`, with the base's query kept and `options.query` added. */
export function endpointUrl(baseURL: string, path: string, options: EndpointOptions = {}): string {
  const [base = "", search = ""] = baseURL.split("?", 2) as [string, string?];
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(options.query ?? {})) params.set(name, value);
  const text = params.toString();
  let url = base.replace(/\/+$/, "");
  if (!url.endsWith(path)) {
    if (options.version !== undefined && !VERSION_SEGMENT.test(url)) url += options.version;
    url += path;
  }
  return `${url}${text === "" ? "" : `?${text}`}`;
}
