/**
 * Finding what a piece of code leaves behind: abort listeners on a signal the caller keeps, abort
 * listeners Wisp's own code added to any signal (its internal ones included), and timers Wisp's code
 * started that neither fired nor were cleared. Each tracker patches the global it watches until
 * `stop()`; who added a listener or a timer is read from the caller's stack frame.
 */
import { getEventListeners } from "node:events";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const TESTING = `${SRC}testing/`;

/** The file of the code that called `skip` (the patched function), from its first stack frame. */
function callerFile(skip: (...args: never[]) => unknown): string {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, skip);
  const frame = holder.stack?.split("\n")[1] ?? "";
  const path = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(frame.trim())?.[1] ?? "";
  return path.startsWith("file://") ? fileURLToPath(path) : path;
}

/** Whether a file is Wisp's own code (src/, not the scripted model under src/testing/). */
const isWisp = (file: string): boolean => file.startsWith(SRC) && !file.startsWith(TESTING);

/** Counts the abort listeners registered on one signal through its own add/removeEventListener. */
export function countListeners(signal: AbortSignal): { readonly live: number; readonly added: number } {
  const live = new Set<unknown>();
  let added = 0;
  const add = signal.addEventListener;
  const remove = signal.removeEventListener;
  signal.addEventListener = function (
    this: AbortSignal,
    ...args: Parameters<AbortSignal["addEventListener"]>
  ) {
    if (args[0] === "abort" && args[1] !== null) {
      live.add(args[1]);
      added++;
    }
    add.apply(this, args);
  } as AbortSignal["addEventListener"];
  signal.removeEventListener = function (
    this: AbortSignal,
    ...args: Parameters<AbortSignal["removeEventListener"]>
  ) {
    if (args[0] === "abort") live.delete(args[1]);
    remove.apply(this, args);
  } as AbortSignal["removeEventListener"];
  return {
    get live() {
      // A `once` listener that fired is gone too: only what the signal still holds counts.
      const held = new Set(getEventListeners(signal, "abort"));
      return [...live].filter((listener) => held.has(listener as never)).length;
    },
    get added() {
      return added;
    },
  };
}

/** Records every abort listener Wisp's code adds to any AbortSignal; `left()` lists those still registered. */
export function trackWispListeners(): { left(): string[]; added(): number; stop(): void } {
  const proto = EventTarget.prototype;
  const original = proto.addEventListener;
  const added: Array<{ signal: AbortSignal; listener: unknown; file: string }> = [];
  function patched(this: EventTarget, ...args: Parameters<EventTarget["addEventListener"]>): void {
    const [type, listener] = args;
    if (this instanceof AbortSignal && type === "abort" && listener !== null) {
      const file = callerFile(patched);
      if (isWisp(file)) added.push({ signal: this, listener, file: file.slice(SRC.length) });
    }
    original.apply(this, args);
  }
  proto.addEventListener = patched;
  return {
    left: () =>
      added
        .filter(({ signal, listener }) => getEventListeners(signal, "abort").includes(listener as never))
        .map(({ file }) => file),
    added: () => added.length,
    stop: () => {
      proto.addEventListener = original;
    },
  };
}

/** Records every timer Wisp's code starts (scripted model included); `pending()` lists those neither fired nor cleared. */
export function trackWispTimers(): { pending(): string[]; started(): number; stop(): void } {
  const originalSet = globalThis.setTimeout;
  const originalClear = globalThis.clearTimeout;
  const live = new Map<unknown, string>();
  let started = 0;
  function patchedSet(handler: (...args: unknown[]) => void, delay?: number, ...rest: unknown[]): unknown {
    const file = callerFile(patchedSet);
    if (!file.startsWith(SRC)) return originalSet(handler, delay, ...rest);
    started++;
    const handle: unknown = originalSet(
      (...args: unknown[]) => {
        live.delete(handle);
        handler(...args);
      },
      delay,
      ...rest,
    );
    live.set(handle, `${file.slice(SRC.length)} (${delay} ms)`);
    return handle;
  }
  function patchedClear(handle: unknown): void {
    live.delete(handle);
    originalClear(handle as Parameters<typeof clearTimeout>[0]);
  }
  globalThis.setTimeout = patchedSet as unknown as typeof setTimeout;
  globalThis.clearTimeout = patchedClear as typeof clearTimeout;
  return {
    pending: () => [...live.values()],
    started: () => started,
    stop: () => {
      globalThis.setTimeout = originalSet;
      globalThis.clearTimeout = originalClear;
    },
  };
}

/** Lets what a finished run set in motion finish too (a body's last read, a drain): a few turns of the event loop. */
export async function settleEventLoop(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}
