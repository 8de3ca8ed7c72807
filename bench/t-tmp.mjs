import { agentLoopSection } from "./agent-loop.mjs";
import { sessionStateSection } from "./session-state.mjs";

const a = await agentLoopSection();
console.log(
  a
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .join("\n"),
);
const s = await sessionStateSection();
console.log(
  s
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .join("\n"),
);
