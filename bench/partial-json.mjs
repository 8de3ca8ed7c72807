// Partial-object parsing (issue 20's structured output streams its answer as JSON fragments): the
// cost of reading a document in n fragments with Wisp's incremental parser, showing the value after
// each one, against one JSON.parse of the whole text — and against re-parsing the whole buffer on
// every fragment (what one peer does), measured at the smaller sizes only, where it still finishes.
import { PartialJson } from "../dist/src/output/partial-json.js";
import { median, quantile } from "./stats.mjs";

const ROUNDS = 9;

/** A document of about `fragments` fragments of 8 characters: an array of small records. */
function document(fragments) {
  const items = [];
  for (let index = 0; items.length * 64 < fragments * 8; index++)
    items.push({ name: `pelican ${index} "é😊"`, size: index * 1.5, tags: ["bird", index % 2 === 0] });
  return JSON.stringify({ items });
}

function cut(text, size) {
  const out = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function time(body) {
  const samples = [];
  for (let round = 0; round < ROUNDS + 2; round++) {
    const start = performance.now();
    body();
    if (round >= 2) samples.push(performance.now() - start);
  }
  return samples;
}

const ms = (samples) =>
  `${median(samples).toFixed(2)} (${quantile(samples, 0.25).toFixed(2)}–${quantile(samples, 0.75).toFixed(2)})`;

/** @returns {Promise<string>} the section's markdown */
export async function partialJsonSection() {
  const rows = [];
  for (const count of [2_000, 20_000, 200_000]) {
    const text = document(count);
    const chunks = cut(text, Math.ceil(text.length / count));
    const once = time(() => JSON.parse(text));
    const wisp = time(() => {
      const parser = new PartialJson();
      for (const chunk of chunks) parser.push(chunk);
      if (!parser.end()) throw new Error(parser.error);
    });
    let naive = "–";
    if (count <= 2_000) {
      const samples = time(() => {
        let buffer = "";
        for (const chunk of chunks) {
          buffer += chunk;
          try {
            JSON.parse(buffer);
          } catch {
            // a peer repairs the text here; the parse alone is counted
          }
        }
      });
      naive = `${ms(samples)} · ${(median(samples) / median(once)).toFixed(0)}x`;
    }
    rows.push(
      `| ${count.toLocaleString("en-US")} | ${(text.length / 1024).toFixed(0)} KB | ${ms(once)} | ${ms(wisp)} | ${(median(wisp) / median(once)).toFixed(1)}x | ${((median(wisp) * 1000) / chunks.length).toFixed(3)} | ${naive} |`,
    );
  }
  return `## Partial objects: a JSON answer read in fragments

Issue 20's structured output shows the answer while it is written. A document (an array of small
records with escapes, accents and emoji) is cut into n equal fragments; Wisp's incremental parser
(src/output/partial-json.ts) reads them, its value complete after each one, and ends with the whole
value. Compared with one \`JSON.parse\` of the whole text, and with re-parsing the whole buffer on every
fragment (a peer's approach; only the parse is timed, not its repair of the cut text). Median of
${ROUNDS} rounds after two warm-up passes, ms (p25–p75).

| fragments | text | JSON.parse once | Wisp, every fragment | Wisp / once | µs per fragment | re-parse every fragment |
|---:|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}

Linear when µs per fragment stays flat from 2,000 to 200,000 fragments.
`;
}
