/**
 * Size budget: browser bundles (esbuild, minified, gzip level 9) of small programs written against
 * the published build (dist/, resolved through the package's own exports), each beside the same
 * program written with Vercel's `ai` and `@ai-sdk/anthropic`. `npm run bench` reports the sizes
 * (bench/results.md); this test gates what matters to users: each program at most a quarter of its
 * `ai` twin (the hard line), and under its ceiling, a round number about 1 KB above its measured size
 * that catches a regression (see BUDGET in bench/bundle-size.mjs).
 */
import { describe, expect, it } from "vitest";
import { BUDGET, kb, MCP_PROGRAMS, measureBundle, PROGRAMS } from "../../bench/bundle-size.mjs";

const path = (file: string) => `bench/size/${file}`;
const aiSizes = new Map<string, Promise<number>>();
const aiSize = (file: string) => {
  if (!aiSizes.has(file))
    aiSizes.set(
      file,
      measureBundle(path(file)).then((size) => size.gzip),
    );
  return aiSizes.get(file) as Promise<number>;
};

describe("browser bundle sizes", () => {
  for (const program of PROGRAMS) {
    it(`${program.name}: ${program.what} stays within ${kb(BUDGET[program.name] ?? 0)} KB and a quarter of ai`, async () => {
      const ours = await measureBundle(path(program.file));
      const theirs = await aiSize(program.ai);
      const measured = `${kb(ours.gzip)} KB (ai: ${kb(theirs)} KB)`;
      expect(ours.gzip * 4, measured).toBeLessThanOrEqual(theirs);
      expect(ours.gzip, measured).toBeLessThanOrEqual(BUDGET[program.name] ?? 0);
      // Never the scripted model or anything Node-only.
      expect(ours.inputs.filter((input) => /dist\/(src\/testing|runtime)\//.test(input))).toEqual([]);
      if (program.name !== "agent") {
        expect(ours.inputs.filter((input) => input.includes("node_modules/zod/v4/classic/"))).toEqual([]);
      }
    }, 60_000);
  }

  it("counts the Anthropic provider the program loads, not the providers it never loads", async () => {
    const stream = await measureBundle(path("wisp-stream.ts"));
    expect(stream.inputs.some((input) => input.includes("dist/src/providers/anthropic/stream.js"))).toBe(
      true,
    );
    expect(
      stream.inputs.filter((input) => /providers\/(openai-chat|openai-responses|google)\//.test(input)),
    ).toEqual([]);
    expect(stream.skipped).toBeGreaterThan(0);
  }, 60_000);

  it("a program that defines no schema carries no zod at all", async () => {
    const stream = await measureBundle(path("wisp-stream.ts"));
    expect(stream.inputs.some((input) => input.includes("dist/src/stream/stream-turn.js"))).toBe(true);
    expect(stream.inputs.filter((input) => input.includes("node_modules/zod/"))).toEqual([]);
  }, 60_000);

  it("a program that does not use MCP carries none of it; one that connects without auth, none of OAuth", async () => {
    const mcpFiles = (inputs: string[]) => inputs.filter((input) => input.includes("dist/src/mcp/"));
    const oauthFiles = (inputs: string[]) => inputs.filter((input) => input.includes("dist/src/mcp/oauth/"));
    for (const program of [...PROGRAMS, MCP_PROGRAMS[0]]) {
      if (program === undefined) continue;
      expect(mcpFiles((await measureBundle(path(program.file))).inputs), program.file).toEqual([]);
    }
    const [, mcp, oauth] = await Promise.all(
      MCP_PROGRAMS.map((program) => measureBundle(path(program.file))),
    );
    expect(mcpFiles(mcp?.inputs ?? [])).toContain("dist/src/mcp/mcp-http.js");
    expect(oauthFiles(mcp?.inputs ?? [])).toEqual([]);
    expect(oauthFiles(oauth?.inputs ?? [])).toContain("dist/src/mcp/oauth/mcp-oauth.js");
  }, 120_000);

  it("a program that passes no telemetry downloads none of it (the tracing code is loaded on demand)", async () => {
    for (const program of [...PROGRAMS, ...MCP_PROGRAMS]) {
      const { inputs } = await measureBundle(path(program.file));
      expect(
        inputs.filter((input) => input.includes("dist/src/telemetry/")),
        program.file,
      ).toEqual([]);
    }
  }, 120_000);
});
