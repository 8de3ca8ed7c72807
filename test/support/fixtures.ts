/**
 * Reads the shared recordings (../shared/fixtures, see its SOURCES.md for origins and licences).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Absolute path of the shared fixtures folder. */
export const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));

/** The raw bytes of a fixture. */
export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURES + name));
}

/** A fixture as text. */
export function fixtureText(name: string): string {
  return readFileSync(FIXTURES + name, "utf8");
}

/** A JSON fixture. */
export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** A small seeded random generator (mulberry32), so a failing split can be reproduced. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `value` cut at random into pieces of 1 to `max` characters or bytes; `random` picks the sizes. */
export function cutRandomly<T extends string | Uint8Array>(value: T, random: () => number, max: number): T[] {
  const pieces: T[] = [];
  for (let at = 0; at < value.length; ) {
    const size = 1 + Math.floor(random() * max);
    pieces.push(value.slice(at, at + size) as T);
    at += size;
  }
  return pieces;
}

/** Splits bytes at random boundaries (1 to `maxSize` bytes a chunk), cutting anywhere, UTF-8 included. */
export function rechunk(bytes: Uint8Array, seed: number, maxSize = 40): Uint8Array[] {
  return cutRandomly(bytes, seededRandom(seed), maxSize);
}

/** A `.chunks.jsonl` recording (data payloads only) framed back into SSE bytes. */
export function chunksToSse(name: string): Uint8Array {
  const lines = fixtureText(name)
    .split("\n")
    .filter((line) => line.trim() !== "");
  return new TextEncoder().encode(lines.map((line) => `data: ${line}\n\n`).join(""));
}
