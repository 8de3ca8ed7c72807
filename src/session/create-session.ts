/**
 * The send/receive API: `createSession` and `prompt`. A thin layer over an agent session that speaks
 * in whole messages — the shape of the Claude Agent SDK's V2 sessions — instead of events: `send`
 * queues a prompt, `receive` yields what the runs add to the conversation and one result per prompt.
 *
 * @module
 */

import type { AgentEvent, AgentRun, AgentRunResult } from "../agent/agent-events.ts";
import type { ApprovalDecision } from "../agent/approvals.ts";
import type { HookEntry, HookList, PreToolUseDecision } from "../agent/hooks.ts";
import type { QuestionReply } from "../agent/questions.ts";
import type { Result } from "../agent/result.ts";
import { err } from "../agent/result-helpers.ts";
import type { AnyTool } from "../agent/typed-tool-call.ts";
import { notDuration, notFunctionOption } from "../config/option-checks.ts";
import { checkOptions, type OptionTable } from "../config/option-table.ts";
import { notAnObject } from "../config/unknown-option.ts";
import { classifyThrown } from "../errors/classify.ts";
import { type AnySdkError, ConfigError } from "../errors/sdk-error.ts";
import { randomId } from "../message/random-id.ts";
import type { Message, UserContentPart } from "../types.ts";
import { emptyUsage } from "../usage/usage.ts";
import { type AgentSession, createAgentSession } from "./agent-session.ts";
import { asyncDispose } from "./async-dispose.ts";
import type { ExportOptions, SessionBranch } from "./branches.ts";
import type {
  CanUseTool,
  ResultMessage,
  SendInput,
  SessionMessage,
  SystemInitMessage,
} from "./session-messages.ts";
import { SESSION_OPTIONS, type SessionOptions } from "./session-options.ts";
import type { SessionState } from "./session-state.ts";

/** How long `canUseTool` may take to answer by default: a person reading a prompt is slow. */
const DEFAULT_CAN_USE_TOOL_TIMEOUT_MS = 300_000;

/** The options of {@link createSession}: a session's options plus an optional permission callback. */
export interface CreateSessionOptions<T extends AnyTool = AnyTool, O = unknown> extends SessionOptions<T, O> {
  /**
   * Asked before every tool call, after the `preToolUse` hooks. Default: every call is allowed. Its
   * `input` is a plain JsonObject (TypeScript cannot narrow a two-argument callback by the tools it
   * infers); a `preToolUse` hook's `toolCall` is typed by the tools.
   */
  canUseTool?: CanUseTool;
  /** How long `canUseTool` may take before the call is denied. Default 300,000 (5 minutes). */
  canUseToolTimeoutMs?: number;
}

/** Every option of {@link createSession}, in the order they are checked. */
export const CREATE_SESSION_OPTIONS: OptionTable<CreateSessionOptions> = {
  ...SESSION_OPTIONS,
  canUseTool: notFunctionOption,
  canUseToolTimeoutMs: notDuration,
};

/** A session that takes prompts with `send` and gives whole messages back through `receive`. */
export interface MessageSession<T extends AnyTool = AnyTool> extends AsyncDisposable {
  /** The session's id. */
  readonly sessionId: string;
  /**
   * Queues a prompt: it runs now, or after the prompts sent before it. Resolves once queued; never
   * rejects: input of the wrong shape, another session's id, or a closed session resolve to a failed
   * Result with a ConfigError (nothing is queued); a prompt the run refuses (an empty one) gets an
   * error result through `receive`.
   */
  send(message: SendInput): Promise<Result<void, AnySdkError, undefined>>;
  /**
   * Yields, in order: the `system` init message (once, before anything else), the messages the runs
   * add to the conversation (whole assistant messages, tool results), and a `result` per prompt.
   * Ends when every prompt sent so far has its result; call it again after the next `send`. One
   * iteration at a time; breaking out of it does not stop the runs (their messages wait for the next).
   */
  receive(): AsyncGenerator<SessionMessage, void, undefined>;
  /**
   * Decides tool calls that wait for approval (a result with stopReason `approval`) and goes on, as
   * `AgentSession.resume`: what the resumed run adds arrives through `receive`, ending with a result.
   * Never rejects: decisions that cannot be taken resolve to a failed Result with a ConfigError
   * (`APPROVAL_INVALID`, `SESSION_BUSY`, …), and nothing runs.
   */
  resume(decisions: (ApprovalDecision<T> | QuestionReply)[]): Promise<Result<void, AnySdkError, undefined>>;
  /** Aborts the run in flight and the prompts queued; each still gets its (error) result. */
  abort(reason?: unknown): void;
  /** The session as plain JSON, to restore with `createSession({ restore })` or `createAgentSession`. */
  export(options?: ExportOptions): SessionState;
  /** The conversation's branches (after a `send` with `parentUuid`), as `AgentSession.branches`. */
  branches(): SessionBranch[];
  /** Makes another branch the active one, as `AgentSession.switchBranch`. */
  switchBranch(leafId: string): Result<SessionBranch[], ConfigError, undefined>;
  /** Aborts what runs, fires `sessionEnd`; later sends fail with SESSION_CLOSED. */
  close(): Promise<void>;
}

