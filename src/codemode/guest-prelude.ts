/**
 * The script run in each fresh sandbox before the program: it takes the host
 * functions off the global object, fixes `Date` to the recorded guest clock,
 * seeds `Math.random`, adds `console.log` and the `tools` object, and returns
 * the function the host settles calls with and the one that runs the program.
 */
export const GUEST_PRELUDE = `(() => {
  const host = globalThis.__host;
  delete globalThis.__host;
  const hostCall = host.call, hostClock = host.clock, hostLog = host.log;
  const waiting = new Map();
  const RealDate = Date;
  function GuestDate(...args) {
    if (!new.target) return new RealDate(hostClock()).toString();
    return args.length === 0 ? new RealDate(hostClock()) : new RealDate(...args);
  }
  GuestDate.prototype = RealDate.prototype;
  GuestDate.now = () => hostClock();
  GuestDate.parse = RealDate.parse;
  GuestDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, "constructor", { value: GuestDate });
  globalThis.Date = GuestDate;
  let seed = host.seed >>> 0;
  Math.random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const show = (value) => {
    if (typeof value === "string") return value;
    try { const text = JSON.stringify(value); return text === undefined ? String(value) : text; } catch { return String(value); }
  };
  const log = (...values) => { hostLog(values.map(show).join(" ")); };
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  class ToolError extends Error {}
  ToolError.prototype.name = "ToolError";
  const callTool = (name, args) => {
    const text = JSON.stringify(args === undefined ? {} : args);
    if (text === undefined) return Promise.reject(new TypeError("tools." + name + "() takes one object argument"));
    const error = new ToolError("");
    return new Promise((resolve, reject) => { waiting.set(hostCall(name, text), { resolve, reject, error }); });
  };
  const tools = new Proxy(Object.freeze(Object.create(null)), {
    get: (_, name) => (typeof name === "string" && name !== "then" ? (args) => callTool(name, args) : undefined),
    has: () => false,
    set: () => false,
    defineProperty: () => false,
  });
  Object.defineProperty(globalThis, "tools", { value: tools, enumerable: false });
  const settle = (id, ok, text) => {
    const call = waiting.get(id);
    if (call === undefined) return;
    waiting.delete(id);
    if (!ok) { call.error.message = text; call.reject(call.error); return; }
    let value;
    try { value = JSON.parse(text); } catch { value = text; }
    call.resolve(value);
  };
  const run = async (program) => {
    const value = await program();
    if (value === undefined) return undefined;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text === undefined ? String(value) : text;
  };
  return [settle, run];
})()`;
