// The same package through `require`: the CommonJS build, and errors made by one copy of Wisp's
// classes recognised by another's `isSdkError` and `instanceof` (the ES modules against CommonJS, and
// the CommonJS entry points against each other: each bundles its own copy).
const wisp = require("wisp-agent");
const testing = require("wisp-agent/testing");
const formats = require("wisp-agent/formats");

import("wisp-agent").then(async (esm) => {
  const model = testing.createScriptedModel({
    script: [{ content: [{ type: "text", text: "hello from cjs" }] }],
  });
  const result = await wisp.runAgent({ model: "openai/gpt-5", fetch: model.fetch, prompt: "Hi" });
  const fromEsm = new esm.ConfigError("x", { code: "CONFIG_INVALID" });
  const read = await formats.fromPi("");
  const fromFormats = read.ok ? undefined : read.error;
  console.log(
    JSON.stringify({
      sameExports: Object.keys(wisp).sort().join() === Object.keys(esm).sort().join(),
      exportCount: Object.keys(wisp).length,
      text: result.ok ? result.value.text : result.error.message,
      crossCopy:
        wisp.isSdkError(fromEsm) && fromEsm instanceof wisp.ConfigError && fromEsm instanceof wisp.SdkError,
      otherTag: fromEsm instanceof wisp.ProviderError,
      subpathCopy: fromFormats instanceof wisp.ParseError && fromFormats instanceof esm.ParseError,
    }),
  );
});