/** The content and id of what `send` was given, or the ConfigError that says what is wrong with it. */
function readInput(
  input: SendInput,
  sessionId: string,
): { content: string | UserContentPart[]; id?: string; parentId?: string | null } {
  if (typeof input === "string" || Array.isArray(input)) return { content: input };
  if (input === null || typeof input !== "object" || input.type !== "user") {
    throw new ConfigError('send() takes a string, content parts, or { type: "user", message }', {
      code: "CONFIG_INVALID",
      path: "message",
    });
  }
  if (input.sessionId !== undefined && input.sessionId !== sessionId) {
    throw new ConfigError(`The message names session ${input.sessionId}, not ${sessionId}`, {
      code: "CONFIG_INVALID",
      path: "sessionId",
    });
  }
  const message = input.message;
  const content = typeof message === "string" || Array.isArray(message) ? message : message?.content;
  if (content === undefined) {
    throw new ConfigError("The user message has no content", { code: "CONFIG_INVALID", path: "message" });
  }
  const read: { content: string | UserContentPart[]; id?: string; parentId?: string | null } = { content };
  if (input.uuid !== undefined) read.id = input.uuid;
  // A fork (docs/forks.md): continue from that message, keeping what came after it as a branch. A
  // null parentUuid (what a client sends with a conversation's first message) continues: it does not
  // restart the conversation (chat's `parentId: null` does).
  if (typeof input.parentUuid === "string") read.parentId = input.parentUuid;
  return read;
}

/** `canUseTool` as a `preToolUse` hook, after the caller's own hooks. */
function withPermission(
  hooks: HookList<"preToolUse"> | undefined,
  canUseTool: CanUseTool,
  timeoutMs = DEFAULT_CAN_USE_TOOL_TIMEOUT_MS,
) {
  const permission: HookEntry<"preToolUse"> = {
    name: "canUseTool",
    onFailure: "closed",
    timeoutMs,
    handler: async ({ toolCall, signal, sessionId }): Promise<PreToolUseDecision> => {
      const answer = await canUseTool(toolCall.name, toolCall.args, {
        signal,
        toolCallId: toolCall.id,
        sessionId,
      });
      if (answer.behavior === "allow") return answer.updatedInput ? { input: answer.updatedInput } : {};
      if (answer.behavior === "ask")
        return answer.message === undefined
          ? { decision: "ask" }
          : { decision: "ask", reason: answer.message };
      return answer.interrupt
        ? { decision: "stop", reason: answer.message }
        : { decision: "deny", reason: answer.message };
    },
  };
  const list = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  return [...list, permission];
}

/** What `work` did: an ok Result, or the error it threw (as an SdkError) in a failed one. */
async function settled(work: () => Promise<void>): Promise<Result<void, AnySdkError, undefined>> {
  try {
    await work();
    return { ok: true, value: undefined };
  } catch (thrown) {
    return err(classifyThrown(thrown, {}));
  }
}

function resultMessage(result: AgentRunResult, promptUuid: string): ResultMessage {
  const value = result.ok ? result.value : result.partial;
  const message: ResultMessage = {
    type: "result",
    subtype: result.ok ? "success" : "error",
    isError: !result.ok,
    uuid: randomId(),
    sessionId: value.sessionId,
    promptUuid,
    text: value.text,
    stopReason: value.stopReason,
    usage: value.usage,
    turns: value.turns,
    durationMs: value.durationMs,
  };
  if (value.output !== undefined) message.output = value.output;
  if (value.stopDetail !== undefined) message.stopDetail = value.stopDetail;
  if (value.pendingApprovals !== undefined) message.pendingApprovals = value.pendingApprovals;
  if (value.pendingQuestions !== undefined) message.pendingQuestions = value.pendingQuestions;
  if (value.usage.costUsd !== undefined) message.costUsd = value.usage.costUsd;
  if (!result.ok) message.error = result.error;
  return message;
}

