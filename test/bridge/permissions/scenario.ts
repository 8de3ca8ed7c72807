/**
 * The main-thread side of the permissions scenario, run against a session in a real worker (Node
 * `worker_threads`, a module Web Worker in Chromium): read and set the worker's policy, see it decide
 * the next runs (plan mode, the allow list), export it signed, restore it in another worker, and have a
 * loosened copy refused there. Returns the checks that failed (empty: all passed).
 */
import type { BridgePort } from "../../../src/bridge/index.ts";
import { connectSession } from "../../../src/bridge/index.ts";
import { isSdkError, type SessionState } from "../../../src/index.ts";

/** A started worker: the port `connectSession` talks to, and how to end it. */
export interface WorkerHandle {
  port: BridgePort;
  end: () => unknown;
}

/** Runs the scenario with workers from `start`; the names (and details) of the checks that failed. */
export async function runPermissionsScenario(start: () => WorkerHandle): Promise<string[]> {
  const failed: string[] = [];
  const check = (ok: boolean, what: string, detail?: unknown) => {
    if (!ok) failed.push(`${what}: ${JSON.stringify(detail)}`);
  };
  const first = start();
  let state: SessionState | undefined;
  const connected = await connectSession(first.port, { onReport: () => {} });
  if (!connected.ok) return [`connect: ${connected.error.message}`];
  const session = connected.value;
  try {
    const initial = await session.permissions();
    check(initial.ok && initial.value.mode === "default", "a new session's policy is the default", initial);

    const paused = await session.chat("write");
    check(paused.ok && paused.value.stopReason === "approval", "without a policy the write waits", paused);
    const id = paused.ok ? (paused.value.pendingApprovals?.[0]?.toolCallId ?? "") : "";
    const resumed = await session.resume([{ toolCallId: id, approved: true }]);
    check(resumed.ok && resumed.value.text === "Done: wrote b", "approved, it ran", resumed);

    const plan = await session.setPermissions({ mode: "plan" });
    check(plan.ok && plan.value.mode === "plan", "setPermissions switched the worker to plan mode", plan);
    const planned = await session.chat("read and write");
    const outputs = planned.ok ? planned.value.toolCalls.map((call) => call.result.output) : [];
    check(
      planned.ok &&
        planned.value.stopReason === "complete" &&
        outputs[0] === "contents of a" &&
        /plan mode/.test(outputs[1] ?? ""),
      "in plan mode the read ran and the write was refused, the run went on",
      outputs,
    );

    const allowed = await session.setPermissions({ allow: ["write"] });
    check(
      allowed.ok && allowed.value.allow[0] === "write",
      "always allow: write joined the allow list",
      allowed,
    );
    const run = session.stream("write");
    const verdicts: unknown[] = [];
    for await (const event of run) if (event.type === "permission-decision") verdicts.push(event.verdict);
    const written = await run.result;
    check(
      written.ok &&
        written.value.text === "Done: wrote b" &&
        JSON.stringify(verdicts) === '[{"decision":"allow","rule":"allow-list","match":"write"}]',
      "the allow list ran the write without asking, and the event said so",
      { verdicts, written: written.ok ? written.value.text : written.error.message },
    );

    const bad = await session.setPermissions({ mode: "never" as "plan" });
    check(
      !bad.ok &&
        isSdkError(bad.error) &&
        bad.error.code === "CONFIG_INVALID" &&
        bad.error.path === "permissions.mode",
      "an invalid policy is a ConfigError naming the field",
      bad.ok ? bad.value : bad.error.path,
    );

    const exported = await session.export();
    state = exported.ok ? exported.value : undefined;
    check(
      state?.permissions?.allow[0] === "write" && /^[0-9a-f]{64}$/.test(state.permissionsSignature ?? ""),
      "the export carries the policy, signed",
      state?.permissions,
    );
  } finally {
    await session.close();
    await first.end();
  }
  if (state === undefined) return failed;

  const second = start();
  try {
    const restored = await connectSession(second.port, {
      restore: JSON.parse(JSON.stringify(state)),
      onReport: () => {},
    });
    const policy = restored.ok ? await restored.value.permissions() : undefined;
    check(
      policy?.ok === true && policy.value.allow[0] === "write",
      "restored in another worker, the policy holds",
      policy,
    );
    if (restored.ok) await restored.value.close();
  } finally {
    await second.end();
  }

  const third = start();
  try {
    const loosened = { ...state, permissions: { ...state.permissions, mode: "bypass" } };
    const refused = await connectSession(third.port, { restore: loosened, onReport: () => {} });
    check(
      !refused.ok && isSdkError(refused.error) && refused.error.code === "APPROVAL_TAMPERED",
      "a copy switched to bypass is refused in the worker",
      refused.ok ? "restored" : refused.error.code,
    );
    if (refused.ok) await refused.value.close();
  } finally {
    await third.end();
  }
  return failed;
}
