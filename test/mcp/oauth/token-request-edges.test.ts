/**
 * requestToken, the token endpoint's POST, against a recording fetch: the headers and form it sends,
 * how a refusal reads (the OAuth error and description, or Wisp's own code; credentials quoted by the
 * server redacted, the bare Basic credentials too), and answers that are not a token response (not
 * JSON, no access_token, an empty one, one past the size cap) or leave out the token type; which
 * optional fields of an answer are kept (an empty refresh_token and an expires_in of 0 or less are
 * not); and isTokenSet, which tells a stored token set from anything else.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProviderError } from "../../../src/errors/sdk-error.ts";
import { isTokenSet, requestToken, type TokenRequest } from "../../../src/mcp/oauth/token-request.ts";
import { useFakeClock } from "../../support/fake-time.ts";

const ENDPOINT = "https://as.example/token";

/** A fetch that answers every call with `answer()` and records what it was given. */
function recordingFetch(answer: () => Response) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): TokenRequest {
  return { endpoint: ENDPOINT, body: new URLSearchParams(form), headers: new Headers(headers) };
}

/** What requestToken rejects with, as a ProviderError. */
async function refusal(request: TokenRequest, answer: () => Response): Promise<ProviderError> {
  const { fetch } = recordingFetch(answer);
  const error = await requestToken(request, fetch, new AbortController().signal).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("requestToken: what it sends", () => {
  it("POSTs the form with a form content type, asks for JSON, and does not follow redirects", async () => {
    const { fetch, calls } = recordingFetch(() =>
      Response.json({ access_token: "at-1", token_type: "Bearer" }),
    );
    await requestToken(
      tokenRequest({ grant_type: "refresh_token", refresh_token: "rt" }),
      fetch,
      new AbortController().signal,
    );
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0] ?? { url: "", init: {} };
    expect(url).toBe(ENDPOINT);
    expect(init.method).toBe("POST");
    expect(init.redirect).toBe("manual");
    expect(init.body).toBe("grant_type=refresh_token&refresh_token=rt");
    const headers = new Headers(init.headers);
    expect(headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(headers.get("accept")).toBe("application/json");
  });
});

describe("requestToken: a refusal", () => {
  it("names the grant, the status, the OAuth error and its description, and the request", async () => {
    const error = await refusal(tokenRequest({ grant_type: "authorization_code", code: "c" }), () =>
      Response.json({ error: "invalid_grant", error_description: "the code expired" }, { status: 400 }),
    );
    expect(error.message).toBe(
      `The authorization server refused the token request (authorization_code) with 400: invalid_grant (the code expired) (POST ${ENDPOINT})`,
    );
    expect(error.code).toBe("AUTH");
    expect(error.providerCode).toBe("invalid_grant");
    expect(error.status).toBe(400);
    expect(error.request).toEqual({ method: "POST", url: ENDPOINT });
  });

  it("shows an OAuth error without a description as the code alone", async () => {
    const error = await refusal(tokenRequest({ grant_type: "client_credentials" }), () =>
      Response.json({ error: "invalid_client" }, { status: 401 }),
    );
    expect(error.message).toBe(
      `The authorization server refused the token request (client_credentials) with 401: invalid_client (POST ${ENDPOINT})`,
    );
    expect(error.providerCode).toBe("invalid_client");
  });

  it("gives token_request_failed when the refusal is not an OAuth error", async () => {
    const error = await refusal(
      tokenRequest({ grant_type: "refresh_token", refresh_token: "rt" }),
      () => new Response("<html>bad gateway</html>", { status: 502 }),
    );
    expect(error.message).toBe(
      `The authorization server refused the token request (refresh_token) with 502 (POST ${ENDPOINT})`,
    );
    expect(error.providerCode).toBe("token_request_failed");
    expect(error.status).toBe(502);
  });

  it("redacts the Basic credentials the server quotes, with or without the `Basic ` prefix", async () => {
    const credentials = btoa("client-id:the-client-secret");
    const error = await refusal(
      tokenRequest({ grant_type: "client_credentials" }, { authorization: `Basic ${credentials}` }),
      () =>
        Response.json(
          { error: "invalid_client", error_description: `bad ${credentials} from Basic ${credentials}` },
          { status: 401 },
        ),
    );
    expect(error.message).not.toContain(credentials);
    expect(error.message).toContain("invalid_client (bad [redacted] from [redacted])");
  });
});

describe("requestToken: an answer that is not a token response", () => {
  const request = () => tokenRequest({ grant_type: "refresh_token", refresh_token: "rt" });

  it("refuses text that is not JSON", async () => {
    const error = await refusal(request(), () => new Response("access_token=at", { status: 200 }));
    expect(error.message).toBe(
      `The token endpoint answered with something that is not JSON (POST ${ENDPOINT})`,
    );
    expect(error.code).toBe("AUTH");
    expect(error.providerCode).toBe("invalid_token_response");
  });

  it("refuses an answer with no access_token, and one whose access_token is empty", async () => {
    for (const answer of [{ token_type: "Bearer" }, { access_token: "", token_type: "Bearer" }]) {
      const error = await refusal(request(), () => Response.json(answer));
      expect(error.message).toBe(`The token endpoint's answer has no access_token (POST ${ENDPOINT})`);
      expect(error.providerCode).toBe("invalid_token_response");
    }
  });

  it("reads no more than 256 KiB of the answer: a longer one is not taken as tokens", async () => {
    const padded = JSON.stringify({ access_token: "at-1", padding: "x".repeat(256 * 1024) });
    const error = await refusal(request(), () => new Response(padded, { status: 200 }));
    expect(error.providerCode).toBe("invalid_token_response");
  });

  it("takes a token answer without token_type as Bearer", async () => {
    const { fetch } = recordingFetch(() => Response.json({ access_token: "at-1" }));
    const tokens = await requestToken(request(), fetch, new AbortController().signal);
    expect(tokens).toEqual({ accessToken: "at-1", tokenType: "Bearer" });
  });
});

describe("requestToken: the optional fields of a token answer", () => {
  const request = () => tokenRequest({ grant_type: "refresh_token", refresh_token: "rt" });
  const tokensFor = (answer: Record<string, unknown>) =>
    requestToken(request(), recordingFetch(() => Response.json(answer)).fetch, new AbortController().signal);

  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps a refresh_token, but not an empty one", async () => {
    expect(await tokensFor({ access_token: "at-1", refresh_token: "rt-2" })).toEqual({
      accessToken: "at-1",
      tokenType: "Bearer",
      refreshToken: "rt-2",
    });
    expect(await tokensFor({ access_token: "at-1", refresh_token: "" })).toEqual({
      accessToken: "at-1",
      tokenType: "Bearer",
    });
  });

  it("turns a positive expires_in into an expiry that many seconds from now, and sets none for 0 or less", async () => {
    useFakeClock();
    expect(await tokensFor({ access_token: "at-1", expires_in: 3600 })).toEqual({
      accessToken: "at-1",
      tokenType: "Bearer",
      expiresAt: 3_600_000,
    });
    for (const expiresIn of [0, -60]) {
      expect(await tokensFor({ access_token: "at-1", expires_in: expiresIn })).toEqual({
        accessToken: "at-1",
        tokenType: "Bearer",
      });
    }
  });
});

describe("isTokenSet", () => {
  it("takes an object with a string accessToken", () => {
    expect(isTokenSet({ accessToken: "at-1", tokenType: "Bearer" })).toBe(true);
  });

  it("refuses null, undefined, a string and an object without a string accessToken, without throwing", () => {
    for (const value of [null, undefined, "at-1", {}, { accessToken: 1 }])
      expect(isTokenSet(value)).toBe(false);
  });
});
