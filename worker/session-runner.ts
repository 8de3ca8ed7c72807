/**
 * The Durable Object that runs one session's agent. One object per session id, so every request for
 * a session — a message, a cancel from another tab, an export, a delete — reaches the same place:
 * one run at a time (a second message is 409), and a cancel aborts the run wherever it was started.
 * It saves the state to KV after every completed turn and at the end of every run.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import {
  type AgentRun,
  type AgentSession,
  createAgentSession,
  type Message,
  type SessionState,
} from "wisp-agent";
import { agentOptions } from "./agent-config.ts";
import { ApiError, errorResponse } from "./api-error.ts";
import type { Env } from "./env.ts";
import { deleteRecord, loadRecord, type SessionRecord, saveRecord } from "./session-store.ts";
import { frame, type SseEvent, sseEventOf } from "./sse-events.ts";

/** What the Worker asks the runner to do (the Worker has checked the token and the body). */
export type RunnerCommand =
  | { op: "run"; sessionId: string; text: string }
  | { op: "cancel" }
  | { op: "export"; sessionId: string }
  | { op: "delete"; sessionId: string };

/** A message that completes a turn: tool results, or an answer that asked for no tools. */
function completesTurn(message: Message): boolean {
  if (message.role === "tool_result") return true;
  return message.role === "assistant" && !message.content.some((part) => part.type === "tool_call");
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** Runs one session's agent; see the module comment. */
export class SessionRunner extends DurableObject<Env> {
  /** The run in flight; set before the first await of a run request, so a second one sees it. */
  #run: { abort(reason?: unknown): void; finished: Promise<void> } | undefined;
  /** The record last written (KV may lag behind it elsewhere). */
  #latest: SessionRecord | undefined;
  #deleted = false;
  /** Saves go one after another, in order. */
  #saving: Promise<boolean> = Promise.resolve(true);

  override async fetch(request: Request): Promise<Response> {
    const command = (await request.json()) as RunnerCommand;
    try {
      switch (command.op) {
        case "run":
          return await this.#start(command.sessionId, command.text, request.signal);
        case "cancel":
          return Response.json({ cancelled: this.#cancel("Cancelled by request") });
        case "export":
          return Response.json((await this.#record(command.sessionId)).state);
        case "delete":
          await this.#delete(command.sessionId);
          return new Response(null, { status: 204 });
      }
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    }
  }

  async #record(sessionId: string): Promise<SessionRecord> {
    const record = this.#deleted
      ? undefined
      : (this.#latest ?? (await loadRecord(this.env.SESSIONS, sessionId)));
    if (record === undefined) throw new ApiError(404, "NOT_FOUND", "No such session");
    return record;
  }

  #cancel(why: string): boolean {
    if (this.#run === undefined) return false;
    this.#run.abort(new DOMException(why, "AbortError"));
    return true;
  }

  async #delete(sessionId: string): Promise<void> {
    this.#deleted = true;
    const run = this.#run;
    this.#cancel("The session was deleted");
    await run?.finished;
    await this.#saving;
    this.#latest = undefined;
    await deleteRecord(this.env.SESSIONS, sessionId);
  }

  #save(sessionId: string, tokenDigest: string, state: SessionState): Promise<boolean> {
    this.#saving = this.#saving.then(async () => {
      if (this.#deleted) return false;
      const record = { tokenDigest, state };
      this.#latest = record;
      try {
        await saveRecord(this.env.SESSIONS, sessionId, record);
        return true;
      } catch (error) {
        console.error(
          `saving session ${sessionId} failed: ${error instanceof Error ? error.message : error}`,
        );
        return false;
      }
    });
    return this.#saving;
  }

  async #start(sessionId: string, text: string, signal: AbortSignal): Promise<Response> {
    if (this.#run !== undefined) {
      throw new ApiError(
        409,
        "SESSION_BUSY",
        "A run is in flight for this session: wait for it or cancel it",
      );
    }
    // Claim the session before any await: a second message arriving meanwhile must get 409.
    let abort: (reason?: unknown) => void = () => {};
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.#run = { abort: (reason) => abort(reason), finished };
    let session: AgentSession;
    let record: SessionRecord;
    try {
      record = await this.#record(sessionId);
      session = await createAgentSession({ ...agentOptions(this.env), restore: record.state });
    } catch (error) {
      this.#run = undefined;
      finish();
      throw error;
    }
    const run = session.stream(text);
    abort = (reason) => run.abort(reason);
    signal.addEventListener("abort", () =>
      run.abort(new DOMException("The client disconnected", "AbortError")),
    );
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        void this.#pump(run, session, sessionId, record.tokenDigest, controller).finally(() => {
          this.#run = undefined;
          finish();
        });
      },
      cancel: () => run.abort(new DOMException("The client disconnected", "AbortError")),
    });
    return new Response(body, { headers: SSE_HEADERS });
  }

  /** Sends the run's events, saving after every completed turn and before the final event. */
  async #pump(
    run: AgentRun,
    session: AgentSession,
    sessionId: string,
    tokenDigest: string,
    controller: ReadableStreamDefaultController<Uint8Array>,
  ): Promise<void> {
    let open = true;
    const send = (event: SseEvent): void => {
      if (!open) return;
      try {
        controller.enqueue(frame(event));
      } catch {
        open = false; // the client went away; cancel() has aborted the run
      }
    };
    for await (const event of run) {
      if (event.type === "message" && completesTurn(event.message)) {
        void this.#save(sessionId, tokenDigest, session.export());
      }
      const sse = sseEventOf(event);
      if (sse === undefined) continue;
      if (event.type === "run-end") {
        // The final state is in KV before the page hears the run ended (so an export right after has it).
        const saved = await this.#save(sessionId, tokenDigest, session.export());
        send({
          event: sse.event,
          data: { ...(sse.data as object), saved, messageCount: session.snapshot().messageCount },
        });
      } else {
        send(sse);
      }
    }
    await session.close();
    if (open) {
      try {
        controller.close();
      } catch {
        // already cancelled
      }
    }
  }
}
