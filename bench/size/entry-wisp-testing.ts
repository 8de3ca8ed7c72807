// Everything `wisp-agent/testing` exports (the scripted model); never part of a program that does not import it.
export * from "wisp-agent/testing";
