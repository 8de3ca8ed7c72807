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
  /** What is wrong, in words. */
  readonly message: string;
  /** Where in the input: the keys and indexes from the root, each bare or as a segment object. Absent for the root. */
  readonly path?:
    | ReadonlyArray<
        | PropertyKey
        | {
            /** The key or index of this step. */
            readonly key: PropertyKey;
          }
      >
    | undefined;
}

/** The outcome of `~standard.validate`. */
export type StandardResult<Output> =
  | {
      /** The validated value. */
      readonly value: Output;
      /** Absent on success. */
      readonly issues?: undefined;
    }
  | {
      /** Every problem found; the input is invalid. */
      readonly issues: ReadonlyArray<StandardIssue>;
    };

/** A schema that validates unknown input into `Output` (Standard Schema v1). */
export interface StandardSchema<Input = unknown, Output = Input> {
  /** The Standard Schema interface, under the key the spec names. */
  readonly "~standard": {
    /** The spec's version, 1. */
    readonly version: 1;
    /** The library that made the schema (`zod`, `valibot`, `arktype`). */
    readonly vendor: string;
    /** Validates an unknown value, at once or asynchronously. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Type-level only: the input and output types, never set at run time. */
    readonly types?:
      | {
          /** The type the schema accepts. */
          readonly input: Input;
          /** The type validation produces. */
          readonly output: Output;
        }
      | undefined;
    /** Present on schemas that implement Standard JSON Schema (zod 4.2 and later, classic). */
    readonly jsonSchema?: {
      /**
       * The JSON Schema of what validation accepts, for a target dialect (`draft-2020-12`, `draft-07`,
       * `openapi-3.0`).
       */
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
