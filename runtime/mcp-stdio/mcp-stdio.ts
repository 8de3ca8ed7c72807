/**
 * MCP's stdio transport: newline-delimited JSON-RPC over a server process's stdin and stdout. Each
 * message goes out as one line; each line read is sorted into the answer a request waits for, or a
 * message the server sent unprompted (notifications, its own requests), handed to the client. A
 * process that ends fails every waiting request at once with how it ended and the tail of its stderr;
 * a line that is not JSON-RPC fails the waiting requests with a ParseError; a line past the bound
 * ends the connection. A message the server does not read before its request gives up (timeout or
 * abort) ends the connection too: the rest of its line is dropped and the process stopped, as a half
 * line would corrupt every later message (see {@link McpStdio.post}).
 *
 * @module
 */

import { redactText } from "../../src/errors/redact.ts";
import type { FailedRequest } from "../../src/errors/sdk-error.ts";
import { type IncomingMessage, type RequestId, sortIncoming } from "../../src/mcp/json-rpc.ts";
import { protocolFailure } from "../../src/mcp/mcp-failures.ts";
import type { ExchangeOptions, ListenOutcome, McpTransport } from "../../src/mcp/mcp-transport.ts";
import type { JsonObject } from "../../src/types.ts";
import type { LineTooLong } from "./line-splitter.ts";
import { type ServerCommand, ServerProcess } from "./server-process.ts";
import {
  closedFailure,
  exitFailure,
  type ProcessExit,
  stalledFailure,
  startFailure,
} from "./stdio-failures.ts";

/** A request that waits for its answer. */
interface Waiting {
  resolve(message: IncomingMessage): void;
  reject(error: unknown): void;
}

/** The transport of one server process; {@link McpStdio.start} makes one. */
export class McpStdio implements McpTransport {
  /** Always undefined: a stdio server has one session, its process's. */
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** The command line, without secrets. */
  readonly shownUrl: string;
  readonly #waiting = new Map<RequestId, Waiting>();
  /** Where unprompted messages go: the listener's, else the handler of the last request sent. */
  #listening: ((message: IncomingMessage) => void) | undefined;
  #lastHandler: ((message: IncomingMessage) => void) | undefined;
  /** What every request fails with once the connection ended. */
  #ended: unknown;
  #process: ServerProcess | undefined;
  /** The caller's secrets (the values of its `env`), redacted from what the server writes into errors. */
  readonly #secrets: readonly string[];

  private constructor(shownUrl: string, secrets: readonly string[]) {
    this.shownUrl = shownUrl;
    this.#secrets = secrets;
  }