class Messages implements MessageSession {
  readonly #session: AgentSession;
  readonly #init: SystemInitMessage;
  #initSent = false;
  readonly #outbox: SessionMessage[] = [];
  /** Prompts sent whose result is not in the outbox yet. */
  #outstanding = 0;
  #wake: (() => void) | undefined;
  #receiving = false;
  /** The id of the conversation's last message: the parent of the next. */
  #lastUuid: string | null;
  /** Settles when the last prompt's messages and result are all posted: the next one posts after it. */
  #tail: Promise<void> = Promise.resolve();

  constructor(session: AgentSession, tools: string[]) {
    this.#session = session;
    const snapshot = session.snapshot();
    this.#lastUuid = snapshot.lastMessageId ?? null;
    this.#init = {
      type: "system",
      subtype: "init",
      uuid: randomId(),
      sessionId: session.sessionId,
      provider: snapshot.provider,
      model: snapshot.model,
      tools,
    };
  }

  get sessionId(): string {
    return this.#session.sessionId;
  }

  #post(message: SessionMessage): void {
    this.#outbox.push(message);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  send(input: SendInput): Promise<Result<void, AnySdkError, undefined>> {
    return settled(async () => this.#send(input));
  }

  resume(decisions: (ApprovalDecision | QuestionReply)[]): Promise<Result<void, AnySdkError, undefined>> {
    return settled(() => this.#resume(decisions));
  }

  #send(input: SendInput): void {
    const { content, id = randomId(), parentId } = readInput(input, this.sessionId);
    if (this.#session.snapshot().status === "closed") {
      throw new ConfigError("The session is closed", { code: "SESSION_CLOSED" });
    }
    if (!this.#initSent) {
      this.#initSent = true;
      this.#post(this.#init);
    }
    // followUp: while a run is in flight the prompt waits its turn; when idle it runs at once.
    const run = this.#session.stream(content, {
      mode: "followUp",
      id,
      ...(parentId === undefined ? {} : { parentId }),
    });
    this.#start(run, run[Symbol.asyncIterator](), id);
  }

  async #resume(decisions: (ApprovalDecision | QuestionReply)[]): Promise<void> {
    // A closed session's resume is refused (SESSION_CLOSED) as any other: its only event is its run-end.
    const run = this.#session.resumeStream(decisions);
    const events = run[Symbol.asyncIterator]();
    // A started run's first event is `run-start`; a refused resume's only event is its run-end.
    const first = await events.next();
    if (first.done || first.value.type === "run-end") {
      const result = await run.result;
      if (!result.ok) throw result.error;
    }
    this.#start(run, events, randomId(), first);
  }

  #start(
    run: AgentRun,
    events: AsyncIterator<AgentEvent>,
    promptUuid: string,
    first?: IteratorResult<AgentEvent>,
  ): void {
    this.#outstanding++;
    this.#tail = this.#forward(run, events, promptUuid, this.#tail, first);
  }

  /** Posts a run's messages and result, after the previous prompt's (the run's events wait in its queue). */
  async #forward(
    run: AgentRun,
    events: AsyncIterator<AgentEvent>,
    promptUuid: string,
    previous: Promise<void>,
    first?: IteratorResult<AgentEvent>,
  ): Promise<void> {
    await previous;
    for (let next = first ?? (await events.next()); next.done !== true; next = await events.next()) {
      const event = next.value;
      if (event.type !== "message") continue;
      const message: Message = event.message;
      const parentUuid = this.#lastUuid;
      this.#lastUuid = message.id;
      if (message.id === promptUuid) continue; // the prompt itself is not echoed
      const envelope = { uuid: message.id, parentUuid, sessionId: this.sessionId };
      this.#post(
        message.role === "assistant"
          ? { type: "assistant", ...envelope, message }
          : { type: "user", ...envelope, message },
      );
    }
    const result = await run.result;
    this.#outstanding--;
    this.#post(resultMessage(result, promptUuid));
  }

  async *receive(): AsyncGenerator<SessionMessage, void, undefined> {
    if (this.#receiving) {
      throw new ConfigError("receive() is already being iterated", { code: "SESSION_BUSY" });
    }
    this.#receiving = true;
    try {
      for (;;) {
        const message = this.#outbox.shift();
        if (message !== undefined) {
          yield message;
          continue;
        }
        if (this.#outstanding === 0) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    } finally {
      this.#receiving = false;
    }
  }

  abort(reason?: unknown): void {
    this.#session.abort(reason);
  }

  export(options?: ExportOptions): SessionState {
    return this.#session.export(options);
  }

  branches(): SessionBranch[] {
    return this.#session.branches();
  }

  switchBranch(leafId: string): Result<SessionBranch[], ConfigError, undefined> {
    const switched = this.#session.switchBranch(leafId);
    // The next message the runs add continues the branch switched to.
    if (switched.ok) this.#lastUuid = this.#session.snapshot().lastMessageId ?? null;
    return switched;
  }

  close(): Promise<void> {
    return this.#session.close();
  }

  [asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Creates a session that speaks in whole messages: `send` prompts, `receive` messages and results.
 * Tools run without asking unless `canUseTool` is given. Like `createAgentSession` it never rejects:
 * invalid options or an invalid `restore` state resolve to a failed Result whose ConfigError's `path`
 * names the first problem.
 *
 * @example
 * ```ts
 * const created = await createSession({ model: "anthropic/claude-sonnet-5-5", apiKey, tools: [weather] });
 * if (!created.ok) throw created.error;
 * await using session = created.value;
 * await session.send("Weather in Oslo?");
 * for await (const message of session.receive()) {
 *   if (message.type === "assistant") render(message.message);
 *   if (message.type === "result") console.log(message.subtype, message.text, message.costUsd);
 * }
 * ```
 */
export function createSession<T extends AnyTool = AnyTool, O = unknown>(
  options: CreateSessionOptions<T, O>,
): Promise<Result<MessageSession<T>, AnySdkError, undefined>>;
export async function createSession(
  options: CreateSessionOptions,
): Promise<Result<MessageSession, AnySdkError, undefined>> {
  let sessionOptions: SessionOptions;
  let tools: string[];
  try {
    const problem =
      // Before `hooks` and `tools` are read below.
      notAnObject(options, "The session's options") ?? checkOptions(CREATE_SESSION_OPTIONS, options);
    if (problem !== undefined) return err(problem);
    const { canUseTool, canUseToolTimeoutMs, ...rest } = options;
    const preToolUse =
      canUseTool === undefined
        ? undefined
        : withPermission(rest.hooks?.preToolUse, canUseTool, canUseToolTimeoutMs);
    sessionOptions = preToolUse === undefined ? rest : { ...rest, hooks: { ...rest.hooks, preToolUse } };
    tools = (options.tools ?? []).map((tool) => tool.name);
  } catch (thrown) {
    // Options whose getters throw (a hostile Proxy): a failed Result, as everything else here.
    return err(classifyThrown(thrown, {}));
  }
  const created = await createAgentSession(sessionOptions);
  return created.ok ? { ok: true, value: new Messages(created.value, tools) } : created;
}

/** The error result of a prompt that never ran: its options or its message were refused. */
function refusedPrompt(error: AnySdkError, sessionId: string): ResultMessage {
  return {
    type: "result",
    subtype: "error",
    isError: true,
    uuid: randomId(),
    sessionId,
    promptUuid: "",
    text: "",
    stopReason: "error",
    usage: emptyUsage(),
    turns: 0,
    durationMs: 0,
    error,
  };
}

/**
 * One prompt, one result: creates a session, sends `message`, waits for its result and closes the
 * session. Never throws or rejects: a failed run's result has `subtype` `error`, with the SdkError in
 * `error` (a missing `apiKey` is such a run); so do invalid options or a `message` of the wrong shape
 * (a ConfigError, with nothing sent and `promptUuid` empty).
 *
 * @example
 * ```ts
 * const result = await prompt("What is 2 + 3?", { model: "openai/gpt-5.5", apiKey });
 * console.log(result.subtype === "success" ? result.text : result.error?.message);
 * ```
 */
export async function prompt<T extends AnyTool = AnyTool, O = unknown>(
  message: SendInput,
  options: CreateSessionOptions<T, O>,
): Promise<ResultMessage> {
  const created = await createSession(options);
  if (!created.ok)
    return refusedPrompt(created.error, typeof options?.sessionId === "string" ? options.sessionId : "");
  const session = created.value;
  try {
    const sent = await session.send(message);
    if (!sent.ok) return refusedPrompt(sent.error, session.sessionId);
    let result: ResultMessage | undefined;
    for await (const received of session.receive()) if (received.type === "result") result = received;
    return result as ResultMessage;
  } finally {
    await session.close();
  }
}
