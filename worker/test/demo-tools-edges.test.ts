/**
 * The demo's tools run directly: the clock formats the time in the asked zone and names a zone it
 * does not know; the calculator does each of its four operations and refuses to divide by zero.
 */
import { describe, expect, it } from "vitest";
import { DEMO_TOOLS } from "../demo-tools.ts";

/** Runs the demo tool `name` on `args` (none of these tools reads its context). */
async function run(name: string, args: Record<string, unknown>): Promise<unknown> {
  const tool = DEMO_TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return await tool.execute(args as never, {} as never);
}

/** "27 Nov 2026, 23:50": day, month, year, hours and minutes (en-GB, medium date, short time). */
const MEDIUM_DATE_SHORT_TIME = /^\d{1,2} [A-Z][a-z]{2,3} \d{4},? (at )?(\d{2}):(\d{2})$/;

describe("the clock tool", () => {
  it("answers the date and time in the asked zone, as an en-GB medium date and short time", async () => {
    const utc = String(await run("clock", { timeZone: "UTC" }));
    const kolkata = String(await run("clock", { timeZone: "Asia/Kolkata" }));
    expect(utc).toMatch(MEDIUM_DATE_SHORT_TIME);
    expect(kolkata).toMatch(MEDIUM_DATE_SHORT_TIME);
    // Kolkata is UTC+05:30 all year: its minutes are half an hour on (a minute may tick in between).
    const minutes = (text: string) => Number(MEDIUM_DATE_SHORT_TIME.exec(text)?.[3]);
    expect([(minutes(utc) + 30) % 60, (minutes(utc) + 31) % 60]).toContain(minutes(kolkata));
  });

  it("names a time zone it does not know", async () => {
    await expect(run("clock", { timeZone: "Mars/Olympus_Mons" })).rejects.toThrow(
      "Unknown time zone: Mars/Olympus_Mons",
    );
  });
});

describe("the calculator tool", () => {
  it("adds, subtracts, multiplies and divides", async () => {
    expect(await run("calculator", { op: "add", a: 2, b: 3 })).toBe("5");
    expect(await run("calculator", { op: "subtract", a: 7, b: 10 })).toBe("-3");
    expect(await run("calculator", { op: "multiply", a: 6, b: 7 })).toBe("42");
    expect(await run("calculator", { op: "divide", a: 1, b: 4 })).toBe("0.25");
    expect(await run("calculator", { op: "divide", a: 6, b: 3 })).toBe("2");
  });

  it("refuses to divide by zero, and only that: adding or multiplying by zero works", async () => {
    await expect(run("calculator", { op: "divide", a: 1, b: 0 })).rejects.toThrow("Division by zero");
    expect(await run("calculator", { op: "add", a: 5, b: 0 })).toBe("5");
    expect(await run("calculator", { op: "multiply", a: 3, b: 0 })).toBe("0");
  });
});
