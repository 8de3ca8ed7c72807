/**
 * Values the error tests throw: an error with a runtime's `code`, a chain of wrapper errors, a
 * revoked Proxy (which throws on any look at it).
 */

/** An Error with `message` and the runtime's `code` (`ECONNRESET`, …), named `name`. */
export function withCode(message: string, code: string, name = "Error"): Error {
  return Object.assign(new Error(message), { code, name });
}

/** `innermost` under `depth` wrapper errors, "wrapper 1" outermost. */
export function wrapped(depth: number, innermost: unknown): Error {
  let error: unknown = innermost;
  for (let level = depth; level > 0; level--) error = new Error(`wrapper ${level}`, { cause: error });
  return error as Error;
}

/** A Proxy already revoked. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
