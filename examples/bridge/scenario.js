// @ts-check
/**
 * The bridge scenario, one plain ES module every runtime runs unchanged (Node worker threads, Deno
 * and Bun workers, a Web Worker in Chromium): a session served in a worker (agent-worker.js) and
 * driven from the main thread — chat, a stream, tool calls allowed and denied from here, an approval
 * answered from here, the hook feed (every hook event, observe-only, and who decided), an abort
 * mid-stream, a provider error crossing typed, export, and the worker ended mid-run.
 *
 * `runBridgeScenario` returns the number of failed checks.
 */
import { isSdkError, unwrap } from "wisp-agent";
import { connectSession } from "wisp-agent/bridge";

/**
 * @typedef {object} WorkerHandle
 * @property {import("wisp-agent/bridge").BridgePort} port what connectSession talks to
 * @property {() => void | Promise<unknown>} end ends the worker (terminate)
 */

/** @type {import("wisp-agent/bridge").DecisionHandlers} */
const decide = {
  "tool-before": ({ toolCall }) =>
    toolCall.args.q === "secrets" ? { decision: "deny", reason: "not that one" } : undefined,
  approval: ({ approval }) => {
    const to = approval.args.to;
    return to === "ada" ? { approved: true } : { approved: false, reason: `${String(to)} is not a contact` };
  },
};

/**
 * Runs the scenario and reports every check through `log`.
 * @param {{ start: () => WorkerHandle | Promise<WorkerHandle>, log: (line: string) => void }} context
 * @returns {Promise<number>} how many checks failed
 */
export async function runBridgeScenario({ start, log }) {
  let failed = 0;
  let total = 0;
  /** @param {boolean} ok @param {string} what @param {unknown} [detail] */
  const check = (ok, what, detail) => {
    total++;
    if (!ok) failed++;
    log(ok ? `ok   ${what}` : `FAIL ${what}${detail === undefined ? "" : `: ${JSON.stringify(detail)}`}`);
  };

  const worker = await start();
  const session = unwrap(await connectSession(worker.port, { onDecision: decide, onReport: () => {} }));
  /** @type {import("wisp-agent/bridge").HookFeedEvent[]} */
  const feed = [];
  const stopFeed = session.onHookEvent((event) => {
    feed.push(event);
    return { decision: "deny", reason: "a listener cannot decide" }; // ignored: the feed is observe-only
  });
  try {
    const hello = await session.chat("hi there");
    check(
      hello.ok && hello.value.text === "Hello from the worker. You said: hi there",
      "chat answers from the worker",
      hello,
    );

    const types = [];
    let streamed = "";
    const run = session.stream("hello again");
    for await (const event of run) {
      types.push(event.type);
      if (event.type === "text-delta") streamed += event.delta;
    }
    const streamedResult = await run.result;
    check(
      types[0] === "run-start" &&
        types.at(-1) === "run-end" &&
        streamedResult.ok &&
        streamedResult.value.text === streamed,
      "a stream's events arrive in order, ending with run-end",
      types,
    );

    const allowed = await session.chat("look up pelicans");
    check(
      allowed.ok && allowed.value.text === "Done: found pelicans",
      "a tool call allowed from the main thread ran",
      allowed,
    );
    const denied = await session.chat("look up secrets");
    const deniedCall = denied.ok ? denied.value.toolCalls[0]?.result : undefined;
    check(
      deniedCall?.isError === true && deniedCall.output === "not that one",
      "a tool call denied from the main thread did not run; the model read the reason",
      deniedCall,
    );

    const approved = await session.chat('send "hi" to ada');
    check(
      approved.ok &&
        approved.value.stopReason === "complete" &&
        approved.value.text === 'Done: sent "hi" to ada',
      "an approval answered on the main thread ran the tool while the run waited",
      approved,
    );
    const refused = await session.chat('send "hi" to mallory');
    check(
      refused.ok &&
        refused.value.toolCalls[0]?.result.isError === true &&
        /mallory is not a contact/.test(refused.value.text),
      "a denied approval reached the model with its reason",
      refused.ok ? refused.value.text : refused.error,
    );

    stopFeed();
    const kinds = new Set(feed.map((event) => String(event.kind)));
    check(
      ["session-start", "prompt-submit", "tool-before", "tool-after", "stop"].every((kind) =>
        kinds.has(kind),
      ) &&
        feed.every(
          (event) =>
            event.expectsDecision === false &&
            event.canBlock === false &&
            event.sessionId === session.sessionId,
        ),
      "the hook feed showed every hook event of the runs, observe-only",
      [...kinds],
    );
    const decided = feed.flatMap((event) =>
      event.kind === "hook-decision" ? [`${event.hook} ${event.decidedBy}`] : [],
    );
    check(
      decided.join(", ") === "bridge person, bridge-approval person, bridge-approval person",
      "the feed said who decided: the person, for the deny and both approval answers",
      decided,
    );

    const story = session.stream("tell a long story");
    let deltas = 0;
    for await (const event of story) if (event.type === "text-delta" && ++deltas === 3) story.abort();
    const aborted = await story.result;
    check(
      !aborted.ok &&
        isSdkError(aborted.error) &&
        aborted.error.code === "ABORTED" &&
        aborted.error._tag === "AbortError",
      "an abort from the main thread ended the run in the worker as ABORTED",
      aborted.ok ? aborted.value.stopReason : aborted.error,
    );

    const auth = await session.chat("use a bad key");
    check(
      !auth.ok &&
        isSdkError(auth.error) &&
        auth.error instanceof Error &&
        auth.error._tag === "ProviderError" &&
        auth.error.code === "AUTH" &&
        auth.error.retryable === false &&
        auth.error.status === 401,
      "a provider's AUTH error crossed as a real SdkError",
      auth.ok ? auth.value : { ...auth.error, message: auth.error.message },
    );

    const state = unwrap(await session.export());
    const last = state.messages.at(-1);
    check(
      state.version === 2 &&
        state.messages.length >= 14 &&
        JSON.stringify(JSON.parse(JSON.stringify(state))) === JSON.stringify(state) &&
        state.messages.some((message) => message.role === "assistant" && message.stopReason === "aborted") &&
        last?.role === "assistant" &&
        last.stopReason === "error",
      "export gives the whole conversation as plain JSON, the aborted turn kept",
      state.messages.length,
    );
  } finally {
    await session.close();
    await worker.end();
  }

  const second = await start();
  const doomed = unwrap(await connectSession(second.port, { workerTimeoutMs: 1_000, onReport: () => {} }));
  const cut = doomed.stream("tell a long story");
  let ended = false;
  for await (const event of cut) {
    if (event.type === "text-delta" && !ended) {
      ended = true;
      await second.end();
    }
  }
  const gone = await cut.result;
  check(
    !gone.ok &&
      isSdkError(gone.error) &&
      gone.error._tag === "RequestError" &&
      gone.error.code === "BRIDGE_CLOSED",
    "the worker ended mid-run: the run ended with BRIDGE_CLOSED, nothing hung",
    gone.ok ? gone.value.stopReason : gone.error.code,
  );
  const exported = await doomed.export();
  const afterwards = exported.ok ? "resolved" : exported.error.code;
  check(afterwards === "BRIDGE_CLOSED", "calls after the worker ended are BRIDGE_CLOSED too", afterwards);

  log(failed === 0 ? `passed: 0 of ${total} checks failed` : `FAILED: ${failed} of ${total} checks failed`);
  return failed;
}
