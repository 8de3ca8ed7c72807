/**
 * The session `connectSession` gives: a {@link RemoteSession} whose runs and calls go through a
 * {@link BridgeConnection} to the worker, each run's options checked here first, as the session
 * would check them.
 *
 * @module
 */

import type { AgentRun, AgentRunResult } from "../agent/agent-events.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import type { PermissionPolicy } from "../agent/permission-policy.ts";
import { permissionPolicyProblem } from "../agent/permission-rules.ts";
import type { QuestionReply } from "../agent/questions.ts";
import type { Result } from "../agent/result.ts";
import { err } from "../agent/result-helpers.ts";
import { classifyThrown } from "../errors/classify.ts";
import { messageOf } from "../errors/message-of.ts";
import { type AnySdkError, ConfigError } from "../errors/sdk-error.ts";
import type {
  ExportOptions,
  ResumeOptions,
  SessionBranch,
  SessionSnapshot,
} from "../session/agent-session.ts";
import { type ChatOptions, checkChatOptions, checkResumeOptions } from "../session/session-options.ts";
import type { QueuedPrompt, SessionState } from "../session/session-state.ts";
import { traceparentOf } from "../telemetry/trace-context.ts";
import type { UserContentPart } from "../types.ts";
import { BridgeConnection } from "./bridge-connection.ts";
import type { BridgePort } from "./endpoint.ts";
import type { HookFeedListener } from "./hook-feed.ts";
import type { MainMessage, RunRequestOptions } from "./protocol.ts";
import { RemoteRun } from "./remote-run.ts";
import type { ConnectSessionOptions, RemoteSession } from "./remote-session.ts";

/** A schema is code: it cannot cross the port, so per-run structured output is set where the session runs. */
function schemaAcrossPort(output: unknown): ConfigError | undefined {
  if (output === undefined) return undefined;
  return new ConfigError(
    "output (a schema) cannot cross the port: give output to serveSession's session options in the worker",
    { code: "CONFIG_INVALID", path: "output" },
  );
}

/** A branch named by something other than a leaf id (a string), refused before it is sent. */
function notALeaf(path: string): ConfigError {
  return new ConfigError(`${path} must be a branch's leaf id (a string)`, { code: "BRANCH_INVALID", path });
}

const DEFAULT_WINDOW = 256;

/** A session in a worker, from the main thread (see {@link RemoteSession}). */
export class Client implements RemoteSession {
  sessionId = "";
  readonly #connection: BridgeConnection;
  readonly #options: ConnectSessionOptions;

