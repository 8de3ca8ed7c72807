/**
 * The pure parts of the stdio transport: stdout cut into lines at any chunk boundary and bounded,
 * stderr's tail bounded in lines, line length and total, and the command line shown without secrets.
 */
import { describe, expect, it } from "vitest";
import { LineSplitter, LineTooLong } from "../../../runtime/mcp-stdio/line-splitter.ts";
import { shownCommand } from "../../../runtime/mcp-stdio/shown-command.ts";
import { StderrTail } from "../../../runtime/mcp-stdio/stderr-tail.ts";

describe("LineSplitter", () => {
  it("gives each line once its newline arrived, whatever the chunks, and drops a \\r before it", () => {
    const text = '{"a":1}\r\n{"b":"é ✓"}\n\n{"c":3}\n';
    for (let size = 1; size <= text.length; size++) {
      const splitter = new LineSplitter(100);
      const lines: string[] = [];
      for (let start = 0; start < text.length; start += size)
        lines.push(...splitter.push(text.slice(start, start + size)));
      expect(lines).toEqual(['{"a":1}', '{"b":"é ✓"}', "", '{"c":3}']);
    }
  });

  it("refuses a line past its bound, counted across chunks, and reads on after it", () => {
    const splitter = new LineSplitter(10);
    expect(splitter.push("12345")).toEqual([]);
    expect(() => splitter.push("678901")).toThrow(LineTooLong);
    expect(splitter.push("\nok\n")).toEqual(["", "ok"]);
    expect(new LineSplitter(10).push("1234567890\n")).toEqual(["1234567890"]);
  });
});

describe("StderrTail", () => {
  it("keeps the last 20 lines, each cut at 1,000 characters, at most 2,000 characters in all", () => {
    const seen: string[] = [];
    const tail = new StderrTail((line) => seen.push(line));
    for (let index = 1; index <= 30; index++) tail.push(`line ${index}\n`);
    expect(tail.lines()).toEqual(Array.from({ length: 20 }, (_, index) => `line ${index + 11}`));
    expect(seen).toHaveLength(30);
    tail.push(`${"x".repeat(1_500)}\r\n`);
    tail.push("y".repeat(900));
    tail.push("y".repeat(900));
    tail.end();
    expect(seen.slice(-2)).toEqual([`${"x".repeat(1_000)} …`, `${"y".repeat(1_000)} …`]);
    // Two such lines are past 2,000 characters: the older one is left out.
    expect(tail.lines()).toEqual([`${"y".repeat(1_000)} …`]);
  });

  it("goes on reading when the callback throws", () => {
    const tail = new StderrTail(() => {
      throw new Error("the caller's bug");
    });
    tail.push("one\ntwo\n");
    expect(tail.lines()).toEqual(["one", "two"]);
  });
});

describe("shownCommand", () => {
  it("shows the command line, quoting what needs it, with credentials and key-shaped values redacted", () => {
    expect(shownCommand("npx", ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/my notes"])).toBe(
      'npx -y @modelcontextprotocol/server-filesystem "/tmp/my notes"',
    );
    expect(
      shownCommand("server", [
        "--token",
        "abc",
        "--api-key=xyz",
        "GITHUB_TOKEN=ghp",
        "--port",
        "3",
        "sk-ant-abcdefghijkl",
      ]),
    ).toBe("server --token [redacted] --api-key=[redacted] GITHUB_TOKEN=[redacted] --port 3 [redacted]");
    expect(shownCommand("node", ["-e", "x".repeat(500)])).toBe(`node -e "${"x".repeat(120)}…"`);
  });
});
