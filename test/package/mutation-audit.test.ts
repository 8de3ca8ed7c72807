/**
 * bench/mutation-audit.mjs re-checks a sample of kills (a test that failed in a mutation run for a
 * reason other than its mutant made a false kill once: 29 of them). Its sample and its mutants, fed a
 * small made-up report: Stryker and the re-runs do not run here.
 */
import { describe, expect, it } from "vitest";
import { applyMutant, projectsOf, sampleKills } from "../../bench/mutation-audit.mjs";

const at = (line: number, from: number, to: number) => ({
  start: { line, column: from },
  end: { line, column: to },
});

const REPORT = {
  testFiles: {
    "test/a.test.ts": { tests: [{ id: "1" }, { id: "2" }] },
    "worker/test/b.test.ts": { tests: [{ id: "3" }] },
  },
  files: {
    "src/a.ts": {
      source: "if (x > 1) y();\nreturn 'ok';\n",
      mutants: [
        {
          mutatorName: "EqualityOperator",
          replacement: "x >= 1",
          status: "Killed",
          killedBy: ["2"],
          location: at(1, 5, 10),
        },
        {
          mutatorName: "StringLiteral",
          replacement: '""',
          status: "Killed",
          killedBy: ["1"],
          location: at(2, 8, 12),
        },
        { mutatorName: "BooleanLiteral", replacement: "false", status: "Survived", location: at(1, 5, 10) },
        {
          mutatorName: "BlockStatement",
          replacement: "{}",
          status: "Timeout",
          killedBy: ["1"],
          location: at(1, 1, 16),
        },
      ],
    },
    "worker/b.ts": {
      source: "a && b;\n",
      mutants: [
        {
          mutatorName: "LogicalOperator",
          replacement: "a || b",
          status: "Killed",
          killedBy: ["3"],
          location: at(1, 1, 7),
        },
      ],
    },
  },
};

describe("sampleKills", () => {
  it("takes killed mutants only, under the prefix, each with the test file that killed it", () => {
    const sample = sampleKills(REPORT, { count: 10, seed: 1, prefix: "src/" });
    expect(sample.map((kill) => [kill.file, kill.line, kill.mutatorName, kill.test]).sort()).toEqual([
      ["src/a.ts", 1, "EqualityOperator", "test/a.test.ts"],
      ["src/a.ts", 2, "StringLiteral", "test/a.test.ts"],
    ]);
    expect(sampleKills(REPORT, { count: 10, seed: 1, prefix: "worker/" })).toMatchObject([
      { file: "worker/b.ts", test: "worker/test/b.test.ts" },
    ]);
    expect(sampleKills(REPORT, { count: 10, seed: 1, prefix: "src/,worker/" })).toHaveLength(3);
  });

  it("the same seed gives the same sample, of at most count", () => {
    const many = {
      testFiles: { "t.test.ts": { tests: [{ id: "t" }] } },
      files: {
        "src/m.ts": {
          source: "x\n".repeat(50),
          mutants: Array.from({ length: 50 }, (_, index) => ({
            mutatorName: "M",
            replacement: "y",
            status: "Killed",
            killedBy: ["t"],
            location: at(index + 1, 1, 2),
          })),
        },
      },
    };
    const lines = (seed: number) =>
      sampleKills(many, { count: 5, seed, prefix: "src/" }).map((kill) => kill.line);
    expect(lines(7)).toHaveLength(5);
    expect(new Set(lines(7)).size).toBe(5);
    expect(lines(7)).toEqual(lines(7));
    expect(lines(8)).not.toEqual(lines(7));
  });
});

describe("applyMutant", () => {
  it("replaces exactly the mutant's span, on any line", () => {
    const [first, second] = REPORT.files["src/a.ts"].mutants;
    const source = REPORT.files["src/a.ts"].source;
    expect(applyMutant(source, first as never)).toBe("if (x >= 1) y();\nreturn 'ok';\n");
    expect(applyMutant(source, second as never)).toBe('if (x > 1) y();\nreturn "";\n');
  });
});

describe("projectsOf", () => {
  it("runs a worker/test file in the worker projects, any other in node (worker/e2e too)", () => {
    expect(projectsOf("worker/test/runs.test.ts")).toEqual(["worker", "worker-paced"]);
    expect(projectsOf("worker/e2e/no-nodejs-compat.test.ts")).toEqual(["node"]);
    expect(projectsOf("test/http/sse.test.ts")).toEqual(["node"]);
  });
});
