/**
 * The demo's tools, defined with zod: a clock, a calculator, and a messenger that needs the user's
 * approval before it "sends" anything.
 *
 * @module
 */

import { askUserTool, defineTool } from "wisp-agent";
import { z } from "zod";

/** The current time in an IANA time zone. */
const clock = defineTool({
  name: "clock",
  description: "The current date and time in a time zone",
  input: z.object({ timeZone: z.string().describe("An IANA time zone, e.g. Europe/Oslo or UTC") }),
  execute: ({ timeZone }) => {
    try {
      return new Date().toLocaleString("en-GB", { timeZone, dateStyle: "medium", timeStyle: "short" });
    } catch {
      throw new Error(`Unknown time zone: ${timeZone}`);
    }
  },
});

/** Arithmetic on two numbers. */
const calculator = defineTool({
  name: "calculator",
  description: "Adds, subtracts, multiplies or divides two numbers",
  input: z.object({
    op: z.enum(["add", "subtract", "multiply", "divide"]),
    a: z.number(),
    b: z.number(),
  }),
  execute: ({ op, a, b }) => {
    if (op === "divide" && b === 0) throw new Error("Division by zero");
    const value = op === "add" ? a + b : op === "subtract" ? a - b : op === "multiply" ? a * b : a / b;
    return String(Number(value.toPrecision(12)));
  },
});

/**
 * "Sends" a message (nothing leaves the Worker: it answers what it would have sent). Every call waits
 * for the user: the run pauses with the call pending until the page approves, edits or denies it.
 */
const sendMessage = defineTool({
  name: "send_message",
  description: "Sends a short message to a contact. The user approves every message before it is sent.",
  input: z.object({
    to: z.string().min(1).max(80).describe("Who receives the message"),
    text: z.string().min(1).max(500).describe("The message"),
  }),
  needsApproval: true,
  execute: ({ to, text }) => `Sent to ${to}: "${text}"`,
});

/** Every demo tool; `ask_user` lets the model ask the user multiple-choice questions (the page shows them). */
export const DEMO_TOOLS = [clock, calculator, sendMessage, askUserTool()];
