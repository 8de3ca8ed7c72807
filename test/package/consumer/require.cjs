// The same package through `require`: the CommonJS build, and an error made by one build recognised
// by the other's `isSdkError` (two copies of a class, one marker).
const wisp = require("wisp-agent");
const testing = require("wisp-agent/testing");

import("wisp-agent").then(async (esm) => {
  const model = testing.createScriptedModel({
    script: [{ content: [{ type: "text", text: "hello from cjs" }] }],
  });
  const result = await wisp.runAgent({ model: "openai/gpt-5", fetch: model.fetch, prompt: "Hi" });
  const fromEsm = new esm.ConfigError("x", { code: "CONFIG_INVALID" });
  console.log(
    JSON.stringify({
      sameExports: Object.keys(wisp).sort().join() === Object.keys(esm).sort().join(),
      exportCount: Object.keys(wisp).length,
      text: result.ok ? result.value.text : result.error.message,
      crossCopy: wisp.isSdkError(fromEsm) && !(fromEsm instanceof wisp.ConfigError),
    }),
  );
});
