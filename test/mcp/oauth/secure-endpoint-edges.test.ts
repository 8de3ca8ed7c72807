/**
 * Where OAuth may send codes, secrets and its client's identity (src/mcp/oauth/secure-endpoint.ts):
 * https anywhere; plain http only on loopback (localhost, [::1], 127.x.x.x); nothing else.
 */
import { describe, expect, it } from "vitest";
import { isSecureEndpoint } from "../../../src/mcp/oauth/secure-endpoint.ts";

describe("isSecureEndpoint", () => {
  it.each([
    "https://as.example/token",
    "http://localhost:8080/token",
    "http://[::1]:8080/token",
    "http://127.0.0.1:8080/token",
    "http://127.255.10.200/token",
  ])("takes %s", (endpoint) => {
    expect(isSecureEndpoint(endpoint)).toBe(true);
  });

  it.each([
    ["plain http off loopback", "http://as.example/token"],
    ["plain http at a name that only starts like a loopback address", "http://127.0.0.1.evil.example/token"],
    ["another scheme on localhost", "ws://localhost/token"],
    ["another scheme on a loopback address", "ftp://127.0.0.1/token"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["text that is not a URL", "not a url"],
  ])("refuses %s (%s)", (_, endpoint) => {
    expect(isSecureEndpoint(endpoint)).toBe(false);
  });
});
