/**
 * The house plan, enforced: dependency-cruiser (with .dependency-cruiser.cjs) reads every import of
 * `src/`, `runtime/` and `worker/` — type-only and dynamic ones included — and finds no circle and no
 * import against the layer order. The fixtures prove the checker catches each kind of violation, and
 * docs/architecture.md's layer table is the checker's own.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const config = `${root}.dependency-cruiser.cjs`;
const depcruise = `${root}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;
const { LAYERS } = createRequire(import.meta.url)(config) as {
  LAYERS: Array<[name: string, pattern: string, purpose: string, entries: string[]]>;
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

interface CruiseResult {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string; dependencyTypes: string[] }> }>;
  summary: { violations: Violation[]; totalCruised: number };
}

/** Runs dependency-cruiser over `paths` from `cwd` with the project's rules. */
async function cruise(cwd: string, paths: string[]): Promise<CruiseResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [depcruise, ...paths, "--config", config, "--output-type", "json"],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => {
    // dependency-cruiser exits non-zero when it finds violations; its JSON is still on stdout.
    if (error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return JSON.parse(stdout) as CruiseResult;
}

const shown = (violations: Violation[]): string[] =>
  violations.map(({ rule, from, to, cycle }) =>
    cycle === undefined
      ? `${rule.name}: ${from} → ${to}`
      : `${rule.name}: ${from} → ${cycle.map((step) => step.name).join(" → ")}`,
  );

describe("the layer order", () => {
  it("holds in src/, runtime/ and worker/: no circle, no upward import, no file outside a layer", async () => {
    const result = await cruise(root, ["src", "runtime", "worker"]);
    expect(shown(result.summary.violations)).toEqual([]);
    // Every source file was read (a resolver gone wrong would cruise nothing and find nothing).
    const sources = result.modules
      .map((module) => module.source)
      .filter((path) => /^(src|runtime|worker)\//.test(path));
    expect(sources.length).toBeGreaterThan(250);
    for (const source of sources)
      expect(
        LAYERS.some(([, pattern]) => new RegExp(pattern).test(source)),
        source,
      ).toBe(true);
    // The Worker's `wisp-agent` imports resolve to src/ (so its imports of Wisp are checked too).
    const store = result.modules.find((module) => module.source === "worker/session-store.ts");
    expect(store?.dependencies.map((dependency) => dependency.resolved)).toContain("src/index.ts");
    // Type-only and lazy imports are read.
    const types = result.modules.flatMap((module) => module.dependencies.flatMap((d) => d.dependencyTypes));
    expect(types).toContain("type-only");
    expect(types).toContain("dynamic-import");
  }, 60_000);

  it("catches an upward import (plain and type-only), a subpath importing another, and an unplaced folder", async () => {
    const result = await cruise(fileURLToPath(new URL("fixtures/upward", import.meta.url)), ["src"]);
    expect(shown(result.summary.violations).sort()).toEqual([
      "layer-errors: src/errors/failure.ts → src/agent/limit.ts",
      "layer-stream: src/stream/turn.ts → src/agent/limit-type.ts",
      "subpath-mcp: src/mcp/client.ts → src/bridge/port.ts",
      "unplaced: src/plugins/extra.ts → src/agent/limit.ts",
    ]);
  }, 60_000);

  it("catches a circle closed by a type-only import", async () => {
    const result = await cruise(fileURLToPath(new URL("fixtures/circle", import.meta.url)), ["src"]);
    expect(shown(result.summary.violations)).toEqual([
      "no-circular: src/agent/compactor.ts → src/agent/loop.ts → src/agent/compactor.ts",
    ]);
  }, 60_000);

  it("is the one docs/architecture.md shows, row by row", () => {
    const doc = readFileSync(`${root}docs/architecture.md`, "utf8");
    const rows = [...doc.matchAll(/^\|\s*(\d+)\s*\|\s*`([\w-]+)`\s*\|\s*`([^`]+)`\s*\|\s*(.+?)\s*\|$/gm)].map(
      (match) => [match[2], match[3]?.replaceAll("\\|", "|"), match[4]],
    );
    expect(rows).toEqual(LAYERS.map(([name, pattern, purpose]) => [name, pattern, purpose]));
  });

  it("opens each layer's entry files with the layer's purpose", () => {
    for (const [name, pattern, purpose, entries] of LAYERS) {
      for (const entry of entries) {
        expect(new RegExp(pattern).test(entry), entry).toBe(true);
        const head = readFileSync(`${root}${entry}`, "utf8").slice(0, 400);
        expect(head, entry).toContain(`/**\n * Layer \`${name}\` (docs/architecture.md): ${purpose}.\n`);
      }
    }
  });
});
