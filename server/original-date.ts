/**
 * The built-in `Date`, captured when the server bundle starts, before Next.js loads: Next.js 16
 * replaces `globalThis.Date` with a wrapper that reports every `new Date()` and `Date.now()` to its
 * prerendering clock tracking (next/dist/server/node-environment-extensions/date.js), about a
 * microsecond per call on every request of the protocol endpoints, which never prerender.
 * scripts/build-server.mjs injects this module, so every bare `Date` in the bundled code (server/
 * and lib/) is this one. Instances are the same either way (the wrapper keeps the prototype).
 */
const BuiltinDate: DateConstructor = globalThis.Date;
export { BuiltinDate as Date };
