/**
 * connectMcp's option checks at their edges: a url that is not a URL, and a resume record of a
 * protocol version Wisp does not speak (each a ConfigError with its path, nothing sent).
 */
import { describe, expect, it } from "vitest";
import { connectMcp } from "../../src/mcp/index.ts";
import { failure } from "../support/results.ts";

describe("connectMcp option checks", () => {
  it("names a url that is not a URL, at path url", async () => {
    const error = failure(await connectMcp({ url: "not a url" }));
    expect(error._tag).toBe("ConfigError");
    expect(error.path).toBe("url");
    expect(error.message).toBe("connectMcp: not a url is not a URL");
  });

  it("refuses a resume record of a protocol version Wisp does not speak, at path resume", async () => {
    const sent: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      sent.push(input);
      return new Response(null, { status: 500 });
    };
    const error = failure(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch,
        resume: { url: "http://mcp.test/mcp", protocolVersion: "1999-01-01", sessionId: "s" },
      }),
    );
    expect(error._tag).toBe("ConfigError");
    expect(error.path).toBe("resume");
    expect(error.message).toBe('resume.protocolVersion "1999-01-01" is not one Wisp speaks');
    expect(sent).toEqual([]);
  });
});
