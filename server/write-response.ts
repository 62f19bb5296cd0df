import type { ServerResponse } from "node:http";
import { pendingHeaders, TEXT_BODY } from "../lib/http/text-body-response";

let stateSymbol: symbol | null | undefined;

/**
 * The body a Response was constructed with, when it is a string or bytes (every JSON and HTML
 * response of the handlers): a TextBodyResponse's string (lib/http/text-body-response.ts), else
 * read from undici's internal state: `await res.text()` would run it
 * through a ReadableStream (~20-30 µs). `undefined` when the internals are not what is expected
 * (another Node.js version) or the body is a real stream: the caller then streams it.
 */
function bodySource(res: Response): string | Uint8Array | null | undefined {
  const text = (res as Partial<Record<typeof TEXT_BODY, () => string | null | undefined>>)[TEXT_BODY]?.();
  if (text !== undefined) return text;
  if (stateSymbol === undefined) {
    stateSymbol = Object.getOwnPropertySymbols(res).find((s) => s.description === "state") ?? null;
  }
  if (!stateSymbol || res.bodyUsed) return undefined;
  const state = (res as unknown as Record<symbol, { body?: { source?: unknown } | null } | undefined>)[stateSymbol];
  if (!state || typeof state !== "object" || !("body" in state)) return undefined;
  if (state.body === null || state.body === undefined) return res.body === null ? null : undefined;
  const source = state.body.source;
  return typeof source === "string" || source instanceof Uint8Array ? source : undefined;
}

// Next.js's sendResponse (next/dist/server/send-response.js): these response headers are appended to
// any already set; framing headers of the Response are dropped (Node frames the body itself).
const MULTI_VALUE = new Set(["set-cookie", "www-authenticate", "proxy-authenticate", "vary"]);
const FRAMING = new Set(["content-length", "content-encoding", "transfer-encoding"]);
/** The lower-case names of each path's fixed headers (the same array for every request of that path). */
const fixedNames = new WeakMap<ReadonlyArray<[string, string]>, Set<string>>();

/**
 * Writes a Web Response to Node's ServerResponse with Next.js's header precedence, so both paths
 * send the same headers: `fixed` (next.config.js `headers()`) first; a response header whose name is
 * already set is dropped (next.config.js wins), except the multi-value ones, which are appended;
 * every Set-Cookie kept; the body with a Content-Length when it is known. The head goes out in one
 * `writeHead` with a flat name/value list (no per-header `setHeader` bookkeeping).
 */
export async function writeResponse(out: ServerResponse, res: Response, fixed: ReadonlyArray<[string, string]>,
  head: boolean): Promise<void> {
  const lines: string[] = [];
  for (const [k, v] of fixed) lines.push(k, v);
  let taken = fixedNames.get(fixed);
  if (!taken) fixedNames.set(fixed, taken = new Set(fixed.map(([k]) => k.toLowerCase())));
  // A TextBodyResponse whose headers nothing has read yet: its own list (lower-case names, every value
  // on its own line), no Headers object built.
  const pending = pendingHeaders(res);
  if (pending) {
    for (let i = 0; i < pending.length; i += 2) {
      const key = pending[i]!;
      if (FRAMING.has(key) || (taken.has(key) && !MULTI_VALUE.has(key))) continue;
      lines.push(key, pending[i + 1]!);
    }
  } else {
    res.headers.forEach((value, key) => {
      if (key === "set-cookie" || FRAMING.has(key) || (taken.has(key) && !MULTI_VALUE.has(key))) return;
      lines.push(key, value);
    });
    for (const cookie of res.headers.getSetCookie()) lines.push("set-cookie", cookie);
  }
  const source = bodySource(res);
  if (source === null || (head && source !== undefined)) {
    if (source !== null) lines.push("content-length", String(Buffer.byteLength(source)));
    out.writeHead(res.status, lines);
    out.end();
    return;
  }
  if (source !== undefined) {
    lines.push("content-length", String(Buffer.byteLength(source)));
    out.writeHead(res.status, lines);
    out.end(source);
    return;
  }
  out.writeHead(res.status, lines);
  if (!res.body) {
    out.end();
    return;
  }
  // A streamed body (or unknown internals): pass it through chunk by chunk.
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (out.destroyed) break;
    if (!out.write(chunk)) await new Promise((r) => { out.once("drain", r); out.once("close", r); });
  }
  out.end();
}
