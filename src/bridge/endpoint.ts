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
  /** Sends a structured-clone-safe message to the other side. */
  postMessage(message: unknown): void;
  /**
   * Web-style listening: the listener gets a `MessageEvent` (`message`, `messageerror`, `error`, `close`).
   */
  addEventListener?(type: string, listener: (event: unknown) => void): void;
  /** Web-style: stops a listener added with `addEventListener`. */
  removeEventListener?(type: string, listener: (event: unknown) => void): void;
  /**
   * Node-style listening (`worker_threads`): the listener gets the message's data itself; also `exit` and
   * `error`.
   */
  on?(type: string, listener: (...args: unknown[]) => void): unknown;
  /** Node-style: stops a listener added with `on`. */
  off?(type: string, listener: (...args: unknown[]) => void): unknown;
  /** Node-style: stops a listener added with `on`, where there is no `off`. */
  removeListener?(type: string, listener: (...args: unknown[]) => void): unknown;
  /** A `MessagePort` queues messages until started; listening starts it. */
  start?(): void;
}

/** The callbacks a listening side gets: each message's data, and the other side going away. */
export interface PortListeners {
  message(data: unknown): void;
  /** The port closed or the worker exited (where the runtime says so). */
  gone(why: string): void;
  /**
   * The other side reported an error (a worker's uncaught exception, a message that could not be
   * read). Listening for it also keeps Node from throwing a worker's `error` event in this thread.
   */
  error?(why: string): void;
}

/** The words of an error event or value. */
function errorText(value: unknown): string {
  const error = (value as { error?: unknown; message?: unknown } | null)?.error ?? value;
  return error instanceof Error ? error.message : String((value as { message?: unknown })?.message ?? value);
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
  const onError = (value: unknown) => listeners.error?.(errorText(value));
  const onMessageError = () => listeners.error?.("a message could not be deserialized");
  if (typeof port.on === "function") {
    const onMessage = (data: unknown) => listeners.message(data);
    port.on("message", onMessage);
    port.on("close", onClose);
    port.on("exit", onExit);
    port.on("error", onError);
    port.on("messageerror", onMessageError);
    return () => {
      off(port, "message", onMessage);
      off(port, "close", onClose);
      off(port, "exit", onExit);
      off(port, "error", onError);
      off(port, "messageerror", onMessageError);
    };
  }
  const onMessage = (event: unknown) => listeners.message((event as { data?: unknown }).data);
  port.addEventListener?.("message", onMessage);
  port.addEventListener?.("close", onClose);
  port.addEventListener?.("error", onError);
  port.addEventListener?.("messageerror", onMessageError);
  port.start?.();
  return () => {
    port.removeEventListener?.("message", onMessage);
    port.removeEventListener?.("close", onClose);
    port.removeEventListener?.("error", onError);
    port.removeEventListener?.("messageerror", onMessageError);
  };
}

function off(port: BridgePort, type: string, listener: (...args: never[]) => void): void {
  const remove = port.off ?? port.removeListener;
  remove?.call(port, type, listener as (...args: unknown[]) => void);
}
