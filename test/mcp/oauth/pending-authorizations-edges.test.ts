/**
 * Pending authorizations in storage at their edges: one record stored alone (as an earlier version kept
 * it) is found by its state and taken out, and a callback that is not a URL finds none without reading
 * the storage.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PendingAuthorization } from "../../../src/mcp/oauth/authorization-code.ts";
import { keepPending, takePending } from "../../../src/mcp/oauth/pending-authorizations.ts";
import { memoryAuthStorage, storageKey } from "../../../src/mcp/oauth/storage.ts";
import type { JsonValue } from "../../../src/types.ts";
import { useFakeClock } from "../../support/fake-time.ts";

const SERVER = "https://mcp.example.test/mcp";
const CALLBACK = "https://app.example.test/callback";

const pending = (state: string): PendingAuthorization => ({
  state,
  verifier: "verifier",
  redirectUrl: "https://app.example.test/callback",
  authorizationEndpoint: "https://as.example.test/authorize",
  grant: {
    tokenEndpoint: "https://as.example.test/token",
    resource: SERVER,
    issuer: "https://as.example.test",
    client: { clientId: "app" },
    authMethod: "none",
  },
  createdAt: Date.now(),
});

describe("takePending", () => {
  it("finds one record stored alone by its state and takes it out", async () => {
    const storage = memoryAuthStorage();
    const record = pending("the-state");
    await storage.set(storageKey("pending", SERVER), record as unknown as JsonValue);
    const found = await takePending(
      storage,
      SERVER,
      "https://app.example.test/callback?state=the-state&code=c",
    );
    expect(found).toEqual(record);
    expect(await storage.get(storageKey("pending", SERVER))).toBeUndefined();
  });

  it("finds none for a callback that is not a URL, without reading the storage", async () => {
    const reads: string[] = [];
    const storage = memoryAuthStorage();
    const watched = {
      ...storage,
      get: (key: string) => {
        reads.push(key);
        return storage.get(key);
      },
    };
    await storage.set(storageKey("pending", SERVER), [pending("s")] as unknown as JsonValue);
    expect(await takePending(watched, SERVER, "not a url")).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it("takes one of two pending authorizations by its state, leaving the other to be found", async () => {
    const storage = memoryAuthStorage();
    await keepPending(storage, SERVER, pending("first"));
    await keepPending(storage, SERVER, pending("second"));
    expect(await takePending(storage, SERVER, `${CALLBACK}?state=first`)).toMatchObject({ state: "first" });
    expect(await takePending(storage, SERVER, `${CALLBACK}?state=second`)).toMatchObject({ state: "second" });
  });

  it("leaves the stored authorizations as they were, expired ones included, when the state matches none", async () => {
    const storage = memoryAuthStorage();
    const kept = [{ ...pending("old"), createdAt: 0 }, pending("fresh")];
    await storage.set(storageKey("pending", SERVER), kept as unknown as JsonValue);
    expect(await takePending(storage, SERVER, `${CALLBACK}?state=other`)).toBeUndefined();
    expect(await storage.get(storageKey("pending", SERVER))).toEqual(kept);
  });
});

describe("keepPending", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps the five newest: the oldest of six is no longer found", async () => {
    const storage = memoryAuthStorage();
    for (const state of ["s1", "s2", "s3", "s4", "s5", "s6"])
      await keepPending(storage, SERVER, pending(state));
    expect(await takePending(storage, SERVER, `${CALLBACK}?state=s1`)).toBeUndefined();
    for (const state of ["s2", "s3", "s4", "s5", "s6"])
      expect(await takePending(storage, SERVER, `${CALLBACK}?state=${state}`)).toMatchObject({ state });
  });

  it("forgets a pending authorization 30 minutes after it was made, not a millisecond before", async () => {
    useFakeClock();
    const storage = memoryAuthStorage();
    await keepPending(storage, SERVER, { ...pending("early"), createdAt: 0 });
    await keepPending(storage, SERVER, { ...pending("late"), createdAt: 0 });
    vi.setSystemTime(30 * 60_000 - 1);
    expect(await takePending(storage, SERVER, `${CALLBACK}?state=early`)).toMatchObject({ state: "early" });
    vi.setSystemTime(30 * 60_000);
    expect(await takePending(storage, SERVER, `${CALLBACK}?state=late`)).toBeUndefined();
  });
});
