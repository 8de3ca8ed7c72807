/**
 * What the compaction tests share: a page of filler text, a `read` tool that returns it (about 800
 * tokens a read, so a few reads fill a small context window), and how to tell the summary's request
 * from the run's own.
 */
import { defineTool } from "../../src/index.ts";
import type { RecordedRequest } from "../../src/testing/index.ts";

/** A page of filler text, about 800 tokens. */
export const PAGE = "lorem ipsum dolor sit amet ".repeat(120);

/** A tool that reads a page: `page <n>: ` and {@link PAGE}. */
export const read = defineTool({
  name: "read",
  description: "Reads a page",
  inputSchema: { type: "object", properties: { page: { type: "number" } } },
  execute: (args) => `page ${String(args.page)}: ${PAGE}`,
});

/** Whether a recorded request (or its body) is the one that asks the model for a summary. */
export function isSummaryRequest(request: RecordedRequest | { body: unknown }): boolean {
  return JSON.stringify(request.body).includes("Summarize the conversation above");
}
