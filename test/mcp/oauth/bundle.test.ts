/**
 * The bundle rule: a program that uses `connectMcp` without `auth` carries none of the OAuth code (the
 * transport imports only types from src/mcp/oauth; `mcpOAuth()` returns the object that holds it),
 * while a program that calls `mcpOAuth` does. Browser bundles by esbuild, tree-shaken, of the sources.
 */

import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const mcpEntry = fileURLToPath(new URL("../../../src/mcp/index.ts", import.meta.url));

async function bundle(program: string): Promise<string> {
  const result = await build({
    stdin: { contents: program, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    alias: { "wisp-agent/mcp": mcpEntry },
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

/** Strings only the OAuth code holds. */
const OAUTH_MARKERS = ["oauth-protected-resource", "code_challenge", "client_assertion", "wisp-mcp-oauth"];

describe("the OAuth code in bundles", () => {
  it("is absent from a program that connects without auth", async () => {
    const text = await bundle(
      `import { connectMcp } from "wisp-agent/mcp"; console.log(await connectMcp({ url: "https://x.example/mcp" }));`,
    );
    expect(text).toContain("mcp-session-id");
    for (const marker of OAUTH_MARKERS) expect(text).not.toContain(marker);
  });

  it("is present in a program that uses mcpOAuth", async () => {
    const text = await bundle(
      `import { connectMcp, mcpOAuth } from "wisp-agent/mcp";
       console.log(await connectMcp({ url: "https://x.example/mcp", auth: mcpOAuth({ redirectUrl: "https://app.example/cb" }) }));`,
    );
    for (const marker of ["oauth-protected-resource", "code_challenge", "wisp-mcp-oauth"])
      expect(text).toContain(marker);
  });
});
