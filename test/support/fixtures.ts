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

/** Splits bytes at random boundaries (1 to `maxSize` bytes a chunk), cutting anywhere, UTF-8 included. */
export function rechunk(bytes: Uint8Array, seed: number, maxSize = 40): Uint8Array[] {
  const random = seededRandom(seed);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const size = 1 + Math.floor(random() * maxSize);
    chunks.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return chunks;
}

/** A `.chunks.jsonl` recording (data payloads only) framed back into SSE bytes. */
export function chunksToSse(name: string): Uint8Array {
  const lines = fixtureText(name)
    .split("\n")
    .filter((line) => line.trim() !== "");
  return new TextEncoder().encode(lines.map((line) => `data: ${line}\n\n`).join(""));
}
