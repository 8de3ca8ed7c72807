/**
 * An incremental parser for one JSON value that arrives in fragments, such as a structured answer a
 * model streams: after each fragment, {@link PartialJson.value} is the value so far — objects and
 * arrays with the members that have arrived, the string being written cut where it is, numbers and
 * `true`/`false`/`null` once they end.
 *
 * Each character is read once, so parsing n fragments costs what parsing their text once costs (one
 * peer re-parses the whole buffer on every fragment, which is quadratic). The value is built in place
 * and is the same object after every fragment: copy it to keep a snapshot. A `__proto__` key is an
 * own property, as `JSON.parse` makes it, never the object's prototype; nesting deeper than
 * {@link MAX_JSON_DEPTH} is refused.
 *
 * @module
 */

import { MAX_JSON_DEPTH } from "../message/storable-values.ts";
import type { JsonObject, JsonValue } from "../types.ts";

/** Where the parser is. */
const State = {
  /** A value may start here. */
  Value: 0,
  /** An object key or the object's end. */
  Key: 1,
  Colon: 2,
  /** After a member or an element: a comma or the container's end. */
  After: 3,
  String: 4,
  Escape: 5,
  Unicode: 6,
  /** Inside a number or a literal. */
  Scalar: 7,
  Done: 8,
  Failed: 9,
} as const;
type State = (typeof State)[keyof typeof State];

interface Frame {
  container: JsonObject | JsonValue[];
  /** The key of the member being read (objects). */
  key: string;
  /** A comma was just read: another member or element must follow. */
  comma: boolean;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const LITERALS: Record<string, JsonValue> = { true: true, false: false, null: null };

/** Sets `key` of `container` as `JSON.parse` would (an own `__proto__`, not the prototype). */
function put(container: JsonObject | JsonValue[], key: string | number, value: JsonValue): void {
  if (key === "__proto__")
    Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
  else (container as Record<string | number, JsonValue>)[key] = value;
}

/** Parses one JSON value fed in fragments; see the module comment. */
export class PartialJson {
  #state: State = State.Value;
  #stack: Frame[] = [];
  #root: JsonValue | undefined;
  /** The string or scalar being read, and whether the string is a key. */
  #text = "";
  #isKey = false;
  #unicode = "";
  /** Where the string or scalar being read goes: its container and key (undefined: the root). */
  #slot: { container: JsonObject | JsonValue[]; key: string | number } | undefined;
  #error: string | undefined;
  #offset = 0;
  #whole = false;

  /** The value so far (undefined until one starts). The same object after every fragment. */
  get value(): JsonValue | undefined {
    return this.#root;
  }

  /** Whether one whole value has been read (only whitespace may follow). */
  get complete(): boolean {
    return this.#state === State.Done;
  }

  /** Whether one whole value was read, whatever came after it (text that is not space is an {@link error}). */
  get whole(): boolean {
    return this.#whole;
  }

  /** What made the text not JSON, with its offset; undefined while it can still be JSON. */
  get error(): string | undefined {
    return this.#error;
  }

  /** Reads `fragment`; returns false once the text cannot be JSON (see {@link error}). */
  push(fragment: string): boolean {
    let at = 0;
    while (at < fragment.length && this.#state !== State.Failed) at = this.#step(fragment, at);
    if (this.#state === State.String && !this.#isKey) this.#place(this.#text);
    this.#offset += fragment.length;
    return this.#state !== State.Failed;
  }

  /** The text has ended: a number or literal at the very end completes. Returns whether the value is whole. */
  end(): boolean {
    if (this.#state === State.Scalar) this.#endScalar(this.#offset);
    return this.#state === State.Done;
  }

  #fail(message: string, at: number): number {
    this.#state = State.Failed;
    this.#error = `${message} at offset ${this.#offset + at}`;
    return Number.POSITIVE_INFINITY;
  }

  /** Puts `value` where the value being read goes. */
  #place(value: JsonValue): void {
    if (this.#slot === undefined) this.#root = value;
    else put(this.#slot.container, this.#slot.key, value);
  }

  /** A value begins: its slot is the top container's member or next element, or the root. */
  #begin(value: JsonValue): void {
    const frame = this.#stack.at(-1);
    if (frame === undefined) this.#slot = undefined;
    else if (Array.isArray(frame.container)) {
      frame.container.push(value);
      this.#slot = { container: frame.container, key: frame.container.length - 1 };
    } else this.#slot = { container: frame.container, key: frame.key };
    if (frame !== undefined) frame.comma = false;
    this.#place(value);
  }

  /** A value ended: what may follow is a comma or an end, or nothing at the root. */
  #ended(): void {
    this.#state = this.#stack.length === 0 ? State.Done : State.After;
    if (this.#state === State.Done) this.#whole = true;
  }

  #endScalar(at: number): void {
    const text = this.#text;
    const value = Object.hasOwn(LITERALS, text)
      ? LITERALS[text]
      : NUMBER.test(text)
        ? Number(text)
        : undefined;
    if (value === undefined) {
      this.#fail(`"${text.slice(0, 20)}" is not a JSON value`, at);
      return;
    }
    this.#begin(value as JsonValue);
    this.#ended();
  }

  #open(container: JsonObject | JsonValue[], at: number): number {
    if (this.#stack.length >= MAX_JSON_DEPTH)
      return this.#fail(`nested deeper than ${MAX_JSON_DEPTH} levels`, at);
    this.#begin(container);
    this.#stack.push({ container, key: "", comma: false });
    this.#state = Array.isArray(container) ? State.Value : State.Key;
    return at + 1;
  }

  #close(at: number): number {
    const frame = this.#stack.pop() as Frame;
    if (frame.comma) return this.#fail("a comma before the end of a container", at);
    this.#ended();
    return at + 1;
  }

