/**
 * Helpers for the route tests: calls into the Worker (inside workerd, with its real KV and Durable
 * Object), and a reader for the SSE events a run streams back.
 */
import { exports } from "cloudflare:workers";

/** One parsed SSE event. */
export interface ReceivedEvent {
  /** The SSE `id` (`<runId>:<n>`), when the event carried one. */
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

/** Calls the Worker. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`http://demo.test${path}`, init));
}

/** A request with a JSON body (and the session token when given). */
export function json(method: string, body: unknown, token?: string): RequestInit {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return { method, headers, body: typeof body === "string" ? body : JSON.stringify(body) };
}

/** The token header. */
export function auth(token: string, method = "GET"): RequestInit {
  return { method, headers: { authorization: `Bearer ${token}` } };
}

/** Creates a session. */
export async function createSession(): Promise<{ sessionId: string; token: string }> {
  const response = await call("/api/sessions", { method: "POST" });
  if (response.status !== 201) throw new Error(`create gave ${response.status}`);
  return response.json();
}

/** Sends a message; resolves with the response (its body is the run's SSE stream). */
export function send(
  session: { sessionId: string; token: string },
  text: string,
  signal?: AbortSignal,
): Promise<Response> {
  const init = json("POST", { text }, session.token);
  if (signal !== undefined) init.signal = signal;
  return call(`/api/sessions/${session.sessionId}/messages`, init);
}

/** Reads SSE events from a response body until it ends, or until `until` returns true. */
export async function readEvents(
  response: Response,
  until: (event: ReceivedEvent) => boolean = () => false,
): Promise<{ events: ReceivedEvent[]; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  if (response.body === null) throw new Error("no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events: ReceivedEvent[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "{}";
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const parsed: ReceivedEvent = { event, data: JSON.parse(data) };
      if (id !== undefined) parsed.id = id;
      events.push(parsed);
      if (until(parsed)) return { events, reader };
      end = buffer.indexOf("\n\n");
    }
  }
  return { events, reader };
}

/** An API error's body. */
export type ErrorBody = { error: { code: string; message: string; path?: string } };

/** The status and error body of a refusal. */
export async function refusal(response: Response): Promise<[number, ErrorBody["error"]]> {
  return [response.status, ((await response.json()) as ErrorBody).error];
}

/** The rest of a half-read body (its reader taken by {@link readEvents}) as a stream again. */
export function streamOf(reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
}
