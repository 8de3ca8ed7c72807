/**
 * `Result`: how Wisp's run calls report their outcome without throwing. A failure still carries what
 * was done before it (`partial`), so an aborted or failed run never loses its messages or usage.
 *
 * @module
 */

/** A successful outcome. */
export interface Ok<T> {
  /** Always `true`: the outcome succeeded. */
  ok: true;
  /** What was produced. */
  value: T;
}

/** A failed outcome: the error, and everything the run produced before it failed. */
export interface Err<T, E> {
  /** Always `false`: the outcome failed. */
  ok: false;
  /** What went wrong. */
  error: E;
  /** Everything produced before the failure (for a run: its messages, tool calls and usage so far). */
  partial: T;
}

/**
 * Success with a value, or failure with an error and the partial value. Check `ok` first. The partial
 * value's type `P` is the value's own by default (a failed run's partial is an AgentResult too).
 */
export type Result<T, E, P = T> = Ok<T> | Err<P, E>;
