/**
 * Forks over the bridge, one scenario for every runtime (test/bridge/forks.test.ts runs it against a
 * Node `worker_threads` worker and, bundled, in Chromium against a module Web Worker): fork with a
 * `parentId`, list, switch, export one branch, refusals crossing typed, and the forked state restored
 * into a second worker.
 */
import { type BridgePort, connectSession } from "../../../src/bridge/index.ts";
import type { Message, SessionState } from "../../../src/index.ts";

/** One check: what it asserts, whether it held, and what was seen. */
export interface Check {
  what: string;
  ok: boolean;
  seen?: unknown;
}

/** A worker to talk to, and how to end it. */
export interface WorkerHandle {
  port: BridgePort;
  end: () => unknown;
}

function texts(messages: readonly Message[]): string[] {
  return messages.map((message) => {
    const part = message.content.find((candidate) => candidate.type === "text");
    return part?.type === "text" ? part.text : "";
  });
}

/** JSON with every object's keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    typeof field === "object" && field !== null && !Array.isArray(field)
      ? Object.fromEntries(Object.entries(field).sort(([a], [b]) => (a < b ? -1 : 1)))
      : field,
  );
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** Runs the scenario against workers made by `start`; every check, passed or not. */
export async function runForkScenario(start: () => WorkerHandle | Promise<WorkerHandle>): Promise<Check[]> {
  const checks: Check[] = [];
  const check = (what: string, ok: boolean, seen?: unknown) => checks.push({ what, ok, seen });
  const first = await start();
  const connected = await connectSession(first.port, { onReport: () => {} });
  if (!connected.ok) return [{ what: "connects", ok: false, seen: connected.error.message }];
  const session = connected.value;
  let saved: SessionState | undefined;
  try {
    await session.chat("one");
    await session.chat("two");
    const before = await session.export();
    const answer = before.ok ? before.value.messages[1]?.id : undefined;
    // A later millisecond than "two": branches are listed by when their own first message was written.
    await new Promise((resolve) => setTimeout(resolve, 3));
    const forked = await session.chat("deux", { parentId: answer ?? "" });
    check(
      "a chat with parentId forks in the worker",
      forked.ok && forked.value.text === "re: deux",
      forked.ok ? forked.value.text : forked.error.message,
    );

    const listed = await session.branches();
    const branches = listed.ok ? listed.value : [];
    check(
      "branches() lists both, the fork active",
      same(
        branches.map((branch) => [branch.title, branch.parentId, branch.active]),
        [
          ["two", answer, false],
          ["deux", answer, true],
        ],
      ),
      branches,
    );

    const old = branches.find((branch) => !branch.active)?.leafId ?? "";
    const switched = await session.switchBranch(old);
    check(
      "switchBranch makes the other branch active",
      switched.ok && switched.value.find((branch) => branch.active)?.leafId === old,
      switched,
    );
    const three = await session.chat("three");
    const after = await session.export();
    check(
      "the next chat continues the branch switched to",
      three.ok &&
        after.ok &&
        same(texts(after.value.messages), ["one", "re: one", "two", "re: two", "three", "re: three"]),
      after.ok ? texts(after.value.messages) : after.error.message,
    );

    const deux = branches.find((branch) => branch.active)?.leafId ?? "";
    const alone = await session.export({ branch: deux });
    check(
      "export({ branch }) gives that branch alone",
      alone.ok &&
        alone.value.branches === undefined &&
        same(texts(alone.value.messages), ["one", "re: one", "deux", "re: deux"]),
      alone.ok ? texts(alone.value.messages) : alone.error.message,
    );

    const unknown = await session.switchBranch("no-such-leaf");
    check(
      "an unknown leaf is refused as BRANCH_INVALID",
      !unknown.ok && unknown.error.code === "BRANCH_INVALID",
      unknown.ok ? unknown.value : unknown.error.code,
    );
    const badParent = await session.chat("x", { parentId: "no-such-message" });
    check(
      "a parentId that names no message is refused as BRANCH_INVALID",
      !badParent.ok && badParent.error._tag === "ConfigError" && badParent.error.code === "BRANCH_INVALID",
      badParent.ok ? badParent.value.text : badParent.error.code,
    );
    if (after.ok) saved = JSON.parse(JSON.stringify(after.value)) as SessionState;
  } finally {
    await session.close();
    await first.end();
  }

  const second = await start();
  const restored = await connectSession(second.port, { restore: saved, onReport: () => {} });
  if (!restored.ok) {
    check("the forked state restores in another worker", false, restored.error.message);
    await second.end();
    return checks;
  }
  try {
    const again = restored.value;
    const listed = await again.branches();
    check(
      "the forked state restores in another worker, both branches kept",
      listed.ok &&
        same(
          listed.value.map((branch) => [branch.title, branch.active]),
          [
            ["two", true],
            ["deux", false],
          ],
        ),
      listed.ok ? listed.value : listed.error.message,
    );
    const exported = await again.export();
    check("and exports unchanged", exported.ok && same(exported.value, saved), undefined);
  } finally {
    await restored.value.close();
    await second.end();
  }
  return checks;
}
