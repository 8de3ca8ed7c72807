/**
 * bench/mutation-report.mjs turns Stryker's JSON report into bench/mutation-results.md (issue 41):
 * the score per folder, each folder's first complete run kept as its "before", and the mutants marked
 * equivalent in the source listed with their reasons. Fed small made-up reports: Stryker does not
 * run here.
 */
import { describe, expect, it } from "vitest";
import {
  extendBaseline,
  hasMutableCode,
  isMarkedEquivalent,
  judgedMatches,
  renderNote,
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
    const first = extendBaseline({}, REPORT, { ...WHEN, sources });
    expect(Object.keys(first)).toEqual(["src/http"]); // src/errors/c.ts has not run yet
    expect(first["src/http"]).toMatchObject({ date: "2026-11-27", commit: "abc1234", score: 50 });
    const later = {
      files: { "src/http/a.ts": { ...REPORT.files["src/http/a.ts"], mutants: [mutant("Killed", 1)] } },
    };
    expect(extendBaseline(first, later, { ...WHEN, sources })["src/http"]?.score).toBe(50);
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
    const note = renderNote(REPORT, [], { ...WHEN, baseline, sources, currentSource });
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
    const changed = renderNote(REPORT, [], { ...WHEN, baseline, sources, currentSource: () => "edited" });
    expect(changed).toContain("The folder's source changed since this run");
    expect(changed).not.toContain("a.ts:3:1");
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
    const survivor = { ...mutant("Survived", 2), file: "src/http/a.ts" };
    expect(judgedMatches(entry, survivor, source)).toBe(true);
    // Another line, replacement or mutator is another mutant.
    expect(judgedMatches(entry, { ...survivor, location: at(3) }, source)).toBe(false);
    expect(judgedMatches({ ...entry, replacement: "false" }, survivor, source)).toBe(false);
    expect(judgedMatches({ ...entry, mutator: "BlockStatement" }, survivor, source)).toBe(false);
    // The same line moved down by an edit above still matches.
    expect(judgedMatches(entry, { ...survivor, location: at(3) }, `// new\n${source}`)).toBe(true);
    const stale = { ...entry, line: "if (gone) x();", original: "if (gone)" };
    const note = renderNote(REPORT, [], { ...WHEN, judged: [entry, stale] });
    expect(note).toContain("### src/http (0 to kill or judge, 1 judged)");
    expect(note).toContain(
      "- src/http/a.ts:2:1 ConditionalExpression: `if (z)` → `true` — only a search more",
    );
    expect(note).toMatch(
      /match no survivor[^\n]*\n\n- src\/http\/a\.ts ConditionalExpression: `if \(gone\)` → `true`/,
    );
  });

  it("expects no results for a file of types and numeric constants only: Stryker finds nothing to mutate there", () => {
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
    expect(hasMutableCode('import { a } from "./a.ts";\nexport const b = a();\n')).toBe(true);
    expect(hasMutableCode("export const V = -2;")).toBe(true);
    expect(hasMutableCode('export const NAME = "x";')).toBe(true);
    expect(hasMutableCode("export function f(): void {}")).toBe(true);
  });
});
