/**
 * One connection's hook feed listeners (src/bridge/hook-feed-listeners.ts), driven directly: a listener
 * that is not a function is a ConfigError naming what it got, only the first listener posts
 * `observe on` and only the last one removed posts `observe off`, and a remover called again removes
 * nothing else. The feed end to end, over a real MessageChannel, is in hook-feed.test.ts.
 */
import { describe, expect, it } from "vitest";
import { HookFeedListeners } from "../../src/bridge/hook-feed-listeners.ts";
import type { BridgeReport, HookFeedEvent } from "../../src/bridge/index.ts";
import type { MainMessage } from "../../src/bridge/protocol.ts";

/** Listeners whose posted messages are kept in `posted`. */
function listeners() {
  const posted: MainMessage[] = [];
  const reports: BridgeReport[] = [];
  const feed = new HookFeedListeners(
    (message) => posted.push(message) > 0,
    (report) => reports.push(report),
  );
  return { feed, posted, reports };
}

/** A listener that keeps the kinds it is told. */
function recorder() {
  const seen: string[] = [];
  return { seen, listener: (event: HookFeedEvent) => void seen.push(event.rawKind) };
}

const item = (kind: string) => ({ t: "feed" as const, id: `id-${kind}`, kind, payload: {} });

describe("a listener that is not a function", () => {
  it("is a ConfigError at `listener` that says what it got", () => {
    const { feed, posted } = listeners();
    expect(() => feed.add(null as never)).toThrow(
      expect.objectContaining({
        _tag: "ConfigError",
        code: "CONFIG_INVALID",
        path: "listener",
        message: "onHookEvent takes a function (event) => void, got null",
      }),
    );
    expect(() => feed.add(42 as never)).toThrow(
      expect.objectContaining({ message: "onHookEvent takes a function (event) => void, got number" }),
    );
    expect(() => feed.add({ handler: () => {} } as never)).toThrow(/got object$/);
    expect(posted).toEqual([]);
  });
});

describe("observe messages", () => {
  it("the first listener starts the feed, the last one removed stops it; the ones between post nothing", () => {
    const { feed, posted } = listeners();
    const stopFirst = feed.add(() => {});
    const stopSecond = feed.add(() => {});
    expect(posted).toEqual([{ t: "observe", on: true }]);
    stopFirst();
    expect(posted).toEqual([{ t: "observe", on: true }]);
    stopSecond();
    expect(posted).toEqual([
      { t: "observe", on: true },
      { t: "observe", on: false },
    ]);
  });

  it("a remover called again removes no other listener and posts nothing", () => {
    const { feed, posted } = listeners();
    const first = recorder();
    const second = recorder();
    const stopFirst = feed.add(first.listener);
    feed.add(second.listener);
    stopFirst();
    stopFirst();
    feed.receive(item("stop"));
    expect(second.seen).toEqual(["stop"]);
    expect(first.seen).toEqual([]);
    expect(posted).toEqual([{ t: "observe", on: true }]);
  });

  it("the same function added twice is told twice and removed once per remover", () => {
    const { feed } = listeners();
    const { seen, listener } = recorder();
    const stopOnce = feed.add(listener);
    feed.add(listener);
    feed.receive(item("stop"));
    expect(seen).toEqual(["stop", "stop"]);
    stopOnce();
    feed.receive(item("session-end"));
    expect(seen).toEqual(["stop", "stop", "session-end"]);
  });
});
