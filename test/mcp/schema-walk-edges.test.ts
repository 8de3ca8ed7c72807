/**
 * How schema issues show values (src/mcp/schema-walk.ts): a value's JSON longer than 40 characters is
 * cut at 40 and marked with an ellipsis; a shorter one is shown whole.
 */
import { describe, expect, it } from "vitest";
import { checkJsonSchema } from "../../src/mcp/index.ts";

describe("values in schema issues", () => {
  it("are cut at 40 characters of their JSON, with an ellipsis", () => {
    const long = "x".repeat(60);
    expect(checkJsonSchema({ const: "short" }, long)).toEqual([
      { path: "", message: `expected "short", got "${"x".repeat(39)}…` },
    ]);
  });

  it("are shown whole when their JSON is exactly 40 characters", () => {
    const forty = "x".repeat(38);
    expect(JSON.stringify(forty)).toHaveLength(40);
    expect(checkJsonSchema({ const: "short" }, forty)).toEqual([
      { path: "", message: `expected "short", got "${forty}"` },
    ]);
  });
});
