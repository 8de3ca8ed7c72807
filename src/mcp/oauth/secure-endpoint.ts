/**
 * Where OAuth may send codes, secrets and its client's identity: https, or http on this machine.
 *
 * @module
 */

/** Whether `endpoint` is an https URL, or an http one on loopback (localhost, 127.x.x.x, [::1]). */
export function isSecureEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol === "https:") return true;
  const host = url.hostname;
  return (
    url.protocol === "http:" && (host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host))
  );
}
