/**
 * Size budget: browser bundles (esbuild, minified, gzip level 9) of small programs written against
 * the published build (dist/, resolved through the package's own exports), each beside the same
 * program written with Vercel's `ai` and `@ai-sdk/anthropic`. Sizes are deterministic for a given
 * lockfile, so they are asserted here; `npm run bench` writes them to bench/results.md.
 */
import { describe, expect, it } from "vitest";
import { kb, measureBundle, PROGRAMS } from "../../bench/bundle-size.mjs";

const KB = 1024;
/**
 * Our own ceilings, in gzip bytes, and at most a quarter of Vercel's `ai` (213.7 KB for both programs).
 * Issue 13 added checks of every option and error context (about 4.8 KB on the stream program, 6.5 KB
 * on the agents); the goals of 15 KB and 40 KB (issue 15) need that code split into a cheap check and
 * a lazily loaded explanation. Until then these ceilings hold the line where it is.
 */
const BUDGET: Record<string, number> = {
  stream: 17.5 * KB, // 16.9 KB when set (12.1 KB before the option checks)
  // Issue 15's goal is 15 KB; 22.3 KB when the program was added, 23.6 KB with approvals (issue 16:
  // the pause, its digest and HMAC, and resuming are part of every agent loop); 24.2 KB once sequential
  // tools held back the calls behind one that waits. Loading resume-run lazily was tried: esbuild's
  // extra shared chunks made every program about 1 KB larger.
  "agent-stream": 24.25 * KB,
  // zod's classic API alone is 21.6 KB of it; 48.2 KB when set, 46.5 KB once the state check no
  // longer used zod/mini (issue 16's pause/resume cycle).
  agent: 47 * KB,
  // zod/mini plus its toJSONSchema (a zod/mini schema cannot convert itself): 39.3 KB when set, 36.2
  // KB with Wisp's own state check.
  "agent-zod-mini": 36.5 * KB,
};

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
      expect(ours.gzip).toBeLessThanOrEqual(BUDGET[program.name] ?? 0);
      expect(ours.gzip * 4).toBeLessThanOrEqual(theirs);
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
});
