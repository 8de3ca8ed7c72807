/**
 * Reads a body as text only as far as needed: an error's body, the start of a document, a JSON answer
 * with a ceiling. Each chunk can reset an idle timer, and an abort ends the read at once.
 *
 * @module
 */

/** What keeps the read of a body in check: the request's signal, and a timer each chunk resets. */
export interface BodyRead {
  signal?: AbortSignal | undefined;
  onChunk?: (() => void) | undefined;
}

/**
 * Reads `body` as text until `enough(text)` or its end, then cancels the rest. An abort cancels the
 * read at once, even with a fetch that ignores its signal, and throws the signal's reason.
 */
export async function readText(
  body: ReadableStream<Uint8Array>,
  read: BodyRead,
  enough: (text: string) => boolean,
): Promise<string> {
  const { signal, onChunk } = read;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", cancel);
  let text = "";
  try {
    for (;;) {
      if (enough(text)) {
        cancel();
        return text;
      }
      const next = signal?.aborted ? undefined : await reader.read();
      // An abort ends a pending read as the end of the body: it is told apart here.
      if (signal?.aborted || next === undefined) throw signal?.reason;
      if (next.done) return text + decoder.decode();
      onChunk?.();
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}
