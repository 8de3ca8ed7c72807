/**
 * The event log of one run, so a client that lost its connection can come back and miss nothing.
 * Every SSE event gets an id `<runId>:<n>`; the log keeps the run's events (bounded in count and
 * bytes) while it runs and for a while after; any number of clients attach to it, each from the
 * event after the last one it saw, and then receive the live stream. When the last client detaches
 * the owner is told (it starts the grace period after which an unwatched run is cancelled).
 *
 * @module
 */

import { type SseEvent, sseFrame } from "./sse-events.ts";

/** Bounds on what one run's log keeps. */
export interface RunLogLimits {
  /** Most events kept (the oldest are dropped first). */
  maxEvents: number;
  /** Most bytes of framed events kept. */
  maxBytes: number;
}

/** Default bounds: enough for a long answer streamed word by word. */
const DEFAULT_RUN_LOG_LIMITS: RunLogLimits = { maxEvents: 20_000, maxBytes: 4 * 1024 * 1024 };

/** A client whose unread backlog passes this many bytes is dropped (it can reattach and catch up). */
const MAX_CLIENT_BACKLOG = 8 * 1024 * 1024;

interface LoggedEvent {
  n: number;
  bytes: Uint8Array;
}

type Client = ReadableStreamDefaultController<Uint8Array>;

/** Parses `<runId>:<n>` (a `Last-Event-ID` or `?after=`); undefined when it is not one. */
export function parseEventId(value: string | null | undefined): { runId: string; n: number } | undefined {
  const match = /^([0-9a-f-]{1,64}):(\d{1,9})$/.exec(value?.trim() ?? "");
  if (match === null) return undefined;
  return { runId: match[1]!, n: Number(match[2]) };
}

/** One run's events, and the clients attached to it. See the module comment. */
export class RunLog {
  readonly runId = crypto.randomUUID();
  #events: LoggedEvent[] = [];
  #bytes = 0;
  #next = 1;
  #ended = false;
  #clients = new Set<Client>();
  readonly #limits: RunLogLimits;
  readonly #onIdle: () => void;

  /** `onIdle` runs whenever the last attached client detaches while the run is still going. */
  constructor(onIdle: () => void, limits: RunLogLimits = DEFAULT_RUN_LOG_LIMITS) {
    this.#onIdle = onIdle;
    this.#limits = limits;
  }

  /** Whether the run has ended (its last event is in the log). */
  get ended(): boolean {
    return this.#ended;
  }

  /** How many clients are attached. */
  get clients(): number {
    return this.#clients.size;
  }

  /** Adds an event: it gets the next id, is kept, and goes to every attached client. */
  append(event: SseEvent): void {
    const n = this.#next++;
    const bytes = sseFrame(event, `${this.runId}:${n}`);
    this.#events.push({ n, bytes });
    this.#bytes += bytes.byteLength;
    while (
      this.#events.length > 1 &&
      (this.#events.length > this.#limits.maxEvents || this.#bytes > this.#limits.maxBytes)
    ) {
      this.#bytes -= this.#events.shift()!.bytes.byteLength;
    }
    for (const client of this.#clients) this.#deliver(client, bytes);
  }

  /** Marks the run ended: every attached client's stream closes after what it has. */
  end(): void {
    this.#ended = true;
    for (const client of this.#clients) {
      try {
        client.close();
      } catch {
        // that client already went away
      }
    }
    this.#clients.clear();
  }

  /**
   * A stream of this run's events after `after` (undefined: from the start), then the live ones; it
   * closes when the run ends. If events the client has not seen were dropped from the log (or `after`
   * names another run), the stream starts with a `reset` event: the client should reload the
   * session and stop expecting a complete replay.
   */
  attach(after?: { runId: string; n: number }): ReadableStream<Uint8Array> {
    let self: Client | undefined;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          self = controller;
          const from = after === undefined || after.runId !== this.runId ? 0 : after.n;
          const oldest = this.#events[0]?.n ?? this.#next;
          if ((after !== undefined && after.runId !== this.runId) || from + 1 < oldest) {
            controller.enqueue(
              sseFrame({ event: "reset", data: { runId: this.runId, reason: "Events were missed; reload" } }),
            );
          }
          for (const event of this.#events) if (event.n > from) controller.enqueue(event.bytes);
          if (this.#ended) controller.close();
          else this.#clients.add(controller);
        },
        cancel: () => {
          if (self !== undefined) this.#detach(self);
        },
      },
      // Counted in bytes, so a client's backlog (desiredSize below zero) is the bytes it has not read.
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
  }

  #deliver(client: Client, bytes: Uint8Array): void {
    try {
      if ((client.desiredSize ?? 0) < -MAX_CLIENT_BACKLOG) throw new Error("client too slow");
      client.enqueue(bytes);
    } catch {
      try {
        client.error(new Error("The client fell too far behind; reattach to catch up"));
      } catch {
        // already closed
      }
      this.#detach(client);
    }
  }

  #detach(client: Client): void {
    if (!this.#clients.delete(client)) return;
    if (this.#clients.size === 0 && !this.#ended) this.#onIdle();
  }
}
