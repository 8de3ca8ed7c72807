/**
 * Programs that do not import `wisp-agent/effect` gain zero bytes from it. Each program is bundled
 * for the browser (esbuild, minified, one file, dynamic imports included) twice: as it is, and with
 * `effect` and Wisp's own `src/effect` / `dist/src/effect` made unresolvable — an import of either,
 * even one a bundler would shake out, then fails the build. Both builds must succeed and give the
 * same bytes, and no module of either is among the first build's inputs. A control shows the blocked
 * build does fail, and the normal one does carry `effect`, for a program that imports the entry.
 */
import { type BuildResult, build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";

/** What `effect` and Wisp's Effect module look like to a bundler, as import paths and resolved files. */
const EFFECT_IMPORT = /^effect(\/|$)/;
const EFFECT_FILE = /node_modules\/effect\/|(^|\/)(dist\/)?src\/effect\//;

/** Makes every import of `effect`, and every import that resolves into an Effect module, fail. */
const withoutEffect: Plugin = {
  name: "without-effect",
  setup(builder) {
    builder.onResolve({ filter: EFFECT_IMPORT }, (args) => ({
      errors: [{ text: `${args.importer} imports ${args.path}` }],
    }));
    builder.onResolve({ filter: /\/effect\// }, (args) =>
      args.path.startsWith(".") && EFFECT_FILE.test(`${args.resolveDir}/${args.path}`)
        ? { errors: [{ text: `${args.importer} imports ${args.path}` }] }
        : undefined,
    );
  },
};

/** Bundles a program (its source text, resolved from the project root) into one browser file. */
function bundle(
  contents: string,
  plugins: Plugin[] = [],
): Promise<BuildResult<{ metafile: true; write: false }>> {
  return build({
    stdin: { contents, resolveDir: process.cwd(), loader: "ts", sourcefile: "program.ts" },
    bundle: true,
    minify: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    outfile: "bundle.js",
    metafile: true,
    logLevel: "silent",
    plugins,
  });
}

const PROGRAMS = {
  "the whole main entry (sources)": 'export * from "./src/index.ts";',
  "the whole main entry (published build)": 'export * from "wisp-agent";',
  "an agent run streamed with runAgentStream (published build)": [
    'import { runAgentStream } from "wisp-agent";',
    'const run = runAgentStream({ model: "anthropic/claude-sonnet-4-5", apiKey: "key", prompt: "Hi" });',
    "for await (const event of run) if (event.type === 'text-delta') console.log(event.delta);",
  ].join("\n"),
  "a session (published build)": [
    'import { createAgentSession, unwrap } from "wisp-agent";',
    'await using session = unwrap(await createAgentSession({ model: "anthropic/claude-sonnet-4-5", apiKey: "key" }));',
    'console.log(await session.chat("Hi"));',
  ].join("\n"),
};

describe("programs that do not import wisp-agent/effect", () => {
  for (const [name, program] of Object.entries(PROGRAMS)) {
    it(`${name}: no Effect module is bundled, and the bytes equal a build where effect cannot be resolved`, async () => {
      const normal = await bundle(program);
      const blocked = await bundle(program, [withoutEffect]);
      const inputs = Object.keys(normal.metafile.inputs);
      expect(inputs.length).toBeGreaterThan(50);
      expect(inputs.filter((input) => EFFECT_FILE.test(input))).toEqual([]);
      const ours = normal.outputFiles[0]?.text ?? "";
      const without = blocked.outputFiles[0]?.text ?? "";
      expect(ours.length).toBeGreaterThan(10_000);
      expect(ours).toBe(without);
    }, 60_000);
  }
});

describe("the check itself", () => {
  const EFFECT_PROGRAM = [
    'import { Effect } from "effect";',
    'import { runAgentEffect } from "wisp-agent/effect";',
    'const program = runAgentEffect({ model: "anthropic/claude-sonnet-4-5", apiKey: "key", prompt: "Hi" });',
    "console.log(await Effect.runPromise(program));",
  ].join("\n");

  it("a program importing wisp-agent/effect bundles effect, and fails to build when effect is blocked", async () => {
    const normal = await bundle(EFFECT_PROGRAM);
    const inputs = Object.keys(normal.metafile.inputs);
    expect(inputs.some((input) => input.includes("node_modules/effect/"))).toBe(true);
    expect(inputs.some((input) => input.includes("dist/src/effect/"))).toBe(true);
    await expect(bundle(EFFECT_PROGRAM, [withoutEffect])).rejects.toThrow(/imports effect/);
  }, 60_000);

  it("an unused import of Wisp's Effect module also fails the blocked build", async () => {
    const unused = 'import "./src/effect/run-effect.ts";\nexport * from "./src/index.ts";';
    await expect(bundle(unused, [withoutEffect])).rejects.toThrow(/imports/);
    const unusedEffect = 'import "effect/Stream";\nexport * from "./src/index.ts";';
    await expect(bundle(unusedEffect, [withoutEffect])).rejects.toThrow(/imports effect\/Stream/);
  }, 60_000);
});
