/**
 * Which data on a port is the bridge's (`bridgeMessage`, protocol.ts): only an object tagged
 * `wisp: "bridge"` with a string `t`, of any version; everything else — null, undefined, primitives,
 * other tags, a `t` that is not a string — is other traffic, never a throw. The page's side of the
 * same over a port is in bridge-connection-edges.test.ts.
 */
import { describe, expect, it } from "vitest";
import { BRIDGE_PROTOCOL_VERSION as v } from "../../src/bridge/index.ts";
import { bridgeMessage, envelope } from "../../src/bridge/protocol.ts";

describe("bridgeMessage", () => {
  it("takes a tagged message with a string t, of any version", () => {
    const message = envelope({ t: "ping" });
    expect(bridgeMessage(message)).toBe(message);
    expect(bridgeMessage({ wisp: "bridge", v: 99, t: "hello" })).toMatchObject({ v: 99, t: "hello" });
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "bridge"],
    ["a number", 2],
    ["an untagged message", { v, t: "closed" }],
    ["another tag", { wisp: "other", v, t: "closed" }],
    ["a t that is not a string", { wisp: "bridge", v, t: 5 }],
    ["no t", { wisp: "bridge", v }],
  ])("leaves %s alone", (_name, data) => {
    expect(bridgeMessage(data)).toBeUndefined();
  });
});
