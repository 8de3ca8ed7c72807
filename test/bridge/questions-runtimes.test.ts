/**
 * Questions across the bridge in real workers (issue 40): the scenario of questions/scenario.ts — the
 * model asks and the run pauses, the signed state is restored in another worker and answered there, a
 * tampered copy is refused, a main-thread handler answers while the run waits, and a silent one ends the
 * question unanswered at its timeout — with the session in a Node `worker_threads` worker and in a
 * module Web Worker in Chromium (test/support/bridge-scenario-runtimes.ts).
 */
import { scenarioInRuntimes } from "../support/bridge-scenario-runtimes.ts";
import { runQuestionsScenario } from "./questions/scenario.ts";

scenarioInRuntimes("paused, restored elsewhere and answered; answered live; unanswered at the timeout", {
  worker: new URL("./questions/worker.ts", import.meta.url),
  page: new URL("./questions/page.ts", import.meta.url),
  run: runQuestionsScenario,
});