  /** A session on `port`, with options already checked; {@link Client.connect} greets the worker. */
  constructor(port: BridgePort, options: ConnectSessionOptions) {
    this.#options = options;
    this.#connection = new BridgeConnection(port, options, (sessionId) => {
      this.sessionId = sessionId;
    });
  }

  /** Greets the worker; resolves with this session once the worker answered ready, or with why not. */
  connect(): Promise<Result<RemoteSession, AnySdkError, undefined>> {
    return this.#connection.connect().then(
      () => ({ ok: true, value: this }),
      (thrown: unknown) => err(classifyThrown(thrown, {})),
    );
  }

  /**
   * Starts a run in the worker. Never throws: bad options (checked here, as the session would) and a
   * gone worker give a run that has already ended with the error.
   */
  #run(
    request: Omit<Extract<MainMessage, { t: "run" }>, "t" | "id" | "window" | "quiet" | "options">,
    options: unknown,
    quiet: boolean,
  ): RemoteRun {
    const id = this.#connection.nextId("run");
    const window = quiet ? 0 : (this.#options.window ?? DEFAULT_WINDOW);
    let signal: AbortSignal | undefined;
    const onAbort = () => run.abort(signal?.reason);
    const run = new RemoteRun(
      this.sessionId,
      {
        credit: (n) => this.#connection.post({ t: "credit", id, n }),
        abort: (reason) => this.#connection.post({ t: "abort", id, reason: messageOf(reason) }),
        ended: () => {
          this.#connection.dropRun(id);
          signal?.removeEventListener("abort", onAbort);
        },
      },
      window,
    );
    const problem =
      (request.op === "resume" ? checkResumeOptions(options) : checkChatOptions(options)) ??
      schemaAcrossPort((options as ChatOptions | undefined)?.output);
    const failure = problem ?? this.#connection.gone;
    if (failure !== undefined) {
      run.fail(failure);
      return run;
    }
    const { signal: given, traceParent, ...rest } = (options ?? {}) as ChatOptions;
    signal = given;
    const traceparent = traceparentOf(traceParent);
    this.#connection.addRun(id, run);
    if (
      !this.#connection.post(
        {
          ...request,
          t: "run",
          id,
          window,
          quiet,
          options: rest as RunRequestOptions,
          ...(traceparent === undefined ? {} : { traceparent }),
        },
        false,
      )
    ) {
      const what = request.op === "resume" ? "decisions" : "input";
      run.fail(
        new ConfigError(
          `The run's ${what} (or its options) could not be posted to the worker: they must be plain data (no functions or class instances)`,
          { code: "CONFIG_INVALID", path: what },
        ),
      );
      return run;
    }
    if (signal?.aborted) run.abort(signal.reason);
    else signal?.addEventListener("abort", onAbort, { once: true });
    return run;
  }

  stream(input: string | UserContentPart[], options?: ChatOptions): AgentRun {
    return this.#run({ op: "chat", input }, options, false);
  }

  chat(input: string | UserContentPart[], options?: ChatOptions): Promise<AgentRunResult> {
    return this.#run({ op: "chat", input }, options, true).result;
  }

  resumeStream(decisions: (ApprovalDecision | QuestionReply)[], options?: ResumeOptions): AgentRun {
    return this.#run({ op: "resume", decisions }, options, false);
  }

  resume(decisions: (ApprovalDecision | QuestionReply)[], options?: ResumeOptions): Promise<AgentRunResult> {
    return this.#run({ op: "resume", decisions }, options, true).result;
  }

  onHookEvent(listener: HookFeedListener): () => void {
    return this.#connection.feed.add(listener);
  }

  abort(reason?: unknown): void {
    this.#connection.post(reason === undefined ? { t: "abort" } : { t: "abort", reason: messageOf(reason) });
  }

  export(options?: ExportOptions): Promise<Result<SessionState, AnySdkError, undefined>> {
    const branch = options?.branch;
    if (branch === undefined) return this.#call("export");
    return typeof branch === "string"
      ? this.#call("export", { branch })
      : Promise.resolve(err(notALeaf("branch")));
  }

  branches(): Promise<Result<SessionBranch[], AnySdkError, undefined>> {
    return this.#call("branches");
  }

  switchBranch(leafId: string): Promise<Result<SessionBranch[], AnySdkError, undefined>> {
    return typeof leafId === "string"
      ? this.#call("switchBranch", leafId)
      : Promise.resolve(err(notALeaf("leafId")));
  }

  snapshot(): Promise<Result<SessionSnapshot, AnySdkError, undefined>> {
    return this.#call("snapshot");
  }

  drainQueue(): Promise<Result<QueuedPrompt[], AnySdkError, undefined>> {
    return this.#call("drainQueue");
  }

  permissions(): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>> {
    return this.#call("permissions");
  }

  setPermissions(
    policy: PermissionPolicy,
  ): Promise<Result<Required<PermissionPolicy>, AnySdkError, undefined>> {
    // Checked here first, as the session would, so only a valid (plain data) policy crosses the port.
    const problem = permissionPolicyProblem(policy);
    if (problem !== undefined) return Promise.resolve(err(problem));
    return this.#call("setPermissions", policy);
  }

  /** A call of the worker's session, its answer or its error (SESSION_CLOSED, BRIDGE_CLOSED) as a Result. */
  #call<T>(
    name: Extract<MainMessage, { t: "call" }>["method"],
    argument?: unknown,
  ): Promise<Result<T, AnySdkError, undefined>> {
    return this.#connection.call(name, argument).then(
      (value) => ({ ok: true, value: value as T }),
      (thrown: unknown) => err(classifyThrown(thrown, {})),
    );
  }

  async close(): Promise<void> {
    // A worker that is gone (before or meanwhile) has closed the session with it: the call rejects.
    await this.#connection.call("close").catch(() => undefined);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
