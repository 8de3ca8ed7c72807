/**
 * The page side of the permissions scenario in Chromium: the session in a module Web Worker. The
 * failed checks land in `body[data-result]` as JSON.
 */
import { runPermissionsScenario } from "./scenario.ts";

runPermissionsScenario(() => {
  const worker = new Worker("/worker.js", { type: "module" });
  return { port: worker, end: () => worker.terminate() };
}).then(
  (failed) => {
    document.body.dataset.result = JSON.stringify(failed);
  },
  (error: unknown) => {
    document.body.dataset.result = JSON.stringify([`threw: ${String(error)}`]);
  },
);
