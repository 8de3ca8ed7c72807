/**
 * bench/mutation-report.mjs turns Stryker's JSON report into bench/mutation-results.md (issue 41):
 * the score per folder, each folder's first complete run kept as its "before", and the mutants marked
 * equivalent in the source listed with their reasons. Each report is condensed into the kept results
 * (bench/mutation-kept.json), which outlive Stryker's uncommitted files. Fed small made-up reports:
 * Stryker does not run here.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  condense,
  extendBaseline,
  hasMutableCode,
  isMarkedEquivalent,
  judgedMatches,
  keepIncremental,
  mergeKept,
  renderNote,
  restoreIncremental,
  sha256,
  tally,
} from "../../bench/mutation-report.mjs";

const at = (line: number) => ({ start: { line, column: 1 }, end: { line, column: 7 } });
const mutant = (status: string, line: number, extra: Record<string, unknown> = {}) => ({
  id: String(line),
  mutatorName: "ConditionalExpression",
  replacement: "true",
  status,
  location: at(line),
  ...extra,
});

const REPORT = {
  files: {
    "src/http/a.ts": {
      source: "if (x) y();\nif (z) w();\nif (q) r();\nif (s) t();\n",
      mutants: [
        mutant("Killed", 1),
        mutant("Survived", 2),
        mutant("Ignored", 3, { statusReason: "equivalent: the check only saves a search" }),
        mutant("Ignored", 4, { statusReason: 'Static mutant (and "ignoreStatic" was enabled)' }),
      ],
    },
    "src/errors/b.ts": { source: "x\n", mutants: [mutant("Killed", 1)] },
  },
};
const KEPT = condense(REPORT);
const WHEN = { date: new Date("2026-11-27T06:00:00Z"), commit: "abc1234" };

describe("the mutation report", () => {
  it("scores detected over valid mutants, leaving ignored and compile errors out", () => {
    expect(tally(REPORT.files["src/http/a.ts"].mutants).score).toBe(50);
  });

  it("tells a mutant marked equivalent by a comment from a static one", () => {
    const [, , marked, staticOne] = REPORT.files["src/http/a.ts"].mutants;
    expect(isMarkedEquivalent(marked)).toBe(true);
    expect(isMarkedEquivalent(staticOne)).toBe(false);
    expect(isMarkedEquivalent(mutant("Survived", 9))).toBe(false);
  });

  it("takes a folder's before from its first complete run only, and keeps it", () => {
    const sources = (folder: string) =>
      folder === "src/http" ? ["src/http/a.ts"] : ["src/errors/b.ts", "src/errors/c.ts"];
    const first = extendBaseline({}, KEPT, { ...WHEN, sources });
    expect(Object.keys(first)).toEqual(["src/http"]); // src/errors/c.ts has not run yet
    expect(first["src/http"]).toMatchObject({ date: "2026-11-27", commit: "abc1234", score: 50 });
    const later = {
      files: { "src/http/a.ts": { ...REPORT.files["src/http/a.ts"], mutants: [mutant("Killed", 1)] } },
    };
    expect(extendBaseline(first, condense(later), { ...WHEN, sources })["src/http"]?.score).toBe(50);
  });

  it("writes the before and after per folder, the survivors, and the equivalent ones with their reasons", () => {
    const baseline = {
      "src/http": {
        date: "2026-11-26",
        commit: "0cc438a",
        score: 25,
        counts: { Survived: 3, NoCoverage: 0 },
      },
    };
    const sources = (folder: string) =>
      folder === "src/http" ? ["src/http/a.ts"] : [`${folder}/b.ts`, `${folder}/c.ts`];
    const currentSource = (file: string) => REPORT.files[file as keyof typeof REPORT.files]?.source;
    const note = renderNote(KEPT, [], { ...WHEN, baseline, sources, currentSource });
    expect(note).toContain("| src/errors (part) |");
    expect(note).toMatch(
      /\| src\/ \| 66\.67 % \(not met so far\) \| 85 % \| src\/http, src\/errors \(part\) \|/,
    );
    expect(note).toContain("| src/http | 25.00 % (2026-11-26, 0cc438a) | 3 | 50.00 % | 1 |");
    expect(note).toMatch(
      /### src\/http \(1 to kill or judge, 0 judged\)\n\n- src\/http\/a\.ts:2:1 ConditionalExpression: `if \(z\)` → `true`/,
    );
    expect(note).toContain(
      "- src/http/a.ts:3:1 ConditionalExpression → `true`: equivalent: the check only saves a search",
    );
    expect(note).not.toContain("a.ts:4:1");
    // A folder whose source changed since the run does not list its (possibly stale) equivalent ones.
    const changed = renderNote(KEPT, [], { ...WHEN, baseline, sources, currentSource: () => "edited" });
    expect(changed).toContain("The folder's source changed since this run");
    expect(changed).not.toContain("a.ts:3:1");
  });

  it("says when a folder's before is the finished part of an interrupted first run", () => {
    const baseline = {
      "src/http": {
        date: "2026-11-26",
        commit: "0cc438a",
        part: "2 of 9 mutants",
        score: 25,
        counts: { Survived: 3, NoCoverage: 0 },
      },
    };
    const sources = (folder: string) => (folder === "src/http" ? ["src/http/a.ts"] : [`${folder}/b.ts`]);
    const currentSource = (file: string) => REPORT.files[file as keyof typeof REPORT.files]?.source;
    const note = renderNote(KEPT, [], { ...WHEN, baseline, sources, currentSource });
    expect(note).toContain("| src/http | 25.00 % (2026-11-26, 0cc438a, 2 of 9 mutants) | 3 | 50.00 % | 1 |");
  });

  it("lists a survivor judged in bench/mutation-equivalent.json apart, with its reason, matched by its line's text", () => {
    const entry = {
      file: "src/http/a.ts",
      line: "if (z) w();",
      mutator: "ConditionalExpression",
      original: "if (z)",
      replacement: "true",
      reason: "only a search more",
    };
    const source = REPORT.files["src/http/a.ts"].source;
    const keptAt = (line: number, text = source) => {
      const { results } = condense({
        files: { "src/http/a.ts": { source: text, mutants: [mutant("Survived", line)] } },
      });
      const kept = results[0]?.mutants[0];
      if (kept === undefined) throw new Error("condense kept no survivor");
      return kept;
    };
    const survivor = keptAt(2);
    expect(survivor).toMatchObject({ file: "src/http/a.ts", original: "if (z)", line: "if (z) w();" });
    expect(judgedMatches(entry, survivor)).toBe(true);
    // Another line, replacement or mutator is another mutant.
    expect(judgedMatches(entry, keptAt(3))).toBe(false);
    expect(judgedMatches({ ...entry, replacement: "false" }, survivor)).toBe(false);
    expect(judgedMatches({ ...entry, mutator: "BlockStatement" }, survivor)).toBe(false);
    // The same line moved down by an edit above still matches.
    expect(judgedMatches(entry, keptAt(3, `// new\n${source}`))).toBe(true);
    const stale = { ...entry, line: "if (gone) x();", original: "if (gone)" };
    const note = renderNote(KEPT, [], { ...WHEN, judged: [entry, stale] });
    expect(note).toContain("### src/http (0 to kill or judge, 1 judged)");
    expect(note).toContain(
      "- src/http/a.ts:2:1 ConditionalExpression: `if (z)` → `true` — only a search more",
    );
    expect(note).toMatch(
      /match no survivor[^\n]*\n\n- src\/http\/a\.ts ConditionalExpression: `if \(gone\)` → `true`/,
    );
  });

  it("expects no results for a file of types, numeric constants or a bare call only: Stryker finds nothing to mutate there", () => {
    expect(
      hasMutableCode("export interface A { x: number }\nexport type B = A | string;\nexport const V = 2;\n"),
    ).toBe(false);
    expect(hasMutableCode('import type { A } from "./a.ts";\nexport type { A };\n')).toBe(false);
    expect(hasMutableCode("/** (a comment with parentheses) */\nexport type C = { f(): void };\n")).toBe(
      false,
    );
    expect(
      hasMutableCode('export { a, type B } from "./a.ts";\nexport * from "./c.ts";\nimport "./d.ts";\n'),
    ).toBe(false);
    // worker/index.ts: Stryker's report has no entry for a file whose only code is such a call.
    expect(hasMutableCode('import { a } from "./a.ts";\nexport default a();\n')).toBe(false);
    expect(hasMutableCode('import { a } from "./a.ts";\nexport const b = a("x");\n')).toBe(true);
    expect(hasMutableCode("export const b = s.trim();")).toBe(true);
    expect(hasMutableCode("export const b = a()();")).toBe(true);
    expect(hasMutableCode("export const V = -2;")).toBe(true);
    expect(hasMutableCode('export const NAME = "x";')).toBe(true);
    expect(hasMutableCode("export function f(): void {}")).toBe(true);
  });

  it("keeps each file's counts, listed mutants and source hash, so a later run updates only its files", () => {
    const http = KEPT.results.find((result) => "src/http/a.ts" in result.files);
    expect(http?.files["src/http/a.ts"]).toBe(sha256(REPORT.files["src/http/a.ts"].source));
    // Killed and static ones are counted; the survivor and the one marked equivalent are kept whole.
    expect(http?.counts).toEqual({ Killed: 1, Ignored: 1 });
    expect(http?.mutants.map((kept) => kept.status)).toEqual(["Survived", "Ignored"]);
    // Round trip: the counts and score are those of the report itself.
    expect(renderNote(KEPT, [], WHEN)).toContain(
      "| src/http (part) | 50.00 % | 1 | 0 | 1 | 0 | 0 | 0 | 2 | 4 |",
    );

    // A later run of src/http/a.ts alone replaces its result and keeps src/errors/b.ts's.
    const later = condense({ files: { "src/http/a.ts": { source: "y\n", mutants: [mutant("Killed", 1)] } } });
    const merged = mergeKept(KEPT, later);
    expect(merged.results.map((result) => Object.keys(result.files))).toEqual([
      ["src/errors/b.ts"],
      ["src/http/a.ts"],
    ]);
    expect(renderNote(merged, [], WHEN)).toContain("| src/http (part) | 100.00 % | 1 |");
    // A result kept for a whole folder leaves whole when one of its files runs again: its totals
    // cannot be split by file, so the folder shows as run in part until it runs whole.
    const folderWide = {
      results: [
        { files: { "src/errors/b.ts": "0", "src/errors/c.ts": "0" }, counts: { Killed: 5 }, mutants: [] },
      ],
    };
    const afterOne = mergeKept(
      folderWide,
      condense({ files: { "src/errors/b.ts": REPORT.files["src/errors/b.ts"] } }),
    );
    expect(afterOne.results).toHaveLength(1);
    const sources = (folder: string) =>
      folder === "src/errors" ? ["src/errors/b.ts", "src/errors/c.ts"] : [];
    expect(renderNote(afterOne, [], { ...WHEN, sources })).toContain("| src/errors (part) | 100.00 % | 1 |");
    expect(renderNote(folderWide, [], { ...WHEN, sources })).toContain("| src/errors | 100.00 % | 5 |");
  });

  it("tells a kept result current by its source's hash", () => {
    const sources = () => ["src/http/a.ts"];
    const as = (text: string | undefined) =>
      renderNote(KEPT, [], { ...WHEN, sources, currentSource: () => text });
    expect(as(REPORT.files["src/http/a.ts"].source)).toMatch(/\| src\/http +\|[^\n]*\| yes \|/);
    expect(as(`${REPORT.files["src/http/a.ts"].source} `)).toMatch(/\| src\/http +\|[^\n]*\| no \|/);
    expect(as(undefined)).toMatch(/\| src\/http +\|[^\n]*\| no \|/);
  });

  it("keeps Stryker's incremental file gzipped and restores it only where a checkout has none", () => {
    const dir = mkdtempSync(join(tmpdir(), "wisp-incremental-"));
    try {
      const file = join(dir, "reports", "stryker-incremental.json");
      const kept = join(dir, "incremental.json.gz");
      expect(keepIncremental(file, kept)).toBe(false); // nothing to keep yet
      expect(restoreIncremental(file, kept)).toBe(false); // nothing to restore from
      const text = JSON.stringify({ files: { "src/http/a.ts": REPORT.files["src/http/a.ts"] } });
      writeFileSync(join(dir, "incremental.json"), text);
      expect(keepIncremental(join(dir, "incremental.json"), kept)).toBe(true);
      expect(readFileSync(kept).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip
      expect(restoreIncremental(file, kept)).toBe(true);
      expect(readFileSync(file, "utf8")).toBe(text);
      // A checkout's own file is newer than the committed copy: it is left as it is.
      writeFileSync(file, "{}");
      expect(restoreIncremental(file, kept)).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("{}");
      expect(existsSync(kept)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
