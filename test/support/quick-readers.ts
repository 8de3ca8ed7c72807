/**
 * Checks for the providers' shortcut readers (src/providers/quick-json.ts): each must read what the
 * handler would read from `JSON.parse`, on the recordings, on crafted near misses and on seeded random
 * mutations of real events, and a turn must come out the same whichever way its events were read.
 */
import { readdirSync } from "node:fs";
import { expect } from "vitest";
import type { EventData } from "../../src/providers/parse-event-data.ts";
import { FIXTURES, fixtureText, seededRandom } from "./fixtures.ts";
import { replay } from "./replay.ts";

const ALPHABET = [
  '"',
  "\\",
  "}",
  "{",
  "[",
  "]",
  " ",
  ",",
  ":",
  "0",
  "1",
  "-",
  "a",
  "u",
  "n",
  "\n",
  "é",
  "\ud83d",
];

/** `rounds` mutated copies of texts picked from `samples`, the same for the same `seed`. */
function* mutations(samples: readonly string[], seed: number, rounds: number): Generator<string> {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  for (let round = 0; round < rounds; round++) {
    let text = pick(samples);
    for (let edit = 1 + Math.floor(random() * 2); edit > 0; edit--) {
      const at = Math.floor(random() * (text.length + 1));
      const kind = random();
      if (kind < 0.4) text = text.slice(0, at) + pick(ALPHABET) + text.slice(at);
      else if (kind < 0.7) text = text.slice(0, at) + text.slice(at + 1);
      else text = text.slice(0, at) + pick(ALPHABET) + text.slice(at + 1);
    }
    yield text;
  }
}

/** The `data:` lines of every SSE recording in `folder` of the fixtures that match `pattern`, each without its `data: `. */
export function recordedData(folder: string, pattern: RegExp): string[] {
  return readdirSync(FIXTURES + folder)
    .filter((file) => file.endsWith(".sse"))
    .flatMap((file) => fixtureText(`${folder}/${file}`).split(/\r?\n/))
    .filter((line) => line.startsWith("data:") && pattern.test(line))
    .map((line) => line.replace(/^data: ?/, ""));
}

/**
 * A check that is true when `read` accepts `data`, after expecting that what it read equals
 * `asHandlerReads` of JSON.parse's object (that object with the fields the handler ignores left out).
 */
export function jsonParseCheck(
  read: (data: string) => EventData | undefined,
  asHandlerReads: (parsed: Record<string, unknown>) => unknown = (parsed) => parsed,
): (data: string) => boolean {
  return (data) => {
    const quick = read(data);
    if (quick === undefined) return false;
    expect(quick, data).toStrictEqual(asHandlerReads(JSON.parse(data)));
    return true;
  };
}

/**
 * Expects 20,000 seeded mutations of `samples` each to be read as JSON.parse reads it, or declined;
 * and both to happen often, so that neither side goes untested.
 */
export function expectMutationsReadAsJsonParse(
  accepted: (data: string) => boolean,
  samples: readonly string[],
  seed: number,
): void {
  let read = 0;
  let declined = 0;
  for (const data of mutations(samples, seed, 20_000)) {
    if (accepted(data)) read++;
    else declined++;
  }
  expect(read).toBeGreaterThan(1000);
  expect(declined).toBeGreaterThan(1000);
}

/**
 * The events and message of one turn of `model` answered with `events` (`data:` texts), with what
 * differs from run to run (message ids, times, generated call ids) made the same.
 */
export async function turnOf(model: string, events: readonly string[]): Promise<unknown> {
  const body = new TextEncoder().encode(events.map((data) => `data: ${data}\n\n`).join(""));
  const { events: seen } = await replay(model, [body]);
  return JSON.parse(
    JSON.stringify(seen)
      .replace(/"(id|timestamp)":("[0-9a-f-]{36}"|\d{10,})/g, '"$1":"(varies)"')
      .replace(/call_[0-9a-f]{24}/g, "call_(generated)"),
  );
}

/** A reader's switch in a test: `off` makes the handler parse every event with JSON.parse; `read` counts what the reader read. */
export interface ReaderSwitch {
  off: boolean;
  read: number;
}

/** `read` as the handler will call it in a test that mocks its module: counted, and off when `state.off`. */
export function switchable(
  read: (data: string) => EventData | undefined,
  state: ReaderSwitch,
): (data: string) => EventData | undefined {
  return (data) => {
    const value = state.off ? undefined : read(data);
    if (value !== undefined) state.read++;
    return value;
  };
}

/**
 * Expects the handler to take `reads` of `events` through its quick reader, and the turn to be the same
 * when the reader is off and JSON.parse reads every event: so a field the reader leaves out, which
 * the events carry, cannot be one the handler reads.
 */
export async function expectSameTurnWithoutReader(
  model: string,
  events: readonly string[],
  state: ReaderSwitch,
  reads: number,
): Promise<void> {
  state.read = 0;
  const quick = await turnOf(model, events);
  expect(state.read).toBe(reads);
  state.off = true;
  try {
    expect(await turnOf(model, events)).toEqual(quick);
  } finally {
    state.off = false;
  }
  expect(state.read).toBe(reads);
}

/**
 * A provider's quick-reader module with its reader `name` made {@link switchable} by `state` (for
 * `vi.mock`); a reader made by a factory (`create…`) is wrapped as each one is made.
 */
export function withSwitch(original: unknown, name: string, state: ReaderSwitch): Record<string, unknown> {
  const module = original as Record<string, unknown>;
  const reader = module[name] as (data: string) => EventData | undefined;
  const factory = module[name] as () => (data: string) => EventData | undefined;
  return {
    ...module,
    [name]: name.startsWith("create") ? () => switchable(factory(), state) : switchable(reader, state),
  };
}
