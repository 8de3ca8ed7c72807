/**
 * Pending authorizations in storage at their edges: one record stored alone (as an earlier version kept
 * it) is found by its state and taken out, and a callback that is not a URL finds none without reading
 * the storage.
 */
import { describe, expect, it } from "vitest";
import type { PendingAuthorization } from "../../../src/mcp/oauth/authorization-code.ts";
import { takePending } from "../../../src/mcp/oauth/pending-authorizations.ts";
import { memoryAuthStorage, storageKey } from "../../../src/mcp/oauth/storage.ts";
import type { JsonValue } from "../../../src/types.ts";

const SERVER = "https://mcp.example.test/mcp";

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
});
