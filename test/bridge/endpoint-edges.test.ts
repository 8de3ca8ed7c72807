/**
 * The bridge's port abstraction (src/bridge/endpoint.ts) on stand-in ports: what counts as a port
 * (and connectSession's ConfigError for what does not), the messages and signs of the other side
 * going away that a Node-style emitter (`on`) and a Web-style target (`addEventListener`) deliver,
 * the words an error event is reported with, and that stopping removes every listener it added.
 * Real MessagePorts and workers are in bridge.test.ts and runtimes.test.ts.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { connectSession } from "../../src/bridge/connect-session.ts";
import { type BridgePort, isBridgePort, listen } from "../../src/bridge/endpoint.ts";

/** What the listeners heard, in order. */
function recorder() {
  const heard: Array<[string, unknown]> = [];
  const listeners = {
    message: (data: unknown) => heard.push(["message", data]),
    gone: (why: string) => heard.push(["gone", why]),
    error: (why: string) => heard.push(["error", why]),
  };
  return { heard, listeners };
}

/** A Node-style port: an EventEmitter (with `on`, `off` and `removeListener`) that can post. */
function emitterPort() {
  return Object.assign(new EventEmitter(), { postMessage: () => {} });
}

/** A Web-style port: an EventTarget that can post and is started by listening. */
function targetPort() {
  const target = new EventTarget();
  let started = 0;
  const port = Object.assign(target, {
    postMessage: () => {},
    start: () => {
      started++;
    },
  });
  return { port, started: () => started };
}

function errorEvent(fields: Record<string, unknown>): Event {
  return Object.assign(new Event("error"), fields);
}

describe("isBridgePort", () => {
  it("refuses values that are not objects, without throwing", () => {
    for (const value of [undefined, null, "port", 42, true]) expect(isBridgePort(value)).toBe(false);
  });

  it("needs postMessage and a way to listen", () => {
    const noop = () => {};
    expect(isBridgePort({ postMessage: noop })).toBe(false);
    expect(isBridgePort({ addEventListener: noop, on: noop })).toBe(false);
    expect(isBridgePort({ postMessage: noop, addEventListener: noop })).toBe(true);
    expect(isBridgePort({ postMessage: noop, on: noop })).toBe(true);
  });

  it("accepts a function object that has what a port needs", () => {
    const port = Object.assign(() => {}, { postMessage: () => {}, on: () => {} });
    expect(isBridgePort(port)).toBe(true);
  });

  it("makes connectSession resolve to a ConfigError on the port, not throw", async () => {
    for (const port of [undefined, { postMessage: () => {} }]) {
      const connected = await connectSession(port as never);
      expect(connected).toMatchObject({
        ok: false,
        error: {
          _tag: "ConfigError",
          code: "CONFIG_INVALID",
          path: "port",
          message: "connectSession needs a port: something with postMessage and addEventListener or on",
        },
      });
    }
  });
});

describe("listening on a Node-style port", () => {
  it("hands over each message's data and says why the other side went away", () => {
    const port = emitterPort();
    const { heard, listeners } = recorder();
    const stop = listen(port, listeners);
    port.emit("message", { t: "hello" });
    port.emit("close");
    port.emit("exit", 3);
    port.emit("messageerror", new Error("could not clone"));
    port.emit("error", new Error("boom"));
    stop();
    expect(heard).toEqual([
      ["message", { t: "hello" }],
      ["gone", "the port was closed"],
      ["gone", "the worker exited (code 3)"],
      ["error", "a message could not be deserialized"],
      ["error", "boom"],
    ]);
  });

  it("reports an error event in the words it carries, whatever its shape", () => {
    const port = emitterPort();
    const { heard, listeners } = recorder();
    const stop = listen(port, listeners);
    port.emit("error", { error: new Error("inside the event") });
    port.emit("error", { message: "Script error.", error: null });
    port.emit("error", "plain words");
    port.emit("error");
    stop();
    expect(heard).toEqual([
      ["error", "inside the event"],
      ["error", "Script error."],
      ["error", "plain words"],
      ["error", "undefined"],
    ]);
  });

  it("removes every listener it added when stopped", () => {
    const port = emitterPort();
    const stop = listen(port, recorder().listeners);
    expect(port.eventNames().length).toBeGreaterThan(0);
    stop();
    expect(port.eventNames()).toEqual([]);
  });

  it("removes its listeners with removeListener where the port has no off", () => {
    const emitter = new EventEmitter();
    const port: BridgePort = {
      postMessage: () => {},
      on: (type, listener) => emitter.on(type, listener),
      removeListener: (type, listener) => emitter.removeListener(type, listener),
    };
    const stop = listen(port, recorder().listeners);
    stop();
    expect(emitter.eventNames()).toEqual([]);
  });

  it("removes its listeners with off where the port has no removeListener", () => {
    const emitter = new EventEmitter();
    const port: BridgePort = {
      postMessage: () => {},
      on: (type, listener) => emitter.on(type, listener),
      off: (type, listener) => emitter.off(type, listener),
    };
    const stop = listen(port, recorder().listeners);
    stop();
    expect(emitter.eventNames()).toEqual([]);
  });
});

describe("listening on a Web-style port", () => {
  it("starts the port, hands over each message event's data and says why the other side went away", () => {
    const { port, started } = targetPort();
    const { heard, listeners } = recorder();
    const stop = listen(port, listeners);
    expect(started()).toBe(1);
    port.dispatchEvent(new MessageEvent("message", { data: { t: "hello" } }));
    port.dispatchEvent(new Event("close"));
    port.dispatchEvent(new Event("messageerror"));
    port.dispatchEvent(errorEvent({ error: new Error("boom") }));
    port.dispatchEvent(errorEvent({ message: "Script error.", error: null }));
    stop();
    expect(heard).toEqual([
      ["message", { t: "hello" }],
      ["gone", "the port was closed"],
      ["error", "a message could not be deserialized"],
      ["error", "boom"],
      ["error", "Script error."],
    ]);
  });

  it("hears nothing more once stopped", () => {
    const { port } = targetPort();
    const { heard, listeners } = recorder();
    listen(port, listeners)();
    port.dispatchEvent(new MessageEvent("message", { data: "late" }));
    port.dispatchEvent(new Event("close"));
    port.dispatchEvent(new Event("messageerror"));
    port.dispatchEvent(errorEvent({ error: new Error("late") }));
    expect(heard).toEqual([]);
  });
});
