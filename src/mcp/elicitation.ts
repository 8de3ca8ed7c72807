/**
 * Elicitation (`elicitation/create`, MCP 2025-06-18 and later): the server asks the person something
 * in the middle of a request. The app answers through `onElicitation`; in form mode Wisp fills in the
 * requested schema's defaults for the fields the answer left out (as the spec's SEP-1034 asks of
 * clients) and checks the answer against the schema before the server sees it.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../types.ts";
import { asObject } from "./as-object.ts";
import { checkJsonSchema, formatSchemaIssues } from "./json-schema-check.ts";
import { RpcAnswerError, type ServerRequestHandler } from "./server-requests.ts";

/** JSON-RPC's code for parameters the receiver cannot use. */
const RPC_INVALID_PARAMS = -32602;

/** What the server asks: a form to fill in, or a URL to send the person to. */
export type McpElicitationRequest =
  | {
      /** A form: the person fills in `requestedSchema`'s fields. */
      mode: "form";
      /** What the server says to the person. */
      message: string;
      /** A flat object schema of primitive fields (string, number, integer, boolean, enums). */
      requestedSchema: JsonObject;
    }
  | {
      /** The person goes to `url` (a sign-in, a payment) and comes back; nothing is sent through Wisp. */
      mode: "url";
      /** What the server says to the person. */
      message: string;
      /** Where to send the person. Show it; never open it without asking. */
      url: string;
      /** The server's id for this elicitation (it may tell the client it completed). */
      elicitationId: string;
    };

/** The person's answer: accepted (with the form's content), declined, or dismissed. */
export interface McpElicitationResult {
  /** `accept` (they answered), `decline` (they said no), `cancel` (they dismissed it). */
  action: "accept" | "decline" | "cancel";
  /** The form's fields, for `accept` in form mode; defaults fill what is left out. */
  content?: JsonObject;
}

/** Answers the server's elicitation: the app's callback, given the request and a signal. */
export type McpElicitationHandler = (
  request: McpElicitationRequest,
  context: { signal: AbortSignal },
) => Promise<McpElicitationResult> | McpElicitationResult;

/** The capability `initialize` declares when the app answers elicitations: forms and URLs. */
export const ELICITATION_CAPABILITY: JsonObject = { form: {}, url: {} };

/**
 * The request as the app gets it (no `mode` is a form, as 2025-06-18 servers send it); a request Wisp
 * cannot read, or of a mode it does not know, is refused as invalid params.
 */
function readRequest(params: JsonObject): McpElicitationRequest {
  const message = typeof params.message === "string" ? params.message : "";
  if (params.mode === "url") {
    if (typeof params.url !== "string" || typeof params.elicitationId !== "string")
      throw new RpcAnswerError(RPC_INVALID_PARAMS, "A URL elicitation needs a url and an elicitationId");
    // Only a web page: a `javascript:` or `data:` URL would run in the app's origin when opened.
    if (!/^https?:\/\//i.test(params.url))
      throw new RpcAnswerError(RPC_INVALID_PARAMS, "A URL elicitation's url must be http or https");
    return { mode: "url", message, url: params.url, elicitationId: params.elicitationId };
  }
  if (params.mode !== undefined && params.mode !== "form")
    throw new RpcAnswerError(RPC_INVALID_PARAMS, `Unknown elicitation mode ${JSON.stringify(params.mode)}`);
  const requestedSchema = asObject(params.requestedSchema);
  if (requestedSchema === undefined)
    throw new RpcAnswerError(RPC_INVALID_PARAMS, "A form elicitation needs a requestedSchema");
  return { mode: "form", message, requestedSchema };
}

/**
 * `content` with `schema`'s top-level defaults filled in for the fields it leaves out (the spec's
 * `applyDefaults`: a field the person left empty takes the default the server offered).
 */
export function applyDefaults(schema: JsonObject, content: JsonObject): JsonObject {
  const properties = asObject(schema.properties) ?? {};
  const filled: JsonObject = { ...content };
  for (const [name, value] of Object.entries(properties)) {
    const property = asObject(value);
    if (property === undefined || !Object.hasOwn(property, "default") || Object.hasOwn(filled, name))
      continue;
    const fallback = property.default;
    // A field named `__proto__` is a field, not the object's prototype.
    if (fallback !== undefined)
      Object.defineProperty(filled, name, {
        value: fallback,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return filled;
}

/** The answer as the server gets it; an answer that is not one of the three, or not the form, throws. */
function readAnswer(answer: unknown, request: McpElicitationRequest): JsonObject {
  const result = asObject(answer as JsonValue);
  const action = result?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel")
    throw new Error(`onElicitation must resolve to { action: "accept" | "decline" | "cancel" }`);
  if (action !== "accept" || request.mode === "url") return { action };
  const given = result?.content === undefined ? {} : asObject(result.content);
  if (given === undefined) throw new Error("onElicitation's content must be an object of the form's fields");
  const content = applyDefaults(request.requestedSchema, given);
  const issues = checkJsonSchema(request.requestedSchema, content);
  if (issues.length > 0)
    throw new Error(`The answer does not match the requested schema: ${formatSchemaIssues(issues)}`);
  return { action, content };
}

/** The handler of `elicitation/create` that asks `onElicitation`. */
export function elicitationHandler(onElicitation: McpElicitationHandler): ServerRequestHandler {
  return async (params, signal) => {
    const request = readRequest(params);
    let answer: unknown;
    try {
      answer = await onElicitation(request, { signal });
    } catch {
      // The app's own error stays with the app: its message may hold what the server must not see.
      throw new Error("The client could not ask the person (its onElicitation failed)");
    }
    return readAnswer(answer, request);
  };
}