  /** Reads from `at`; returns where to go on. */
  #step(text: string, at: number): number {
    const code = text.charCodeAt(at);
    const space = code === 32 || code === 10 || code === 13 || code === 9;
    switch (this.#state) {
      case State.String: {
        // Everything up to the next quote or backslash at once.
        let end = at;
        while (end < text.length) {
          const c = text.charCodeAt(end);
          if (c === 34 || c === 92) break;
          if (c < 32) return this.#fail("a control character in a string", end);
          end++;
        }
        if (end > at) this.#text += text.slice(at, end);
        if (end === text.length) return end;
        if (text.charCodeAt(end) === 92) {
          this.#state = State.Escape;
          return end + 1;
        }
        if (this.#isKey) {
          const frame = this.#stack.at(-1) as Frame;
          frame.key = this.#text;
          this.#state = State.Colon;
        } else {
          this.#place(this.#text);
          this.#ended();
        }
        return end + 1;
      }
      case State.Escape: {
        const char = text[at] as string;
        if (char === "u") {
          this.#unicode = "";
          this.#state = State.Unicode;
        } else if (char in ESCAPES) {
          this.#text += ESCAPES[char];
          this.#state = State.String;
        } else return this.#fail(`"\\${char}" is not an escape`, at);
        return at + 1;
      }
      case State.Unicode: {
        if (!/[0-9a-fA-F]/.test(text[at] as string))
          return this.#fail("a \\u escape without four hex digits", at);
        this.#unicode += text[at];
        if (this.#unicode.length === 4) {
          this.#text += String.fromCharCode(Number.parseInt(this.#unicode, 16));
          this.#state = State.String;
        }
        return at + 1;
      }
      case State.Scalar: {
        let end = at;
        while (end < text.length && /[-+.\w]/.test(text[end] as string)) end++;
        this.#text += text.slice(at, end);
        if (end < text.length) this.#endScalar(end);
        return end;
      }
      case State.Done:
        return space ? at + 1 : this.#fail("text after the value", at);
      case State.Failed:
        return Number.POSITIVE_INFINITY;
    }
    if (space) return at + 1;
    switch (this.#state) {
      case State.Value:
        if (code === 123) return this.#open({}, at);
        if (code === 91) return this.#open([], at);
        if (code === 93 && this.#stack.length > 0 && Array.isArray(this.#stack.at(-1)?.container))
          return this.#close(at);
        if (code === 34) {
          this.#text = "";
          this.#isKey = false;
          this.#begin("");
          this.#state = State.String;
          return at + 1;
        }
        if (code === 45 || (code >= 48 && code <= 57) || code === 116 || code === 102 || code === 110) {
          this.#text = "";
          this.#state = State.Scalar;
          return at;
        }
        return this.#fail(`"${text[at]}" cannot start a value`, at);
      case State.Key:
        if (code === 34) {
          this.#text = "";
          this.#isKey = true;
          this.#state = State.String;
          return at + 1;
        }
        if (code === 125) return this.#close(at);
        return this.#fail("an object key must be a string", at);
      case State.Colon:
        if (code !== 58) return this.#fail("a colon must follow an object key", at);
        this.#state = State.Value;
        return at + 1;
      default: {
        // After a member or an element.
        const frame = this.#stack.at(-1) as Frame;
        const array = Array.isArray(frame.container);
        if (code === 44) {
          frame.comma = true;
          this.#state = array ? State.Value : State.Key;
          return at + 1;
        }
        if (code === (array ? 93 : 125)) return this.#close(at);
        return this.#fail(
          `"${text[at]}" where a comma or the end of the ${array ? "array" : "object"} goes`,
          at,
        );
      }
    }
  }
}
