/**
 * A client that stops reading a run is dropped once its unread backlog passes 8 MiB
 * (MAX_CLIENT_BACKLOG), and the owner hears the run has no client left. The stream's queue counts
 * bytes: counted in chunks (the default), the bound was reached only after 8 Mi unread events, far
 * past a Worker's 128 MB, so such a client was never dropped.
 */
import { expect, it } from "vitest";
import { RunLog } from "../run-log.ts";
import { sseFrame } from "../sse-events.ts";

it("drops a client whose unread backlog passes 8 MiB, and tells the owner it is idle", async () => {
  let idle = 0;
  const log = new RunLog(() => idle++);
  const stream = log.attach();
  const delta = "x".repeat(64 * 1024);
  // 10 MiB of events that the client never reads.
  for (let index = 0; index < 160; index++) log.append({ event: "text-delta", data: { delta } });
  expect(log.clients).toBe(0);
  expect(idle).toBe(1);
  const reader = stream.getReader();
  // What was queued before the drop is lost with the errored stream; the reader sees why.
  await expect(reader.read()).rejects.toThrow("The client fell too far behind; reattach to catch up");
});

it("keeps a client whose unread backlog is exactly 8 MiB", async () => {
  let idle = 0;
  const log = new RunLog(() => idle++);
  const stream = log.attach();
  const overhead = sseFrame({ event: "text-delta", data: { delta: "" } }, `${log.runId}:1`).byteLength;
  const delta = "x".repeat(1024 * 1024 - overhead);
  // Eight frames of exactly 1 MiB each (ids 1 to 8 have one digit), then one more.
  for (let index = 0; index < 9; index++) log.append({ event: "text-delta", data: { delta } });
  expect(log.clients).toBe(1);
  log.append({ event: "text-delta", data: { delta } });
  expect(log.clients).toBe(0);
  expect(idle).toBe(1);
  await expect(stream.getReader().read()).rejects.toThrow("The client fell too far behind");
});
