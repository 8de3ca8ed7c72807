/**
 * connectMcp's option checks at their edges: each refusal a ConfigError with its path and message
 * (url, unknown keys, timer delays, resume records, auth, needsApproval), nothing sent; and the
 * values at the edge of what is taken (a delay of exactly 2^31 - 1 ms, a record without a session
 * id, `needsApproval: true`) connecting.
 */
import { describe, expect, it } from "vitest";
import { connectMcp } from "../../src/mcp/index.ts";
import { failure, okValue } from "../support/results.ts";
import { sessionServer } from "./support/session-server.ts";

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

/** The ConfigError connectMcp gives for `options`, as the caller sees it. */
async function refusal(options: unknown): Promise<{ path: string | undefined; message: string }> {
  const error = failure(await connectMcp(options as never));
  expect(error._tag).toBe("ConfigError");
  return { path: (error as { path?: string }).path, message: error.message };
}

/** What a session-keeping server in place was asked (JSON-RPC methods), and its fetch. */
function recordingServer(): { methods: string[]; fetch: typeof globalThis.fetch } {
  const methods: string[] = [];
  const fetch = sessionServer((_method, message) => {
    if (message !== undefined) methods.push(String(message.method));
    return undefined;
  });
  return { methods, fetch };
}

const auth = {
  authorization: async () => undefined,
  refused: async () => false,
};

describe("connectMcp's url and option set", () => {
  it("asks for the url when options are missing, null or have no url", async () => {
    const needsUrl = { path: "url", message: "connectMcp needs a url (the server's MCP endpoint)" };
    expect(await refusal(undefined)).toEqual(needsUrl);
    expect(await refusal(null)).toEqual(needsUrl);
    expect(await refusal("http://mcp.test/mcp")).toEqual(needsUrl);
    expect(await refusal({})).toEqual(needsUrl);
  });

  it("refuses a url that is neither http nor https, naming its protocol", async () => {
    expect(await refusal({ url: "ftp://mcp.test/mcp" })).toEqual({
      path: "url",
      message: "connectMcp: the url must be http or https, not ftp:",
    });
  });

  it("names an unknown option as a connectMcp option, with the one meant", async () => {
    const { path, message } = await refusal({ url: "http://mcp.test/mcp", timeoutMS: 5 });
    expect(path).toBe("timeoutMS");
    expect(message).toMatch(/^Unknown connectMcp option "timeoutMS"/);
    expect(message).toContain('did you mean "timeoutMs"?');
  });
});

describe("connectMcp's timeoutMs and maxTotalTimeoutMs", () => {
  it("refuses 0 and one ms above the longest timer delay, saying the range", async () => {
    expect(await refusal({ url: "http://mcp.test/mcp", timeoutMs: 0 })).toEqual({
      path: "timeoutMs",
      message: "timeoutMs must be a number of milliseconds above 0 and at most 2147483647",
    });
    expect(await refusal({ url: "http://mcp.test/mcp", maxTotalTimeoutMs: 2_147_483_648 })).toEqual({
      path: "maxTotalTimeoutMs",
      message: "maxTotalTimeoutMs must be a number of milliseconds above 0 and at most 2147483647",
    });
  });

  it("connects with both at exactly the longest timer delay, 2147483647 ms", async () => {
    const server = recordingServer();
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch: server.fetch,
        listen: false,
        timeoutMs: 2_147_483_647,
        maxTotalTimeoutMs: 2_147_483_647,
      }),
    );
    expect(connection.tools.map((tool) => tool.name)).toEqual(["t"]);
    await connection.close();
  });
});

describe("connectMcp's resume record", () => {
  const url = "http://mcp.test/mcp";

  it("refuses a value that is not a record, saying where records come from", async () => {
    for (const resume of ["s-1", null, []])
      expect(await refusal({ url, resume })).toEqual({
        path: "resume",
        message: "resume must be a record from connection.record() or mcpServerRecord()",
      });
  });

  it("refuses a session id that is not a string, at resume.sessionId", async () => {
    expect(await refusal({ url, resume: { url, protocolVersion: "2025-06-18", sessionId: 7 } })).toEqual({
      path: "resume.sessionId",
      message: "resume.sessionId must be a string",
    });
  });

  it("refuses a record of another server, naming both urls", async () => {
    const resume = { url: "http://other.test/mcp", protocolVersion: "2025-06-18", sessionId: "s-1" };
    expect(await refusal({ url, resume })).toEqual({
      path: "resume.url",
      message:
        "resume was recorded for http://other.test/mcp, not http://mcp.test/mcp: a session id is never sent to another server",
    });
  });

  it("refuses a hand-made record without a url, sending its session id nowhere", async () => {
    const server = recordingServer();
    const resume = { protocolVersion: "2025-06-18", sessionId: "secret-of-another-server" };
    const connected = await connectMcp({ url, fetch: server.fetch, listen: false, resume: resume as never });
    expect(
      connected.ok ? undefined : { path: connected.error.path, message: connected.error.message },
    ).toEqual({
      path: "resume.url",
      message: "resume.url must be the URL the record was taken for (connection.record() writes it)",
    });
    expect(server.methods).toEqual([]);
  });

  it("resumes a record without a session id (a server without sessions): no initialize, tools listed", async () => {
    const server = recordingServer();
    const connection = okValue(
      await connectMcp({
        url,
        fetch: server.fetch,
        listen: false,
        resume: { url, protocolVersion: "2025-06-18" },
      }),
    );
    expect(server.methods).toEqual(["tools/list"]);
    expect(connection.tools.map((tool) => tool.name)).toEqual(["t"]);
    await connection.close();
  });
});

describe("connectMcp's auth", () => {
  const url = "http://mcp.test/mcp";

  it("refuses anything but an object with both authorization and refused functions, showing it", async () => {
    const cases: Array<[unknown, string]> = [
      [null, "null"],
      ["Bearer t", '"Bearer t"'],
      [{ authorization: auth.authorization }, "an object"],
      [{ refused: auth.refused }, "an object"],
    ];
    for (const [value, shown] of cases)
      expect(await refusal({ url, auth: value })).toEqual({
        path: "auth",
        message: `auth must be what mcpOAuth() or mcpClientCredentials() returns, got ${shown}`,
      });
  });

  it("connects with an auth object of both functions", async () => {
    const server = recordingServer();
    const connection = okValue(await connectMcp({ url, fetch: server.fetch, listen: false, auth }));
    expect(server.methods).toContain("tools/list");
    await connection.close();
  });
});

describe("connectMcp's needsApproval", () => {
  it("takes true: every tool then waits for approval", async () => {
    const server = recordingServer();
    const connection = okValue(
      await connectMcp({
        url: "http://mcp.test/mcp",
        fetch: server.fetch,
        listen: false,
        needsApproval: true,
      }),
    );
    expect(connection.tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([["t", true]]);
    await connection.close();
  });

  it("refuses a value neither boolean nor function, showing it", async () => {
    expect(await refusal({ url: "http://mcp.test/mcp", needsApproval: "always" })).toEqual({
      path: "needsApproval",
      message: 'needsApproval must be true, false or a function, got "always"',
    });
  });
});
