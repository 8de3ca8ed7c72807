/**
 * The JSON-RPC 2.0 messages MCP exchanges, and a reader that sorts what a server sent into responses,
 * notifications and requests. A batch (an array, allowed by the 2025-03-26 revision) is read as its
 * messages in order.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";

/** A request id: what a response names to say which request it answers. */
export type RequestId = string | number;

/** A JSON-RPC error object, as a server sends it. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

/** A message from the server, sorted by kind. */
export type IncomingMessage =
  | { kind: "response"; id: RequestId; result: JsonObject }
  | { kind: "error"; id: RequestId | null; error: RpcErrorObject }
  | { kind: "notification"; method: string; params: JsonObject }
  | { kind: "request"; id: RequestId; method: string; params: JsonObject };

/** JSON-RPC's own error codes (and MCP's use of them). */
export const RPC_METHOD_NOT_FOUND = -32601;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is RequestId => typeof value === "string" || typeof value === "number";

function sortOne(value: unknown): IncomingMessage | undefined {
  if (!isObject(value) || value.jsonrpc !== "2.0") return undefined;
  const params = isObject(value.params) ? value.params : {};
  if (typeof value.method === "string") {
    return isId(value.id)
      ? { kind: "request", id: value.id, method: value.method, params }
      : { kind: "notification", method: value.method, params };
  }
  if (isObject(value.error)) {
    const { code, message, data } = value.error;
    const error: RpcErrorObject = {
      code: typeof code === "number" ? code : 0,
      message: typeof message === "string" ? message : "(no message)",
    };
    if (data !== undefined) error.data = data;
    return { kind: "error", id: isId(value.id) ? value.id : null, error };
  }
  if (isId(value.id) && isObject(value.result))
    return { kind: "response", id: value.id, result: value.result };
  return undefined;
}

/**
 * Sorts parsed JSON into JSON-RPC messages; returns undefined when any part is not a JSON-RPC 2.0
 * message (the caller reports the answer as malformed).
 */
export function sortIncoming(value: unknown): IncomingMessage[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  const sorted: IncomingMessage[] = [];
  for (const item of list) {
    const message = sortOne(item);
    if (message === undefined) return undefined;
    sorted.push(message);
  }
  return sorted;
}

/** A request message. */
export function rpcRequest(id: RequestId, method: string, params?: JsonObject): JsonObject {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

/** A notification message. */
export function rpcNotification(method: string, params?: JsonObject): JsonObject {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}
