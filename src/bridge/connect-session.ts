/**
 * The main-thread side of the bridge: `connectSession(port, options)` greets the worker (a versioned
 * handshake), then gives an object with the session's shape whose runs happen in the worker. The
 * worker's questions come to `onDecision`; errors come back as real SdkErrors. If the worker goes
 * away — it exits, the port closes, or it stops answering while something waits on it — every call
 * that waits ends with a RequestError `BRIDGE_CLOSED`: nothing hangs.
 *
 * This file holds `connectSession` itself; the session it gives is `session-client.ts`, the port's
 * end `bridge-connection.ts`, and the options' and session's types `remote-session.ts`.
 *
 * @module
 */

import type { Result } from "../agent/result.ts";
import { err } from "../agent/result-helpers.ts";
import { type AnySdkError, ConfigError } from "../errors/sdk-error.ts";
import { checkConnectOptions } from "./bridge-options.ts";
import { type BridgePort, isBridgePort } from "./endpoint.ts";
import type { ConnectSessionOptions, RemoteSession } from "./remote-session.ts";
import { Client } from "./session-client.ts";

export type { ConnectSessionOptions, RemoteSession } from "./remote-session.ts";

/**
 * Connects to a session served by {@link serveSession} on the other side of `port` (a `Worker`, a
 * `MessagePort`, Node's `worker_threads` `Worker`, …). Resolves once the worker's session is ready.
 * Never rejects: bad options, the worker's ConfigError if it could not create the session, a
 * ConfigError `BRIDGE_VERSION` if the two sides speak different protocol versions, or a RequestError
 * `BRIDGE_CLOSED` if nobody answers, resolve to a failed Result.
 *
 * @example
 * ```ts no-run
 * import { connectSession } from "wisp-agent/bridge";
 * const connected = await connectSession(new Worker("./agent-worker.js", { type: "module" }), {
 *   onDecision: { approval: ({ approval }) => ({ approved: confirm(`Run ${approval.toolName}?`) }) },
 * });
 * if (!connected.ok) throw connected.error;
 * for await (const event of connected.value.stream("Tidy my notes")) if (event.type === "text-delta") show(event.delta);
 * ```
 */
export async function connectSession(
  port: BridgePort,
  options: ConnectSessionOptions = {},
): Promise<Result<RemoteSession, AnySdkError, undefined>> {
  const problem = checkConnectOptions(options);
  if (problem !== undefined) return err(problem);
  if (!isBridgePort(port))
    return err(
      new ConfigError("connectSession needs a port: something with postMessage and addEventListener or on", {
        code: "CONFIG_INVALID",
        path: "port",
      }),
    );
  return new Client(port, options).connect();
}
