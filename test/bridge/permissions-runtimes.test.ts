/**
 * Permission policies across the bridge in real workers (issue 40): the scenario of
 * permissions/scenario.ts — set the worker session's policy from the main thread, see it decide the
 * next runs, export it signed, restore it in another worker, have a loosened copy refused — with the
 * session in a Node `worker_threads` worker and in a module Web Worker in Chromium (test/support/bridge-scenario-runtimes.ts).
 */
import { scenarioInRuntimes } from "../support/bridge-scenario-runtimes.ts";
import { runPermissionsScenario } from "./permissions/scenario.ts";

scenarioInRuntimes(
  "the policy set from the main thread decides, survives a restore, and refuses a loosened copy",
  {
    worker: new URL("./permissions/worker.ts", import.meta.url),
    page: new URL("./permissions/page.ts", import.meta.url),
    run: runPermissionsScenario,
  },
);
