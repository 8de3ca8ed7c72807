/**
 * The API reference (issue 36): TypeDoc, with the project's typedoc.json, builds a module per package
 * export from the TSDoc with no warning at all (undocumented exports and members, broken links and
 * types used but not exported are warnings, and typedoc.json makes warnings errors); every export of
 * every entry point, runtime and type, is in it; and the same configuration really fails on an export
 * without TSDoc. TypeDoc runs as its CLI does in `npm run docs:api`, into temporary directories.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const TYPEDOC = join(createRequire(import.meta.url).resolve("typedoc/package.json"), "..", "bin", "typedoc");

/** Each package export, by subpath, and the source behind it (the entry points of typedoc.json). */
const ENTRIES: Record<string, string> = {
  ".": "src/index.ts",
  "./testing": "src/testing/index.ts",
  "./bridge": "src/bridge/index.ts",
  "./formats": "src/formats/index.ts",
  "./mcp": "src/mcp/index.ts",
  "./effect": "src/effect/index.ts",
  "./testing/node": "runtime/node/index.ts",
  "./mcp/stdio": "runtime/mcp-stdio/index.ts",
};

/** The module name TypeDoc gives a subpath: the import specifier (`wisp-agent/testing`). */
const moduleName = (subpath: string) => (subpath === "." ? "wisp-agent" : `wisp-agent${subpath.slice(1)}`);

interface TypeDocRun {
  code: number;
  /** stdout and stderr, without colours. */
  output: string;
}

/** Runs TypeDoc's CLI with `args`, from the project's root. */
function typedoc(args: string[]): Promise<TypeDocRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [TYPEDOC, ...args],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips terminal colour codes
        done({ code, output: `${stdout}${stderr}`.replace(/\u001b\[[0-9;]*m/g, "") });
      },
    );
  });
}

/** The runtime and type exports of each entry point, by subpath, read with the TypeScript compiler. */
function exportNames(): Record<string, string[]> {
  const program = ts.createProgram(Object.values(ENTRIES), {
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
  });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.entries(ENTRIES).map(([subpath, file]) => {
      const source = program.getSourceFile(file);
      const module = source && checker.getSymbolAtLocation(source);
      if (module === undefined) throw new Error(`cannot read ${file}`);
      return [subpath, checker.getExportsOfModule(module).map((symbol) => symbol.name)];
    }),
  );
}

interface Reflection {
  name: string;
  children?: Reflection[];
}

const temp = mkdtempSync(join(tmpdir(), "wisp-api-reference-"));
let run: TypeDocRun;

beforeAll(async () => {
  run = await typedoc(["--out", join(temp, "html"), "--json", join(temp, "api.json")]);
}, 60_000);

afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("the API reference (TypeDoc, typedoc.json)", () => {
  it("builds with no warning and no error", () => {
    expect(run.output).not.toMatch(/\[(warning|error)\]/);
    expect(run.code).toBe(0);
    expect(existsSync(join(temp, "html", "index.html"))).toBe(true);
  });

  it("has one module per package export, named as it is imported", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: object };
    const subpaths = Object.keys(pkg.exports).filter((subpath) => subpath !== "./package.json");
    expect(subpaths.sort()).toEqual(Object.keys(ENTRIES).sort());
    const project = JSON.parse(readFileSync(join(temp, "api.json"), "utf8")) as Reflection;
    expect((project.children ?? []).map((module) => module.name).sort()).toEqual(
      subpaths.map(moduleName).sort(),
    );
  });

  it("documents every export of every entry point, runtime and type", async () => {
    const project = JSON.parse(readFileSync(join(temp, "api.json"), "utf8")) as Reflection;
    const documented = new Map(
      (project.children ?? []).map((module) => [
        module.name,
        new Set((module.children ?? []).map((child) => child.name)),
      ]),
    );
    const missing: string[] = [];
    const names = exportNames();
    for (const [subpath, file] of Object.entries(ENTRIES)) {
      const runtime = Object.keys(await import(join(ROOT, file)));
      const all = new Set([...(names[subpath] ?? []), ...runtime]);
      expect(all.size).toBeGreaterThan(0);
      const inModule = documented.get(moduleName(subpath)) ?? new Set<string>();
      for (const name of all) if (!inModule.has(name)) missing.push(`${moduleName(subpath)}: ${name}`);
    }
    expect(missing).toEqual([]);
    // Nothing lost on the way: the main entry alone exports well over a hundred names.
    expect(documented.get("wisp-agent")?.size).toBeGreaterThan(150);
  });

  it("fails, naming it, on an export without TSDoc and on a bare member of a documented one", async () => {
    const fixture = join(temp, "fixture");
    mkdirSync(fixture);
    writeFileSync(
      join(fixture, "index.ts"),
      [
        "/** A documented function. */",
        "export function documented(): number {",
        "  return 1;",
        "}",
        "",
        "export function undocumentedThing(): number {",
        "  return 2;",
        "}",
        "",
        "/** Options with one member left bare. */",
        "export interface FixtureOptions {",
        "  /** Has TSDoc. */",
        "  covered: string;",
        "  bare: number;",
        "}",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(fixture, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", strict: true },
        include: ["index.ts"],
      }),
    );
    // The project's own configuration, pointed at the fixture.
    writeFileSync(
      join(fixture, "typedoc.json"),
      JSON.stringify({
        extends: [join(ROOT, "typedoc.json")],
        name: "fixture",
        entryPoints: ["index.ts"],
        tsconfig: "tsconfig.json",
        includeVersion: false,
        intentionallyNotExported: [],
      }),
    );
    const failed = await typedoc([
      "--options",
      join(fixture, "typedoc.json"),
      "--out",
      join(fixture, "html"),
    ]);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/undocumentedThing \(\w+\), defined in .*does not have any documentation/);
    expect(failed.output).toMatch(/FixtureOptions\.bare \(Property\).*does not have any documentation/);
    expect(failed.output).not.toMatch(/\bdocumented \(|FixtureOptions\.covered/);
  }, 60_000);
});
