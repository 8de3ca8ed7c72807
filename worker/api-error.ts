/**
 * The API's one error shape, `{ error: { code, message, path? } }`, and reading JSON bodies with a
 * size limit — so that bad input is always a 4xx with a clear code, never a 500 or a stack trace.
 *
 * @module
 */

/** An error the API answers with: its HTTP status, a stable code, a message, and the bad field. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly path: string | undefined;

  constructor(status: number, code: string, message: string, path?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

/** The 404 for a session that does not exist (never created, deleted, or expired): the same words everywhere. */
export function noSuchSession(): ApiError {
  return new ApiError(404, "NOT_FOUND", "No such session");
}

/** The JSON response for an error. */
export function errorResponse(error: ApiError, headers: HeadersInit = {}): Response {
  const body: { code: string; message: string; path?: string } = { code: error.code, message: error.message };
  if (error.path !== undefined) body.path = error.path;
  return Response.json({ error: body }, { status: error.status, headers });
}

/**
 * Largest body of a message request, in bytes: room for the longest prompt (32,000 characters) in the
 * costliest JSON encoding (6 bytes a character, `\u0001`; CJK text takes 3), so a prompt within the
 * documented limit is never refused for its bytes.
 */
export const MAX_MESSAGE_BODY = 32_000 * 6 + 1024;
/** Largest body of an import (a SessionState, or a Claude Code or pi transcript), in bytes: what a stored session may take. */
export const MAX_IMPORT_BODY = 64 * 1024 * 1024;

/** The largest request the demo's MCP server reads (a tool call with a 2,000-character note fits many times). */
export const MAX_MCP_BODY = 64 * 1024;

/**
 * Reads the request body as JSON, stopping as soon as it passes `limit` bytes (whatever
 * `content-length` claims). 413 when too large, 415 when not JSON, 400 when malformed.
 */
export async function readJson(request: Request, limit: number): Promise<unknown> {
  const text = await readText(request, limit, [/^application\/json\b/i], "application/json");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "MALFORMED_JSON", "The body is not valid JSON");
  }
}

/**
 * Reads the request body as UTF-8 text of one of the `types` (415 otherwise, naming `expected`),
 * stopping as soon as it passes `limit` bytes (413). 400 when it is not UTF-8.
 */
export async function readText(
  request: Request,
  limit: number,
  types: RegExp[],
  expected: string,
): Promise<string> {
  const type = request.headers.get("content-type") ?? "";
  if (!types.some((pattern) => pattern.test(type))) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", `Send the body as ${expected}`);
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const bytes = new Uint8Array(await readLimited(request.body, limit));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError(400, "MALFORMED_JSON", "The body is not UTF-8 text");
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "BODY_TOO_LARGE", `The body is larger than ${limit} bytes`);
}

async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<ArrayBuffer> {
  if (body === null) return new ArrayBuffer(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out.buffer;
}
