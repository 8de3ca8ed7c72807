/**
 * Layer `modules` (docs/architecture.md): the subpath entries: bridge, effect, formats, mcp, testing.
 *
 * `wisp-agent/testing`: the scripted model, for Wisp's own tests, benchmarks and demo, and for yours.
 *
 * @module wisp-agent/testing
 */

export type {
  Fault,
  HttpFault,
  RecordedRequest,
  RecordedTool,
  ScriptCompaction,
  ScriptedTurn,
  ScriptPart,
  ScriptRedactedThinking,
  ScriptText,
  ScriptThinking,
  ScriptToolCall,
  StreamFault,
} from "./script.ts";
export type { ScriptedModel, ScriptedModelOptions } from "./scripted-model.ts";
export { createScriptedModel } from "./scripted-model.ts";
export { anthropicErrorBody, anthropicErrorEvent, speakAnthropic } from "./speak-anthropic.ts";
export { geminiErrorBody, geminiErrorEvent, speakGemini } from "./speak-gemini.ts";
export { openAIErrorBody, openAIErrorEvent, speakOpenAIChat } from "./speak-openai-chat.ts";
export { openAIResponsesErrorEvent, speakOpenAIResponses } from "./speak-openai-responses.ts";
export type { WireEvent } from "./wire-event.ts";
export { frameEvent } from "./wire-event.ts";
