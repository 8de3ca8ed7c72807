/**
 * A conformance client for the official MCP suite (`@modelcontextprotocol/conformance`), written with
 * Wisp's public `wisp-agent/mcp` API only. The suite runs it as `<command> <server URL>` and sets
 * `MCP_CONFORMANCE_SCENARIO` (and `MCP_CONFORMANCE_CONTEXT`, JSON, for some scenarios). Like the
 * suite's reference client (examples/clients/typescript/everything-client.ts) it connects, lists the
 * tools, calls the scenario's tool where the reference does, and closes. Exit code 0 on success.
 *
 * Run by Node 22 with `--experimental-strip-types` straight from the sources (no build needed).
 */

import {
  connectMcp,
  type McpAuth,
  type McpConnection,
  type McpElicitationHandler,
  mcpClientCredentials,
  mcpOAuth,
} from "../../../src/mcp/index.ts";
import type { JsonObject } from "../../../src/types.ts";

/** The reference client's redirect URI and CIMD URL (the suite's authorization server redirects at once). */
const REDIRECT_URL = "http://localhost:3000/callback";
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

type Context = { [key: string]: string | undefined };

/** Follows the authorization URL without following its redirect: the `Location` is where the person comes back to. */
async function followAuthorization(authorizationUrl: string): Promise<string | undefined> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  await response.body?.cancel();
  return response.headers.get("location") ?? undefined;
}

function oauth(extra: Partial<Parameters<typeof mcpOAuth>[0]> = {}): McpAuth {
  return mcpOAuth({
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: CIMD_URL,
    clientMetadata: { clientName: "wisp-conformance-client" },
    authorize: followAuthorization,
    ...extra,
  });
}

/** Calls a tool by name; throws with the connection's message when it fails. */
async function call(connection: McpConnection, name: string, args: JsonObject): Promise<void> {
  const tool = connection.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`The server has no tool ${name}`);
  const signal = AbortSignal.timeout(20_000);
  await tool.execute(args, { signal, toolCallId: "call-1", sessionId: "conformance", turn: 1, messages: [] });
}

/** Connects (with `options`), lists the tools, calls `tool` when the server has it, and closes. */
async function run(
  url: string,
  options: { auth?: McpAuth; headers?: Record<string, string>; onElicitation?: McpElicitationHandler },
  tools: Array<[string, JsonObject]>,
): Promise<void> {
  const connected = await connectMcp({
    url,
    ...(options.onElicitation === undefined ? {} : { onElicitation: options.onElicitation }),
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (!connected.ok) throw connected.error;
  try {
    for (const [name, args] of tools)
      if (connected.value.tools.some((tool) => tool.name === name)) await call(connected.value, name, args);
  } finally {
    await connected.value.close();
  }
}

/** SEP-990: the IdP's ID token exchanged for an ID-JAG, then for an access token at the MCP server's authorization server. */
async function crossAppAccessToken(url: string, context: Context): Promise<string> {
  const prm = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url))).json()) as {
    resource: string;
    authorization_servers: string[];
  };
  const metadataUrl = new URL("/.well-known/oauth-authorization-server", prm.authorization_servers[0]);
  const metadata = (await (await fetch(metadataUrl)).json()) as { issuer: string; token_endpoint: string };
  const exchange = await fetch(context.idp_token_endpoint ?? "", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: metadata.issuer,
      resource: prm.resource,
      subject_token: context.idp_id_token ?? "",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      client_id: context.idp_client_id ?? "",
    }),
  });
  if (!exchange.ok) throw new Error(`The token exchange failed with ${exchange.status}`);
  const { access_token: idJag } = (await exchange.json()) as { access_token: string };
  const basic = btoa(
    `${encodeURIComponent(context.client_id ?? "")}:${encodeURIComponent(context.client_secret ?? "")}`,
  );
  const grant = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: idJag,
    }),
  });
  if (!grant.ok) throw new Error(`The JWT bearer grant failed with ${grant.status}`);
  return ((await grant.json()) as { access_token: string }).access_token;
}

async function main(): Promise<void> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const url = process.argv.at(-1) ?? "";
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Context;
  const basicTools: Array<[string, JsonObject]> = [
    ["add_numbers", { a: 5, b: 3 }],
    ["test_reconnection", {}],
  ];
  if (scenario === "initialize" || scenario === "tools_call" || scenario === "sse-retry")
    return run(url, {}, basicTools);
  if (scenario === "elicitation-sep1034-client-defaults") {
    // The person accepts without filling anything in: Wisp applies the schema's defaults.
    const onElicitation: McpElicitationHandler = async () => ({ action: "accept", content: {} });
    return run(url, { onElicitation }, [["test_client_elicitation_defaults", {}]]);
  }
  if (scenario === "auth/client-credentials-basic")
    return run(
      url,
      {
        auth: mcpClientCredentials({
          clientId: context.client_id ?? "",
          clientSecret: context.client_secret ?? "",
        }),
      },
      [],
    );
  if (scenario === "auth/client-credentials-jwt") {
    const algorithm = (context.signing_algorithm ?? "ES256") as "ES256";
    const auth = mcpClientCredentials({
      clientId: context.client_id ?? "",
      privateKey: context.private_key_pem ?? "",
      algorithm,
    });
    return run(url, { auth }, []);
  }
  if (scenario === "auth/pre-registration") {
    const client = { clientId: context.client_id ?? "", clientSecret: context.client_secret ?? "" };
    return run(url, { auth: oauth({ client }) }, []);
  }
  if (scenario === "auth/cross-app-access-complete-flow") {
    const token = await crossAppAccessToken(url, context);
    return run(url, { headers: { authorization: `Bearer ${token}` } }, [["test-tool", {}]]);
  }
  if (scenario.startsWith("auth/")) return run(url, { auth: oauth() }, [["test-tool", {}]]);
  throw new Error(`Unknown scenario ${scenario}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error("Error:", error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exit(1);
  },
);
