/**
 * `TypedToolCall`: a run's tool calls typed per tool, so that narrowing on `name` gives that tool's
 * arguments, the way the tool was defined.
 *
 * @module
 */

import type { JsonObject, ToolCallPart } from "../types.ts";
import type { Tool } from "./define-tool.ts";

/** Any tool, whatever its name and arguments: what `tools` accepts. */
export type AnyTool = Tool<unknown, string, unknown>;

/**
 * The calls of the tools `T` (a union of tool types): for each tool a {@link ToolCallPart} whose
 * `name` is that tool's name and whose `args` have its schema's input type (what the model sends,
 * before defaults and transforms). A tool whose name is only known as `string` gives a plain
 * ToolCallPart, so untyped tools type as before.
 *
 * `args` is what the model sent. In `tool-start` it has passed validation. A failed call
 * (`result.isError`: invalid arguments, a `preToolUse` denial, a tool the run does not have) carries
 * the arguments and name exactly as the model wrote them, which may match no schema.
 */
export type TypedToolCall<T extends AnyTool = AnyTool> =
  T extends Tool<infer _Args, infer Name, infer Input>
    ? string extends Name
      ? ToolCallPart
      : Omit<ToolCallPart, "name" | "args"> & {
          /** The name of the tool called: a literal type, which narrows the union. */
          name: Name;
          /** The call's arguments, typed by the tool's schema input. */
          args: ArgsOf<Input>;
        }
    : never;

/**
 * A tool's input as the arguments of its call: exactly its keys (`args.city` on a calculator's call is
 * a type error), with `undefined` left out of optional ones (a JSON value never holds it), so the call
 * is still a {@link ToolCallPart}. An input JSON cannot carry (a `Date`) keeps the old, looser type.
 */
export type ArgsOf<Input> = unknown extends Input
  ? JsonObject
  : JsonShaped<Input> extends JsonObject
    ? JsonShaped<Input>
    : Input & JsonObject;

/** `T` with `undefined` taken out of its properties and elements, at every depth. */
export type JsonShaped<T> = T extends (...args: never[]) => unknown
  ? T // a function (a Date's methods, say) stays one: no JSON value holds it
  : T extends readonly (infer Item)[]
    ? JsonShaped<Item>[]
    : T extends object
      ? { [K in keyof T]: JsonShaped<Exclude<T[K], undefined>> }
      : T;

/** The tools of an array of tools (`typeof tools`), as a union: `ToolsOf<typeof tools>`. */
export type ToolsOf<Tools extends ReadonlyArray<AnyTool>> = Tools[number];
