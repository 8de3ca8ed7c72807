/**
 * Runs that survive a dropped connection, inside workerd: every event has an id; a client that
 * reattaches with `Last-Event-ID` (or `?after=`) gets exactly what it missed, then the live stream;
 * a finished run can still be replayed for a while; an id from another run starts with `reset`.
 */
import { describe, expect, it } from "vitest";
import { auth, call, createSession, type ReceivedEvent, readEvents, send } from "./api.ts";

const LONG = "Tell me about Wisp";

function attach(
  session: { sessionId: string; token: string },
  after?: string,
  header = true,
): Promise<Response> {
  const init = auth(session.token);
  if (after !== undefined && header) (init.headers as Record<string, string>)["last-event-id"] = after;
  const query = after !== undefined && !header ? `?after=${encodeURIComponent(after)}` : "";
  return call(`/api/sessions/${session.sessionId}/events${query}`, init);
}

function textOf(events: ReceivedEvent[]): string {
  return events
    .filter((event) => event.event === "text-delta")
    .map((event) => event.data.delta)
    .join("");
}

function numbers(events: ReceivedEvent[]): number[] {
  return events.map((event) => Number(event.id?.split(":")[1]));
}

describe("resumable runs", () => {
  it.each([
    ["Last-Event-ID", true],
    ["?after=", false],
  ])(
    "a client that drops and reattaches with %s misses nothing and sees nothing twice",
    async (_how, header) => {
      const session = await createSession();
      const first = await readEvents(
        await send(session, LONG),
        (event) =>
          event.event === "text-delta" && textOf([event]).length > 0 && Number(event.id?.split(":")[1]) >= 5,
      );
      await first.reader.cancel(); // the phone lost its signal
      await new Promise((resolve) => setTimeout(resolve, 300)); // the run goes on meanwhile
      const lastId = first.events.at(-1)?.id;
      expect(lastId).toMatch(/^[0-9a-f-]+:\d+$/);
      const rest = await readEvents(await attach(session, lastId, header));
      const all = [...first.events, ...rest.events];
      expect(rest.events[0]?.event).not.toBe("reset");
      expect(numbers(all)).toEqual(all.map((_event, index) => index + 1)); // consecutive: no gap, no repeat
      expect(new Set(all.map((event) => event.id?.split(":")[0])).size).toBe(1);
      expect(all.at(-1)).toMatchObject({ event: "run-end", data: { ok: true, stopReason: "complete" } });
      expect(textOf(all)).toBe(all.at(-1)?.data.text);
    },
  );

  it("a finished run replays whole to a client that comes back later", async () => {
    const session = await createSession();
    const live = await readEvents(await send(session, "What is 6 * 7?"));
    const replay = await readEvents(await attach(session));
    expect(replay.events).toEqual(live.events);
    const tail = await readEvents(await attach(session, live.events.at(-3)?.id));
    expect(tail.events).toEqual(live.events.slice(-2));
  });

  it("an id from another run starts the replay with a reset event", async () => {
    const session = await createSession();
    const live = await readEvents(await send(session, "What is 1 + 1?"));
    const replay = await readEvents(await attach(session, "00000000-0000-4000-8000-000000000000:3"));
    expect(replay.events[0]?.event).toBe("reset");
    expect(replay.events.slice(1)).toEqual(live.events);
  });

  it("two clients attached at once both receive the whole run", async () => {
    const session = await createSession();
    const response = await send(session, LONG);
    const second = readEvents(await attach(session));
    const first = await readEvents(response);
    expect((await second).events).toEqual(first.events);
    expect(first.events.at(-1)?.event).toBe("run-end");
  });

  it("attaching to a session that has had no run is 404 NO_RUN", async () => {
    const session = await createSession();
    const response = await attach(session);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "NO_RUN" } });
  });

  it("attaching needs the session's token", async () => {
    const session = await createSession();
    const response = await call(`/api/sessions/${session.sessionId}/events`);
    expect(response.status).toBe(401);
  });
});
