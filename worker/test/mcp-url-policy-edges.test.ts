/**
 * The URL policy at the edges of its rule: each refused IPv4 range at its bounds (and the public
 * neighbours just outside it), IPv6 forms that only look like a carrier of an IPv4 address (mapped,
 * translated, NAT64, 6to4, Teredo) outside their prefixes, full and trailing-zero IPv6 spellings,
 * dotted names that Number() would read as digits, what is not a host at all, and the messages a
 * person gets for an empty, too long, unparsable or credentialed URL.
 */
import { describe, expect, it } from "vitest";
import { checkMcpUrl, isRefusedHost, mcpUrlProblem } from "../mcp-url-policy.ts";

const PRIVATE = "url points to a private network address";

describe("the URL policy's IPv4 ranges", () => {
  it("refuses each range up to its last address", () => {
    for (const host of ["100.64.0.0", "100.127.255.255", "169.254.0.1", "172.16.0.0", "172.31.0.1"]) {
      expect(isRefusedHost(host), host).toBe(true);
    }
    for (const host of ["192.168.255.255", "198.18.0.1", "198.19.255.255"]) {
      expect(isRefusedHost(host), host).toBe(true);
    }
  });

  it("allows the public addresses next to each range, and those sharing only one of its numbers", () => {
    for (const host of [
      "100.63.255.255",
      "100.128.0.1",
      "8.100.8.8", // second number inside 100.64/10's
      "169.253.0.1",
      "169.255.0.1",
      "8.254.8.8",
      "172.15.255.255",
      "8.20.8.8", // second number inside 172.16/12's
      "192.167.0.1",
      "192.169.0.1",
      "8.168.8.8",
      "198.17.255.255",
      "198.20.0.1",
      "8.18.8.8",
      "8.19.8.8",
    ]) {
      expect(isRefusedHost(host), host).toBe(false);
    }
  });

  it("reads a dotted name whose labels Number() would take as numbers as a name, not an address", () => {
    // "1e1" is a domain label to the URL parser, though Number("1e1") is 10.
    expect(new URL("http://10.0.0.1e1/").hostname).toBe("10.0.0.1e1");
    for (const host of ["10.0.0.1e1", "192.168.1.1e0"]) {
      expect(isRefusedHost(host), host).toBe(false);
    }
    expect(mcpUrlProblem("https://10.0.0.1e1/mcp")).toBeUndefined();
  });
});

describe("the URL policy's IPv6 forms", () => {
  it("reads an address written in full and one ending in zeros", () => {
    for (const url of ["https://[2001:db8:1:2:3:4:5:6]/mcp", "https://[2001:db8::]/mcp"]) {
      expect(mcpUrlProblem(url), url).toBeUndefined();
    }
    expect(isRefusedHost("[fc00:1:2:3:4:5:6:7]")).toBe(true);
    expect(isRefusedHost("[fe80::]")).toBe(true);
  });

  it("judges an embedded IPv4 address only under the prefix that carries one", () => {
    // Each of these ends in 10.0.0.1 (a00:1) or carries it where 6to4 or Teredo would, outside
    // their prefixes: the address is judged as the IPv6 address it is, and allowed.
    for (const host of [
      "[2001:db8::ffff:a00:1]", // mapped's ffff, behind a non-zero prefix
      "[::1:a00:1]", // neither ::/96 nor ::ffff:0:0/96
      "[2001:db8::ffff:0:a00:1]", // translated's ffff:0, behind a non-zero prefix
      "[::1:0:a00:1]",
      "[::ffff:1:a00:1]",
      "[64::a00:1]", // 64::/96, not 64:ff9b::/96
      "[1:ff9b::a00:1]",
      "[64:ff9b:2::a00:1]", // inside 64:ff9b::/32 but outside /96
      "[64:ff9b:0:3::a00:1]",
      "[64:ff9b::4:0:a00:1]",
      "[64:ff9b::5:a00:1]",
      "[2400:a00:1::1]", // 6to4's spot for 10.0.0.1, not under 2002::/16
      "[2400:0:4136:e378:8000:63bf:f5ff:fffe]", // Teredo's spot for client 10.0.0.1, not under 2001::/32
    ]) {
      expect(isRefusedHost(host), host).toBe(false);
    }
  });
});

describe("what is not a host", () => {
  it("is refused, even when removing stray brackets would leave one", () => {
    for (const host of ["exa mple.com", "1[::1]", "[::1]]"]) {
      expect(isRefusedHost(host), host).toBe(true);
    }
    expect(isRefusedHost("[::1]")).toBe(false);
  });
});

describe("the URL policy's messages", () => {
  it("says the URL must be a string when it is empty or only blanks", () => {
    for (const value of ["", "   ", "\t\n", 42, undefined]) {
      expect(mcpUrlProblem(value), JSON.stringify(value)).toBe("url must be a string");
    }
    expect(() => checkMcpUrl("  ")).toThrow("url must be a string");
  });

  it("allows 2,000 characters and names the limit past them", () => {
    const base = "https://example.com/";
    const longest = `${base}${"a".repeat(2_000 - base.length)}`;
    expect(longest).toHaveLength(2_000);
    expect(mcpUrlProblem(longest)).toBeUndefined();
    expect(mcpUrlProblem(`${longest}a`)).toBe("url is longer than 2000 characters");
  });

  it("says what is not a URL is not one", () => {
    for (const value of ["not a url", "https://", "http://exa mple.com/"]) {
      expect(mcpUrlProblem(value), value).toBe("url is not a URL");
    }
  });

  it("refuses a user name alone, a password alone, or both", () => {
    for (const url of [
      "https://someone@example.com/mcp",
      "https://:secret@example.com/mcp",
      "https://someone:secret@example.com/mcp",
    ]) {
      expect(mcpUrlProblem(url), url).toBe("url may not carry a user name or password");
    }
    expect(mcpUrlProblem("https://@example.com/mcp")).toBeUndefined();
    expect(mcpUrlProblem("https://10.0.0.1/mcp")).toBe(PRIVATE);
  });
});
