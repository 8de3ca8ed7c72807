/**
 * The bridge's wire protocol: the messages a main thread and a worker send each other over a port.
 * Every message is plain, structured-clone-safe data tagged `wisp: "bridge"` (so other traffic on
 * the same port is left alone) and carries the protocol version; a peer speaking another version is
 * refused with a typed error on both sides.
 *
 * @module
 */

import type { ApprovalDecision } from "../agent/approvals.ts";
import type { QuestionReply } from "../agent/questions.ts";
import type { ImagePart, UserContentPart } from "../types.ts";

/** The version of the bridge protocol this build speaks. */
export const BRIDGE_PROTOCOL_VERSION = 2;

/** The tag every bridge message carries. */
const BRIDGE_TAG = "bridge";

/** The options of a run that cross the port: plain data only (a signal stays on its own side). */
export interface RunRequestOptions {
  mode?: "steer" | "followUp";
  attachments?: ImagePart[];
  id?: string;
  /** A fork's parent message (`ChatOptions.parentId`). */
  parentId?: string | null;
}

/** What the main thread sends (each with its connection's `key`, see {@link Address}). */
export type MainMessage =
  | {
      t: "hello";
      /** The connection's public id: the worker's messages for this connection go `to` it. */
      conn: string;
      decides: string[];
      timeouts: Record<string, number>;
      restore?: unknown;
    }
  | {
      t: "run";
      id: string;
      op: "chat" | "resume";
      input?: string | UserContentPart[];
      decisions?: (ApprovalDecision | QuestionReply)[];
      options: RunRequestOptions;
      /** How many events the worker may send before it waits for credit; 0: no limit. */
      window: number;
      /** Send only the `run-end` event (nobody reads the others). */
      quiet: boolean;
      /** The W3C `traceparent` of the run's parent span on the main thread (its `traceParent` option). */
      traceparent?: string;
    }
  | { t: "credit"; id: string; n: number }
  | { t: "abort"; id?: string; reason?: string }
  | {
      t: "call";
      id: string;
      method:
        | "export"
        | "snapshot"
        | "drainQueue"
        | "permissions"
        | "setPermissions"
        | "branches"
        | "switchBranch";
      /** The method's one argument, when it takes one (`setPermissions`: the policy). */
      argument?: unknown;
    }
  | { t: "decision"; requestId: string; answer?: unknown; failed?: string }
  | { t: "close"; id: string }
  | { t: "ping" }
  /**
   * Starts (`on: true`) or stops this connection's hook feed (see hook-feed.ts). A worker that does not
   * know it ignores it, as each side ignores a message type it does not know: the feed is simply empty.
   */
  | { t: "observe"; on: boolean };

/** What the worker sends (`to` one connection, or to every one, see {@link Address}). */
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
  | { t: "pong" }
  /** One item of the hook feed, sent only `to` connections that asked for it with `observe`. */
  | { t: "feed"; id: string; kind: string; payload: unknown };

/**
 * Who a message is from or for. Several `connectSession` calls may share one port, and so one
 * session, and every listener on the main side's port hears every message the worker sends; run and
 * call ids are only unique within one connection. (Version 1 had no address: two connections'
 * `run-1`s were one run to the worker.) So each connection makes two random ids, and its runs and
 * calls live in its own id space in the worker:
 *
 * - `key`, sent with every message it posts to the worker. Nothing the main side posts reaches the
 *   other listeners on its port, so the key stays secret: no other connection can abort, credit or
 *   answer for this one, whatever ids it sends.
 * - `conn`, its public id, sent once in its hello. The worker sends this connection's messages (its
 *   ready, its runs' events, its replies, the questions it is asked) `to` that id, and each connection
 *   takes only those addressed to it or to everyone (no `to`: `listening`, `closed`, `pong`, reports).
 *
 * A hello whose `conn` another key has taken is ignored: no one can have another's messages sent
 * to it.
 */
export interface Address {
  /** Main → worker: the sending connection's secret. */
  key?: string;
  /** Worker → main: the public id of the connection the message is for; absent: for every one. */
  to?: string;
}

/** A message as it travels: the tag and version around one of the above, and its address. */
export type Envelope<M> = M & Address & { wisp: typeof BRIDGE_TAG; v: number };

/** Wraps a message for the port. */
export function envelope<M extends object>(message: M, address: Address = {}): Envelope<M> {
  return { ...message, ...address, wisp: BRIDGE_TAG, v: BRIDGE_PROTOCOL_VERSION };
}

/** The message when `data` is a bridge message (of any version), else undefined: other traffic. */
export function bridgeMessage<M>(data: unknown): Envelope<M> | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const candidate = data as { wisp?: unknown; v?: unknown; t?: unknown };
  if (candidate.wisp !== BRIDGE_TAG || typeof candidate.t !== "string") return undefined;
  return data as Envelope<M>;
}
