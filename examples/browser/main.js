/**
 * The portability scenario in the browser: a plain `<script type="module">`, importing the built ES
 * modules through the page's import map. The scripted model is served on the same origin by serve.mjs.
 * The outcome lands in `document.body.dataset.result` ("passed" or "failed") for the test to read.
 */
import { showOutcome } from "../shared/page-outcome.js";
import { runScenario } from "../shared/scenario.js";

const out = document.getElementById("log");
/** @param {string} line */
const log = (line) => {
  out.textContent += `${line}\n`;
  console.log(line);
};

log(`${navigator.userAgent}, scripted model on ${location.origin}`);
showOutcome(
  runScenario({
    connection: { baseURL: location.origin },
    disconnects: async () => (await (await fetch("/disconnects")).json()).disconnects,
    log,
  }),
  log,
);
