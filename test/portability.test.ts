/**
 * The core is portable: a browser-platform bundle of each entry point builds with no Node built-ins
 * available, and nothing in src/ names node:*, process or Buffer. (`npm run typecheck` adds a
 * `types: []` compile of src/ that fails on any of them as well.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("portable core", () => {
  for (const entry of [
    "src/index.ts",
    "src/testing/index.ts",
    "src/bridge/index.ts",
    "src/formats/index.ts",
    "src/mcp/index.ts",
    "src/effect/index.ts",
  ]) {
    it(`${entry} bundles for the browser platform with no Node built-ins`, async () => {
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        platform: "browser",
        format: "esm",
        logLevel: "silent",
        metafile: true,
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((input) => input.startsWith("node:"))).toBe(false);
      const code = result.outputFiles.map((file) => file.text).join("");
      expect(code).not.toMatch(/\bfrom\s*["']node:|require\(["']node:|\bprocess\.|\bBuffer\./);
    });
  }

  it("no file under src/ imports node:* or touches process or Buffer", () => {
    const offenders = sourceFiles("src").filter((file) =>
      /from\s+["']node:|import\(["']node:|\bprocess\b|\bBuffer\b/.test(
        readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("nor do its doc comments' examples (a user copies them into a browser or a Worker)", () => {
    const offenders = sourceFiles("src").filter((file) =>
      /\bprocess\.\w|\bBuffer\.\w|from\s+["']node:/.test(readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
