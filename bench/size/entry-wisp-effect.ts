// Everything `wisp-agent/effect` exports, with the parts of `effect` it uses; never part of a program that does not import it.
export * from "wisp-agent/effect";
