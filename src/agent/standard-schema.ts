/**
 * The parts of the Standard Schema spec (standardschema.dev) Wisp reads, declared here so the core
 * needs no schema library at run time. zod 4 (classic and mini), valibot and arktype implement
 * `~standard.validate`; zod 4 classic also implements `~standard.jsonSchema`, the Standard JSON Schema
 * converter, which is how a tool's schema becomes the JSON Schema sent to the provider.
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
    /** Present on schemas that implement Standard JSON Schema (zod 4 classic does). */
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The validated type a schema produces. */
export type InferOutput<S extends StandardSchema> = NonNullable<S["~standard"]["types"]>["output"];
