// @ts-check
/**
 * The page of the bridge example: the agent runs in a Web Worker (agent-worker.js); this page streams
 * its answers and shows a dialog when a tool call needs approval. The worker waits for the answer
 * (up to the approval timeout, 300 s by default; no answer denies the call).
 */
import { unwrap } from "wisp-agent";
import { connectSession } from "wisp-agent/bridge";

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const form = /** @type {HTMLFormElement} */ ($("prompt"));
const input = /** @type {HTMLInputElement} */ (form.elements.namedItem("text"));
const stop = /** @type {HTMLButtonElement} */ ($("stop"));
const dialog = /** @type {HTMLDialogElement} */ ($("approval"));
const reason = /** @type {HTMLInputElement} */ ($("reason"));
const status = $("status");
const answer = $("answer");

/**
 * Shows the approval dialog for one tool call and resolves with the person's answer.
 * @param {import("wisp-agent").PendingApproval} approval
 * @returns {Promise<import("wisp-agent/bridge").ApprovalAnswer>}
 */
function askPerson(approval) {
  $("tool").textContent = approval.toolName;
  $("args").textContent = JSON.stringify(approval.args, null, 2);
  reason.value = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const approved = dialog.returnValue === "approve";
        resolve(approved || reason.value === "" ? { approved } : { approved, reason: reason.value });
      },
      { once: true },
    );
  });
}

const worker = new Worker(new URL("./agent-worker.js", import.meta.url), { type: "module" });
const session = unwrap(
  await connectSession(worker, {
    onDecision: { approval: ({ approval }) => askPerson(approval) },
  }),
);
status.textContent = `Ready: session ${session.sessionId} in a Web Worker.`;

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const prompt = input.value.trim();
  if (prompt === "") return;
  answer.textContent = "";
  status.textContent = "Running…";
  stop.disabled = false;
  const run = session.stream(prompt);
  stop.onclick = () => run.abort();
  for await (const event of run) {
    if (event.type === "text-delta") answer.textContent += event.delta;
    if (event.type === "tool-result") status.textContent = `${event.toolCall.name}: ${event.result.output}`;
  }
  const result = await run.result;
  stop.disabled = true;
  status.textContent = result.ok
    ? `Done (${result.value.stopReason}, ${result.value.turns} turns).`
    : `Ended: ${result.error.code} — ${result.error.message}`;
  document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1);
});
document.body.dataset.ready = "true";