  /**
   * Starts the server; rejects with an SdkError when it cannot be started. `secrets` (the values of
   * the caller's `env`) never appear in an error: stderr's tail and stdout's bad lines are redacted.
   */
  static async start(
    command: ServerCommand,
    shownUrl: string,
    secrets: readonly string[] = [],
  ): Promise<McpStdio> {
    const transport = new McpStdio(shownUrl, secrets);
    try {
      transport.#process = await ServerProcess.start(command, {
        onLine: (line) => transport.#read(line),
        onTooLong: (error) => transport.#tooLong(error),
        onExit: (exit) => transport.#exited(exit),
      });
    } catch (error) {
      throw startFailure(error, transport.described("spawn"), command);
    }
    return transport;
  }

  /** The server's process id. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** Resolves once the server's process ended. */
  get exited(): Promise<ProcessExit> | undefined {
    return this.#process?.exited;
  }

  /** What errors name: the command line (a stdio message has no HTTP method or URL). */
  described(_method: string): FailedRequest {
    return { method: "stdio", url: this.shownUrl };
  }

  /**
   * Writes one message as a line. Resolves with the response to `awaiting`, or undefined when nothing
   * was awaited, once the line was written.
   *
   * The write itself is raced against `signal` (which the client aborts on its timeout): a server that
   * stopped reading its stdin fills the pipe, and the write would never finish. When `signal` aborts
   * before the line was written, this rejects with its reason at once (the client makes that a
   * RequestError `TIMEOUT`, or an AbortError), and the connection ends: part of the line may be in the
   * pipe, and the rest of it, or any later message after half of it, would corrupt the stream. The
   * unwritten rest is dropped, stdin closed and the process stopped (SIGTERM, then SIGKILL); every
   * other waiting request, and every later one, fails with a RequestError `NETWORK` (not retryable)
   * saying the server stopped reading its stdin.
   */
  async post(message: JsonObject, options: ExchangeOptions): Promise<IncomingMessage | undefined> {
    if (this.#ended !== undefined) throw this.#ended;
    const process = this.#process as ServerProcess;
    const { awaiting, signal } = options;
    if (awaiting === undefined) {
      await this.#write(process, message, signal);
      return undefined;
    }
    this.#lastHandler = options.onMessage;
    let onAbort = (): void => {};
    const answer = new Promise<IncomingMessage>((resolve, reject) => {
      this.#waiting.set(awaiting, { resolve, reject });
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    answer.catch(() => {}); // a failure while the line is still being written is not unhandled
    try {
      await this.#write(process, message, signal);
      return await answer;
    } finally {
      this.#waiting.delete(awaiting);
      signal.removeEventListener("abort", onAbort);
    }
  }

  async #write(process: ServerProcess, message: JsonObject, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw signal.reason;
    let onAbort = (): void => {};
    const aborted = new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
    });
    const written = process.write(`${JSON.stringify(message)}\n`).then(() => "written" as const);
    written.catch(() => {}); // a write that fails after the request gave up is the connection's end
    let outcome: "written" | "aborted";
    try {
      outcome = await Promise.race([written, aborted]);
    } catch (error) {
      // Ended here already (a stalled write dropped), or the process is going: its end (code, signal,
      // stderr) says more than the pipe's EPIPE.
      if (this.#ended === undefined) await process.exited;
      throw this.#ended ?? error;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    if (outcome === "aborted") {
      this.#stalled();
      throw signal.reason;
    }
  }

  /** A line could not be written before its request gave up: the connection ends (see {@link post}). */
  #stalled(): void {
    const failure = stalledFailure(this.described("stdin"));
    this.#ended ??= failure;
    this.#failWaiting(this.#ended);
    this.#process?.dropInput();
    void this.#process?.stop();
  }

  /** One line of stdout: a response for a waiting request, or a message for the client. */
  #read(line: string): void {
    if (line.trim() === "") return;
    const request = this.described("stdout");
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#failWaiting(
        protocolFailure(`The MCP server wrote a line that is not JSON: ${this.#shown(line)}`, request),
      );
      return;
    }
    const messages = sortIncoming(value);
    if (messages === undefined) {
      this.#failWaiting(
        protocolFailure(`The MCP server wrote JSON that is not JSON-RPC 2.0: ${this.#shown(line)}`, request),
      );
      return;
    }
    for (const message of messages) {
      try {
        this.#route(message);
      } catch {
        // a callback of the caller's that threw (onNotification, …) does not stop the reading
      }
    }
  }

  /** The start of a line of the server's, for an error: redacted (a log line may carry a key). */
  #shown(line: string): string {
    return redactText(line, this.#secrets).slice(0, 80);
  }

  #route(message: IncomingMessage): void {
    if (message.kind === "response" || message.kind === "error") {
      if (message.id === null) {
        // An error about no request in particular (the server could not read a line): every one waiting.
        for (const waiting of this.#waiting.values()) waiting.resolve(message);
        return;
      }
      this.#waiting.get(message.id)?.resolve(message);
      return; // an answer to a request given up already is dropped
    }
    (this.#listening ?? this.#lastHandler)?.(message);
  }

  #failWaiting(error: unknown): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
  }

  /** A line past the bound: the stream cannot be read on, so the connection ends. */
  #tooLong(error: LineTooLong): void {
    const failure = protocolFailure(
      `The MCP server wrote a line longer than ${error.maxChars} characters`,
      this.described("stdout"),
    );
    this.#ended ??= failure;
    this.#failWaiting(failure);
    void this.#process?.stop();
  }

  #exited(exit: ProcessExit): void {
    this.#ended ??= exitFailure(
      exit,
      this.#process?.stderrLines() ?? [],
      this.described("stdio"),
      this.#secrets,
    );
    this.#failWaiting(this.#ended);
  }

  /**
   * Hands what the server says unprompted to `onMessage` until the process ends or `signal` aborts;
   * then `"not-offered"`, as the process will say nothing more (or nobody listens).
   */
  async listen(
    signal: AbortSignal,
    onMessage: (message: IncomingMessage) => void,
    _onRetry: (ms: number) => void,
  ): Promise<ListenOutcome> {
    const process = this.#process;
    if (this.#ended !== undefined || process === undefined || signal.aborted) return "not-offered";
    this.#listening = onMessage;
    let onAbort = (): void => {};
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([process.exited, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (this.#listening === onMessage) this.#listening = undefined;
    }
    return "not-offered";
  }

  /**
   * Ends the server: stdin closed, then SIGTERM, then SIGKILL, each after a grace period; requests
   * still waiting fail at once (SESSION_CLOSED). Always runs to the end, whatever `signal` says: a
   * server is never left running.
   */
  async terminate(_signal?: AbortSignal): Promise<void> {
    if (this.#ended === undefined) {
      const failure = closedFailure(this.described("stdio"));
      this.#ended = failure;
      this.#failWaiting(failure);
    }
    await this.#process?.stop();
  }
}
