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

/** A registration endpoint giving `answer`; `bodies` holds the JSON of each registration sent. */
function endpoint(answer: () => Response): { fetch: typeof globalThis.fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, bodies };
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
});
