/**
 * The bridge's wire protocol: the messages a main thread and a worker send each other over a port.
 * Every message is plain, structured-clone-safe data tagged `wisp: "bridge"` (so other traffic on
 * the same port is left alone) and carries the protocol version; a peer speaking another version is
 * refused with a typed error on both sides.
 *
 * @module
 */

import type { ApprovalDecision } from "../agent/approvals.ts";
import type { ImagePart, UserContentPart } from "../types.ts";

/** The version of the bridge protocol this build speaks. */
export const BRIDGE_PROTOCOL_VERSION = 1;

/** The tag every bridge message carries. */
export const BRIDGE_TAG = "bridge";

/** The options of a run that cross the port: plain data only (a signal stays on its own side). */
export interface RunRequestOptions {
  mode?: "steer" | "followUp";
  attachments?: ImagePart[];
  id?: string;
}

/** What the main thread sends. */
export type MainMessage =
  | { t: "hello"; decides: string[]; timeouts: Record<string, number>; restore?: unknown }
  | {
      t: "run";
      id: string;
      op: "chat" | "resume";
      input?: string | UserContentPart[];
      decisions?: ApprovalDecision[];
      options: RunRequestOptions;
      /** How many events the worker may send before it waits for credit; 0: no limit. */
      window: number;
      /** Send only the `run-end` event (nobody reads the others). */
      quiet: boolean;
    }
  | { t: "credit"; id: string; n: number }
  | { t: "abort"; id?: string; reason?: string }
  | { t: "call"; id: string; method: "export" | "snapshot" | "drainQueue" }
  | { t: "decision"; requestId: string; answer?: unknown; failed?: string }
  | { t: "close"; id: string }
  | { t: "ping" };

/** What the worker sends. */
export type WorkerMessage =
  | { t: "listening" }
  | { t: "ready"; sessionId: string }
  | { t: "refused"; error: unknown }
  | { t: "event"; id: string; event: unknown }
  | { t: "reply"; id: string; value?: unknown; error?: unknown }
  | {
      t: "decide";
      requestId: string;
      kind: string;
      expectsDecision: boolean;
      canBlock: boolean;
      timeoutMs: number;
      payload: unknown;
    }
  | { t: "report"; code: string; message: string; requestId?: string }
  | { t: "closed" }
  | { t: "pong" };

/** A message as it travels: the tag and version around one of the above. */
export type Envelope<M> = M & { wisp: typeof BRIDGE_TAG; v: number };

/** Wraps a message for the port. */
export function envelope<M extends object>(message: M): Envelope<M> {
  return { ...message, wisp: BRIDGE_TAG, v: BRIDGE_PROTOCOL_VERSION };
}

/** The message when `data` is a bridge message (of any version), else undefined: other traffic. */
export function bridgeMessage<M>(data: unknown): Envelope<M> | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const candidate = data as { wisp?: unknown; v?: unknown; t?: unknown };
  if (candidate.wisp !== BRIDGE_TAG || typeof candidate.t !== "string") return undefined;
  return data as Envelope<M>;
}
