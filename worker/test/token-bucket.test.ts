/**
 * The per-client token bucket (worker/client-limiter.ts, a Durable Object) over time: a full bucket
 * lets `count` through at once, then refills evenly over `seconds` — one unit back after its share of
 * the window, a fraction meanwhile (refused, with the seconds still to wait), never more than `count`
 * however long the client was away — and its alarm forgets the client once the bucket would be full.
 * The Durable Object runs in the tests' isolate, so a stubbed `Date.now` is its clock too.
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../env.ts";

/** A client's bucket, by a name no other test uses. */
function bucket(name: string) {
  const limiter = (env as Env).LIMITER;
  return limiter.get(limiter.idFromName(`token-bucket-test:${name}`));
}

/** The clock the bucket reads, set by the test. */
function clockAt(start: number) {
  let now = start;
  vi.spyOn(Date, "now").mockImplementation(() => now);
  return {
    advance(ms: number) {
      now += ms;
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Two at once, then one every 5 seconds. */
const RATE = { count: 2, seconds: 10 };

describe("the token bucket", () => {
  it("refills one unit per count/seconds: refused until its share of the window has passed", async () => {
    const clock = clockAt(1_700_000_000_000);
    const limiter = bucket("refill");
    expect(await limiter.take(RATE)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.take(RATE)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.take(RATE)).toEqual({ allowed: false, retryAfterSeconds: 5 });

    // Half a unit back: still refused, and told the rest of the wait.
    clock.advance(2_500);
    expect(await limiter.take(RATE)).toEqual({ allowed: false, retryAfterSeconds: 3 });

    // A whole unit back: one more, and only one.
    clock.advance(3_000);
    expect(await limiter.take(RATE)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await limiter.take(RATE)).toMatchObject({ allowed: false });

    // Ten more seconds: two units back, the whole bucket.
    clock.advance(10_000);
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
    expect(await limiter.take(RATE)).toMatchObject({ allowed: false });
  });

  it("never holds more than count, however long the client was away", async () => {
    const clock = clockAt(1_700_000_000_000);
    const limiter = bucket("cap");
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
    clock.advance(24 * 3600 * 1000);
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
    expect(await limiter.take(RATE)).toMatchObject({ allowed: false, retryAfterSeconds: 5 });
  });

  it("refused requests do not earn or cost anything", async () => {
    const clock = clockAt(1_700_000_000_000);
    const limiter = bucket("refusals");
    await limiter.take(RATE);
    await limiter.take(RATE);
    // Knocking every second for 4 seconds: refused each time, and the refill goes on underneath.
    for (let second = 1; second <= 4; second++) {
      clock.advance(1_000);
      expect(await limiter.take(RATE)).toEqual({ allowed: false, retryAfterSeconds: 5 - second });
    }
    clock.advance(1_001);
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
  });

  it("its alarm, due once the bucket would be full, forgets the client", async () => {
    clockAt(1_700_000_000_000);
    const limiter = bucket("alarm");
    await limiter.take(RATE);
    await limiter.take(RATE);
    expect(await limiter.take(RATE)).toMatchObject({ allowed: false });
    expect(await runDurableObjectAlarm(limiter)).toBe(true);
    expect(await limiter.take(RATE)).toMatchObject({ allowed: true });
  });

  it("sets its alarm a whole window after the last unit taken, when the bucket is full again", async () => {
    // The real clock: workerd moves an alarm set in the past to now.
    const limiter = bucket("alarm-time");
    const before = Date.now();
    await limiter.take(RATE);
    const after = Date.now();
    const due = await runInDurableObject(limiter, (_, state) => state.storage.getAlarm());
    expect(due).toBeGreaterThanOrEqual(before + RATE.seconds * 1000);
    expect(due).toBeLessThanOrEqual(after + RATE.seconds * 1000);
  });

  it("refills on the real clock too", async () => {
    const rate = { count: 1, seconds: 1 };
    const limiter = bucket("real-clock");
    expect(await limiter.take(rate)).toMatchObject({ allowed: true });
    expect(await limiter.take(rate)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await limiter.take(rate)).toMatchObject({ allowed: true });
  });
});
