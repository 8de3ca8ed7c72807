/**
 * One shape for everything that posts and receives messages: a `MessagePort`, a Web `Worker`, `self`
 * inside one, Node's `worker_threads` `Worker` and `parentPort`, Deno and Bun workers. Web-style
 * ports deliver a `MessageEvent` to `addEventListener`; Node's `Worker` is an EventEmitter that hands
 * the data itself to `on`. Both are covered here, with the signs that the other side is gone: Node's
 * `exit` and a port's `close`.
 *
 * @module
 */

/** Anything that posts and receives messages (see the module's list). */
export interface BridgePort {
  postMessage(message: unknown): void;
  addEventListener?(type: string, listener: (event: unknown) => void): void;
  removeEventListener?(type: string, listener: (event: unknown) => void): void;
  on?(type: string, listener: (...args: unknown[]) => void): unknown;
  off?(type: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(type: string, listener: (...args: unknown[]) => void): unknown;
  /** A `MessagePort` queues messages until started; listening starts it. */
  start?(): void;
}

/** The callbacks a listening side gets: each message's data, and the other side going away. */
export interface PortListeners {
  message(data: unknown): void;
  /** The port closed or the worker exited (where the runtime says so). */
  gone(why: string): void;
}

/** Whether `value` can be used as a port. */
export function isBridgePort(value: unknown): value is BridgePort {
  if (typeof value !== "object" && typeof value !== "function") return false;
  const port = value as BridgePort | null;
  return (
    port !== null &&
    typeof port.postMessage === "function" &&
    (typeof port.addEventListener === "function" || typeof port.on === "function")
  );
}

/**
 * Starts listening on `port`; returns the function that stops. Node-style emitters (`on`, which hands
 * over the data and keeps a Node worker alive while it listens) are preferred where both exist.
 */
export function listen(port: BridgePort, listeners: PortListeners): () => void {
  const onClose = () => listeners.gone("the port was closed");
  const onExit = (code: unknown) => listeners.gone(`the worker exited (code ${String(code)})`);
  if (typeof port.on === "function") {
    const onMessage = (data: unknown) => listeners.message(data);
    port.on("message", onMessage);
    port.on("close", onClose);
    port.on("exit", onExit);
    return () => {
      off(port, "message", onMessage);
      off(port, "close", onClose);
      off(port, "exit", onExit);
    };
  }
  const onMessage = (event: unknown) => listeners.message((event as { data?: unknown }).data);
  port.addEventListener?.("message", onMessage);
  port.addEventListener?.("close", onClose);
  port.start?.();
  return () => {
    port.removeEventListener?.("message", onMessage);
    port.removeEventListener?.("close", onClose);
  };
}

function off(port: BridgePort, type: string, listener: (...args: never[]) => void): void {
  const remove = port.off ?? port.removeListener;
  remove?.call(port, type, listener as (...args: unknown[]) => void);
}
