/**
 * Dynamic client registration (src/mcp/oauth/registration.ts) against a fake registration endpoint:
 * the app's metadata sent, a refusal with and without an OAuth error (message, code, status, request),
 * an answer without a client_id, and a server with no registration endpoint.
 */
import { describe, expect, it } from "vitest";
import type { AuthorizationServer } from "../../../src/mcp/oauth/discovery.ts";
import { registerClient } from "../../../src/mcp/oauth/registration.ts";
import { rejection } from "../../support/results.ts";

const REGISTER = "https://as.example/register";
const REDIRECT = "http://127.0.0.1:9/callback";
const server: AuthorizationServer = {
  issuer: "https://as.example",
  authorizationEndpoint: "https://as.example/authorize",
  tokenEndpoint: "https://as.example/token",
  registrationEndpoint: REGISTER,
  clientIdMetadataDocuments: false,
  fallback: false,
};

/**
 * A registration endpoint giving `answer`; `bodies` holds the JSON of each registration sent, `headers`
 * its headers.
 */
function endpoint(answer: () => Response): {
  fetch: typeof globalThis.fetch;
  bodies: unknown[];
  headers: Headers[];
} {
  const bodies: unknown[] = [];
  const headers: Headers[] = [];
  const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    headers.push(new Headers(init?.headers));
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, bodies, headers };
}

const signal = new AbortController().signal;

describe("registerClient", () => {
  it("sends the app's home page, logo and contacts", async () => {
    const net = endpoint(() => Response.json({ client_id: "c1" }, { status: 201 }));
    const metadata = {
      clientName: "Notes",
      clientUri: "https://app.example",
      logoUri: "https://app.example/logo.png",
      contacts: ["ops@app.example"],
    };
    expect(await registerClient(server, REDIRECT, metadata, net.fetch, signal)).toEqual({ clientId: "c1" });
    expect(net.bodies[0]).toMatchObject({
      client_name: "Notes",
      client_uri: "https://app.example",
      logo_uri: "https://app.example/logo.png",
      contacts: ["ops@app.example"],
    });
  });

  it("fails with the server's OAuth error, its status and the request when it refuses", async () => {
    const net = endpoint(() =>
      Response.json({ error: "invalid_redirect_uri", error_description: "no" }, { status: 400 }),
    );
    const error = await rejection(registerClient(server, REDIRECT, {}, net.fetch, signal));
    expect(error).toMatchObject({
      _tag: "ProviderError",
      code: "AUTH",
      providerCode: "invalid_redirect_uri",
      status: 400,
      request: { method: "POST", url: REGISTER },
    });
    expect(error.message).toBe(
      `The authorization server refused to register the client with 400: invalid_redirect_uri (POST ${REGISTER})`,
    );
  });

  it("fails with registration_failed when it refuses without an OAuth error, even with a client_id", async () => {
    const net = endpoint(() => Response.json({ client_id: "c1" }, { status: 500 }));
    const error = await rejection(registerClient(server, REDIRECT, {}, net.fetch, signal));
    expect(error).toMatchObject({ code: "AUTH", providerCode: "registration_failed", status: 500 });
    expect(error.message).toBe(
      `The authorization server refused to register the client with 500 (POST ${REGISTER})`,
    );
  });

  it("fails with registration_failed, naming the request, when the answer has no client_id", async () => {
    const net = endpoint(() => Response.json({ client_secret: "x" }, { status: 201 }));
    const error = await rejection(registerClient(server, REDIRECT, {}, net.fetch, signal));
    expect(error).toMatchObject({
      code: "AUTH",
      providerCode: "registration_failed",
      request: { method: "POST", url: REGISTER },
    });
    expect(error.message).toBe(`The client registration's answer has no client_id (POST ${REGISTER})`);
  });

  it("fails with no_client, sending nothing, when the server has no registration endpoint", async () => {
    const net = endpoint(() => Response.json({ client_id: "c1" }));
    const { registrationEndpoint: _, ...unregistering } = server;
    const error = await rejection(registerClient(unregistering, REDIRECT, {}, net.fetch, signal));
    expect(error).toMatchObject({ code: "AUTH", providerCode: "no_client" });
    expect(error.message).toBe("The authorization server offers no client registration");
    expect(net.bodies).toEqual([]);
  });

  it("sends as JSON the default name, the redirect URI, the code and refresh grants and the code response type", async () => {
    const net = endpoint(() => Response.json({ client_id: "c1" }, { status: 201 }));
    await registerClient(server, REDIRECT, {}, net.fetch, signal);
    expect(net.bodies).toEqual([
      {
        client_name: "wisp-agent",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ]);
    expect(net.headers[0]?.get("content-type")).toBe("application/json");
    expect(net.headers[0]?.get("accept")).toBe("application/json");
  });

  it("asks for none, else client_secret_basic, else client_secret_post, among the methods the server lists", async () => {
    const cases: [string[], string | undefined][] = [
      [["client_secret_post", "client_secret_basic", "none"], "none"],
      [["client_secret_post", "client_secret_basic"], "client_secret_basic"],
      [["private_key_jwt", "client_secret_post"], "client_secret_post"],
      [["private_key_jwt"], undefined],
    ];
    for (const [listed, expected] of cases) {
      const net = endpoint(() => Response.json({ client_id: "c1" }, { status: 201 }));
      const listing = { ...server, tokenEndpointAuthMethods: listed };
      const registration = await registerClient(listing, REDIRECT, {}, net.fetch, signal);
      expect((net.bodies[0] as { token_endpoint_auth_method?: string }).token_endpoint_auth_method).toBe(
        expected,
      );
      expect(registration.tokenEndpointAuthMethod).toBe(expected);
    }
  });

  it("asks for the app's own method, even one the server does not list", async () => {
    const net = endpoint(() => Response.json({ client_id: "c1" }, { status: 201 }));
    const listing = { ...server, tokenEndpointAuthMethods: ["none"] };
    const metadata = { tokenEndpointAuthMethod: "client_secret_post" as const };
    const registration = await registerClient(listing, REDIRECT, metadata, net.fetch, signal);
    expect(net.bodies[0]).toMatchObject({ token_endpoint_auth_method: "client_secret_post" });
    expect(registration).toEqual({ clientId: "c1", tokenEndpointAuthMethod: "client_secret_post" });
  });

  it("fails with registration_failed when the answer's client_id is empty", async () => {
    const net = endpoint(() => Response.json({ client_id: "" }, { status: 201 }));
    const error = await rejection(registerClient(server, REDIRECT, {}, net.fetch, signal));
    expect(error).toMatchObject({ code: "AUTH", providerCode: "registration_failed" });
  });

  it("keeps a client_secret, but not an empty one", async () => {
    const secret = endpoint(() => Response.json({ client_id: "c1", client_secret: "s" }, { status: 201 }));
    expect(await registerClient(server, REDIRECT, {}, secret.fetch, signal)).toEqual({
      clientId: "c1",
      clientSecret: "s",
    });
    const empty = endpoint(() => Response.json({ client_id: "c1", client_secret: "" }, { status: 201 }));
    expect(await registerClient(server, REDIRECT, {}, empty.fetch, signal)).toEqual({ clientId: "c1" });
  });
});
