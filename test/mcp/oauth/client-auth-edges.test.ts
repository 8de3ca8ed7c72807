/**
 * How a client authenticates at the token endpoint: the method chosen from its registration, its
 * secret and what the authorization server lists, and what each method puts on the token request.
 */
import { describe, expect, it } from "vitest";
import { applyClientAuth, chooseAuthMethod } from "../../../src/mcp/oauth/client-auth.ts";

describe("chooseAuthMethod", () => {
  it("keeps each method the registration names, with or without a secret", () => {
    expect(
      chooseAuthMethod({ clientId: "c", tokenEndpointAuthMethod: "client_secret_basic" }, undefined),
    ).toBe("client_secret_basic");
    expect(
      chooseAuthMethod({ clientId: "c", clientSecret: "s", tokenEndpointAuthMethod: "none" }, undefined),
    ).toBe("none");
    expect(
      chooseAuthMethod(
        { clientId: "c", clientSecret: "s", tokenEndpointAuthMethod: "client_secret_post" },
        undefined,
      ),
    ).toBe("client_secret_post");
  });

  it("does not take a registered method Wisp does not speak, or one the server does not list", () => {
    expect(
      chooseAuthMethod(
        { clientId: "c", clientSecret: "s", tokenEndpointAuthMethod: "private_key_jwt" },
        undefined,
      ),
    ).toBe("client_secret_basic");
    expect(
      chooseAuthMethod({ clientId: "c", clientSecret: "s", tokenEndpointAuthMethod: "client_secret_post" }, [
        "client_secret_basic",
      ]),
    ).toBe("client_secret_basic");
  });

  it("takes an empty secret as no secret", () => {
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "" }, undefined)).toBe("none");
  });

  it("uses none for a client with a secret when the server lists only none", () => {
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s" }, ["none"])).toBe("none");
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s" }, ["private_key_jwt"])).toBe(
      "client_secret_basic",
    );
  });
});

describe("applyClientAuth", () => {
  it("with none sends the client_id alone, never the secret", () => {
    const headers = new Headers();
    const body = new URLSearchParams();
    applyClientAuth("none", { clientId: "app", clientSecret: "s" }, headers, body);
    expect([...body]).toEqual([["client_id", "app"]]);
    expect(headers.get("authorization")).toBeNull();
  });
});
