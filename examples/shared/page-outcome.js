// @ts-check
/**
 * How a browser page reports a scenario's outcome to the test that opened it: `passed` or `failed` in
 * `document.body.dataset.result`, a throw logged as a failure.
 * @param {Promise<number>} scenario resolves with the number of failed checks
 * @param {(line: string) => void} log
 */
export function showOutcome(scenario, log) {
  scenario.then(
    (failed) => {
      document.body.dataset.result = failed === 0 ? "passed" : "failed";
    },
    (error) => {
      log(`FAIL the scenario threw: ${error?.stack ?? error}`);
      document.body.dataset.result = "failed";
    },
  );
}
