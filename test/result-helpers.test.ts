/**
 * The Result helpers: each one's behaviour on a success and a failure, `partial` kept through every
 * transformation, `unwrap` throwing the SdkError itself, `tryCatch` for sync and async code, and the
 * types they produce.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnySdkError,
  all,
  andThen,
  ConfigError,
  err,
  isErr,
  isOk,
  isSdkError,
  map,
  mapErr,
  ok,
  type Result,
  runAgent,
  tryCatch,
  uncheckedModel,
  unwrap,
  unwrapOr,
} from "../src/index.ts";

// `as`, not a type annotation: an annotated const would be narrowed to Ok / Err by its initializer.
const failure = err("boom", { done: 2 }) as Result<number, string, { done: number }>;
const success = ok(21) as Result<number, string, { done: number }>;

describe("Result helpers", () => {
  it("ok, err, isOk and isErr build and narrow", () => {
    expect(success).toEqual({ ok: true, value: 21 });
    expect(failure).toEqual({ ok: false, error: "boom", partial: { done: 2 } });
    expect([isOk(success), isErr(success), isOk(failure), isErr(failure)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    if (isErr(failure)) expectTypeOf(failure.partial).toEqualTypeOf<{ done: number }>();
  });

  it("map and andThen transform successes; failures pass through with their partial", () => {
    expect(map(success, (value) => value * 2)).toEqual(ok(42));
    expect(map(failure, (value) => value * 2)).toBe(failure);
    expect(andThen(success, (value) => (value > 20 ? ok(String(value)) : err(1 as const)))).toEqual(ok("21"));
    expect(andThen(success, () => err("no", { step: 3 }))).toEqual(err("no", { step: 3 }));
    expect(andThen(failure, () => ok("never"))).toBe(failure);
    expectTypeOf(map(success, String)).toEqualTypeOf<Result<string, string, { done: number }>>();
  });

  it("mapErr transforms the error and keeps the partial", () => {
    expect(mapErr(failure, (error) => error.length)).toEqual(err(4, { done: 2 }));
    expect(mapErr(success, (error) => error.length)).toBe(success);
  });

  it("unwrap returns the value or throws the error itself; unwrapOr falls back", async () => {
    expect(unwrap(success)).toBe(21);
    expect(() => unwrap(failure)).toThrow("boom");
    expect(unwrapOr(failure, 0)).toBe(0);
    const refused = await runAgent({ model: uncheckedModel("nowhere/x"), apiKey: "k", prompt: "hi" });
    let thrown: unknown;
    try {
      unwrap(refused);
    } catch (error) {
      thrown = error;
    }
    expect(isSdkError(thrown)).toBe(true);
    expect(thrown).toBeInstanceOf(ConfigError);
  });

  it("all collects values, or returns the first failure", () => {
    expect(all([ok(1), ok(2)])).toEqual(ok([1, 2]));
    const second = err("second");
    expect(all<number, string, undefined>([ok(1), second, err("third")])).toBe(second);
    expect(all([])).toEqual(ok([]));
  });

  it("tryCatch turns throws into SdkErrors, for sync and async code", async () => {
    expect(tryCatch(() => 5)).toEqual(ok(5));
    const thrown = tryCatch((): number => {
      throw new TypeError("bad");
    });
    expect(thrown.ok).toBe(false);
    if (!thrown.ok) {
      expect(isSdkError(thrown.error)).toBe(true);
      expect(thrown.error).toMatchObject({ code: "UNKNOWN", message: "bad" });
      expect((thrown.error.cause as Error).name).toBe("TypeError");
    }
    expectTypeOf(thrown).toEqualTypeOf<Result<number, AnySdkError, undefined>>();
    expectTypeOf(tryCatch(() => JSON.parse("{}"))).toEqualTypeOf<Result<any, AnySdkError, undefined>>();
    const later = tryCatch(async () => "done");
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual(ok("done"));
    expectTypeOf(later).toEqualTypeOf<Promise<Result<string, AnySdkError, undefined>>>();
    const rejected = await tryCatch(
      () => Promise.reject(new Error("no")),
      (error) => (error as Error).message,
    );
    expect(rejected).toEqual(err("no"));
    const sdk = new ConfigError("kept", { code: "CONFIG_INVALID" });
    const kept = tryCatch((): string => {
      throw sdk;
    });
    expect(!kept.ok && kept.error).toBe(sdk);
  });
});
