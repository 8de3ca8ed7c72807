/**
 * Layer `schema` (docs/architecture.md): Standard Schema, a tool's JSON Schema, validation issues as one line.
 *
 * The parts of the Standard Schema spec (standardschema.dev) Wisp reads, declared here so the core
 * needs no schema library at run time. zod 4 (classic and mini), valibot and arktype implement
 * `~standard.validate`; zod 4.2 and later (classic, not mini) also implement `~standard.jsonSchema`,
 * the Standard JSON Schema converter, which is how a tool's schema becomes the JSON Schema sent to the
 * provider. zod 4.0 and 4.1 have only the module function `z.toJSONSchema`, zod 3 and valibot none of
 * their own (`@valibot/to-json-schema` is a separate package).
 *
 * @module
 */

/** One validation problem. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** The outcome of `~standard.validate`. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** A schema that validates unknown input into `Output` (Standard Schema v1). */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Present on schemas that implement Standard JSON Schema (zod 4.2 and later, classic). */
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      /** The JSON Schema of what validation produces (structured output asks for this one). */
      readonly output?: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The validated type a schema produces (what `execute` receives). */
export type InferOutput<S extends StandardSchema> = NonNullable<S["~standard"]["types"]>["output"];

/** The type a schema accepts (what the model sends, before defaults and transforms). */
export type InferInput<S extends StandardSchema> = NonNullable<S["~standard"]["types"]>["input"];
