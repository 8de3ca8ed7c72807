/**
 * The main-thread side of the questions scenario, run against a session in a real worker (Node
 * `worker_threads`, a module Web Worker in Chromium): the model asks, the run pauses; the paused state
 * is exported, goes through JSON and is restored in another worker, which is answered there; a tampered
 * copy is refused; then a worker whose main thread has an `onDecision.question` handler answers while
 * the run waits, and one whose handler never answers ends the question unanswered at its timeout.
 * Returns the checks that failed (empty: all passed).
 */
import type { BridgePort } from "../../../src/bridge/index.ts";
import { connectSession } from "../../../src/bridge/index.ts";
import type { SessionState } from "../../../src/index.ts";

/** A started worker: the port `connectSession` talks to, and how to end it. */
export interface WorkerHandle {
  port: BridgePort;
  end: () => unknown;
}

/** Runs the scenario with workers from `start`; the names (and details) of the checks that failed. */
export async function runQuestionsScenario(start: () => WorkerHandle): Promise<string[]> {
  const failed: string[] = [];
  const check = (ok: boolean, what: string, detail?: unknown) => {
    if (!ok) failed.push(`${what}: ${JSON.stringify(detail)}`);
  };
  const workers: WorkerHandle[] = [];
  const connect = async (options: Parameters<typeof connectSession>[1] = {}) => {
    const worker = start();
    workers.push(worker);
    return connectSession(worker.port, { onReport: () => {}, ...options });
  };
  try {
    const first = await connect();
    if (!first.ok) return [`connect: ${first.error.message}`];
    const paused = await first.value.chat("ask me");
    check(paused.ok && paused.value.stopReason === "question", "the model asked: the run paused", paused);
    const id = paused.ok ? (paused.value.pendingQuestions?.[0]?.toolCallId ?? "") : "";
    const exported = await first.value.export();
    const state = exported.ok ? (JSON.parse(JSON.stringify(exported.value)) as SessionState) : undefined;
    check(
      /^[0-9a-f]{64}$/.test(state?.pendingQuestions?.[0]?.signature ?? ""),
      "the exported question is signed",
      state?.pendingQuestions,
    );

    const tampered = structuredClone(state) as SessionState;
    const question = tampered.pendingQuestions?.[0]?.questions[0];
    if (question !== undefined) question.question = "May I delete everything?";
    const refused = await connect({ restore: tampered });
    check(
      !refused.ok && refused.error.code === "APPROVAL_TAMPERED",
      "a tampered copy is refused by the worker",
      refused.ok ? "restored" : refused.error.message,
    );

    const second = await connect({ restore: state });
    if (!second.ok) return [...failed, `restore: ${second.error.message}`];
    const answered = await second.value.resume([{ toolCallId: id, answers: [{ selected: ["Blue"] }] }]);
    check(
      answered.ok &&
        answered.value.text === 'Done: The user answered your questions:\n- "Which color?": Blue',
      "restored in another worker, the answer reached the model",
      answered.ok ? answered.value.text : answered.error.message,
    );
    const after = await second.value.export();
    check(after.ok && after.value.pendingQuestions === undefined, "nothing waits after the answer", after);

    const live = await connect({
      onDecision: {
        question: (request) => ({
          answers: [{ selected: [request.question.questions[0]?.options[0]?.label ?? ""] }],
        }),
      },
    });
    if (!live.ok) return [...failed, `connect: ${live.error.message}`];
    const direct = await live.value.chat("ask me");
    check(
      direct.ok &&
        direct.value.stopReason === "complete" &&
        direct.value.text.endsWith('"Which color?": Red'),
      "the main thread's handler answered while the run waited",
      direct.ok ? direct.value.text : direct.error.message,
    );

    const silent = await connect({
      decisionTimeoutsMs: { question: 100 },
      onDecision: { question: () => new Promise(() => {}) },
    });
    if (!silent.ok) return [...failed, `connect: ${silent.error.message}`];
    const timedOut = await silent.value.chat("ask me");
    check(
      timedOut.ok &&
        /^Done: The user did not answer your questions \(.*no answer within 100 ms\)/.test(
          timedOut.value.text,
        ),
      "no answer in time: the question ended unanswered",
      timedOut.ok ? timedOut.value.text : timedOut.error.message,
    );
    for (const session of [first.value, second.value, live.value, silent.value]) await session.close();
  } finally {
    for (const worker of workers) await worker.end();
  }
  return failed;
}
