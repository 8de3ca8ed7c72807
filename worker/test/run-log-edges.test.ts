/**
 * A run's event log (worker/run-log.ts) on its own: which `<runId>:<n>` ids it parses, how it drops
 * its oldest events at its count and byte bounds (and keeps a single event bigger than the byte
 * bound), what a client that missed events or names another run gets first, and when the owner is
 * told the last client went away.
 */
import { describe, expect, it } from "vitest";
import { parseEventId, RunLog, type RunLogLimits } from "../run-log.ts";
import { type SseEvent, sseFrame } from "../sse-events.ts";

interface Frame {
  /** The raw `id` line's value; undefined when the frame has none. */
  id: string | undefined;
  event: string;
  data: unknown;
}

/** Reads a stream to its end and splits it into SSE frames. */
async function framesOf(stream: ReadableStream<Uint8Array>): Promise<Frame[]> {
  const text = await new Response(stream).text();
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      const fields = new Map(
        block.split("\n").map((line) => {
          const colon = line.indexOf(": ");
          return [line.slice(0, colon), line.slice(colon + 2)] as const;
        }),
      );
      return {
        id: fields.get("id"),
        event: fields.get("event") ?? "",
        data: JSON.parse(fields.get("data") ?? "null"),
      };
    });
}

/** The same-sized text event number `index` (one digit, so every frame has the same length). */
function word(index: number): SseEvent {
  return { event: "text-delta", data: { delta: `word ${index}` } };
}

/** An ended log that was given `count` words, with these bounds. */
function endedLog(count: number, limits: RunLogLimits): RunLog {
  const log = new RunLog(() => {}, limits);
  for (let index = 1; index <= count; index++) log.append(word(index));
  log.end();
  return log;
}

/** The frames' ids as event numbers of `log`'s run (undefined for a frame without an id). */
function numbers(log: RunLog, frames: Frame[]): (number | string | undefined)[] {
  return frames.map((frame) => {
    if (frame.id === undefined) return undefined;
    const id = parseEventId(frame.id);
    return id?.runId === log.runId ? id.n : frame.id;
  });
}

const RESET = { event: "reset", id: undefined };

describe("parseEventId", () => {
  it("reads a run id and event number, around whitespace", () => {
    expect(parseEventId("0a1b-2c:17")).toEqual({ runId: "0a1b-2c", n: 17 });
    expect(parseEventId("  0a1b-2c:17\n")).toEqual({ runId: "0a1b-2c", n: 17 });
  });

  it("refuses anything before or after the id, and missing values", () => {
    expect(parseEventId("run 0a1b:17")).toBeUndefined();
    expect(parseEventId("x0a1b:17")).toBeUndefined();
    expect(parseEventId("0a1b:17x")).toBeUndefined();
    expect(parseEventId("0a1b:1234567890")).toBeUndefined();
    expect(parseEventId(undefined)).toBeUndefined();
    expect(parseEventId(null)).toBeUndefined();
    expect(parseEventId("")).toBeUndefined();
  });
});

describe("RunLog bounds", () => {
  it("keeps exactly as many events as its count bound", async () => {
    const log = endedLog(2, { maxEvents: 2, maxBytes: 1024 * 1024 });
    expect(numbers(log, await framesOf(log.attach()))).toEqual([1, 2]);
  });

  it("drops the oldest event past its count bound, and a client from the start is told to reload", async () => {
    const log = endedLog(3, { maxEvents: 2, maxBytes: 1024 * 1024 });
    const frames = await framesOf(log.attach());
    expect(frames[0]).toMatchObject(RESET);
    expect(numbers(log, frames)).toEqual([undefined, 2, 3]);
    // A client that saw event 1 missed nothing the log dropped.
    expect(numbers(log, await framesOf(log.attach({ runId: log.runId, n: 1 })))).toEqual([2, 3]);
  });

  it("keeps exactly as many bytes as its byte bound", async () => {
    const frameBytes = sseFrame(word(1), `${crypto.randomUUID()}:1`).byteLength;
    const log = endedLog(2, { maxEvents: 1000, maxBytes: 2 * frameBytes });
    expect(numbers(log, await framesOf(log.attach()))).toEqual([1, 2]);
  });

  it("drops the oldest events past its byte bound, only as many as it must", async () => {
    const frameBytes = sseFrame(word(1), `${crypto.randomUUID()}:1`).byteLength;
    const log = endedLog(3, { maxEvents: 1000, maxBytes: 2 * frameBytes });
    expect(numbers(log, await framesOf(log.attach()))).toEqual([undefined, 2, 3]);
    // Its byte count stays right after drops: four more events still leave two.
    const longer = endedLog(7, { maxEvents: 1000, maxBytes: 2 * frameBytes });
    expect(numbers(longer, await framesOf(longer.attach()))).toEqual([undefined, 6, 7]);
  });

  it("keeps its latest event even when it alone passes the byte bound", async () => {
    const log = endedLog(1, { maxEvents: 1000, maxBytes: 1 });
    const frames = await framesOf(log.attach());
    expect(frames).toEqual([{ id: `${log.runId}:1`, ...word(1) }]);
  });
});

describe("RunLog attach", () => {
  it("starts with a reset naming the run and why, without an id, when events were missed", async () => {
    const log = endedLog(3, { maxEvents: 1, maxBytes: 1024 * 1024 });
    const frames = await framesOf(log.attach({ runId: log.runId, n: 1 }));
    expect(frames).toEqual([
      { id: undefined, event: "reset", data: { runId: log.runId, reason: "Events were missed; reload" } },
      { id: `${log.runId}:3`, ...word(3) },
    ]);
  });

  it("replays everything after a reset when the id names another run", async () => {
    const log = endedLog(2, { maxEvents: 10, maxBytes: 1024 * 1024 });
    const frames = await framesOf(log.attach({ runId: "0123-abcd", n: 1 }));
    expect(frames[0]).toMatchObject({ ...RESET, data: { runId: log.runId } });
    expect(numbers(log, frames)).toEqual([undefined, 1, 2]);
  });

  it("sends live events to every attached client and closes them all when the run ends", async () => {
    const log = new RunLog(() => {});
    const first = framesOf(log.attach());
    const second = framesOf(log.attach());
    expect(log.clients).toBe(2);
    log.append(word(1));
    log.end();
    expect(log.clients).toBe(0);
    expect(numbers(log, await first)).toEqual([1]);
    expect(numbers(log, await second)).toEqual([1]);
  });
});

describe("RunLog idle", () => {
  it("tells the owner once, when the last client of a running run goes away", async () => {
    let idle = 0;
    const log = new RunLog(() => idle++);
    const first = log.attach();
    const second = log.attach();
    log.append(word(1));
    await first.cancel();
    expect(log.clients).toBe(1);
    expect(idle).toBe(0);
    await second.cancel();
    expect(log.clients).toBe(0);
    expect(idle).toBe(1);
  });

  it("does not tell the owner when clients go away after the run ended", async () => {
    let idle = 0;
    const log = new RunLog(() => idle++);
    const client = log.attach();
    log.end();
    await client.cancel();
    expect(idle).toBe(0);
  });
});
