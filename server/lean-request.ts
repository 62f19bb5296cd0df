import type { IncomingMessage, ServerResponse } from "node:http";
import { BUFFERED_BODY, type BufferedBody } from "../lib/http/params";

/**
 * The part of a Web `Request` the protocol handlers in lib/ use (method, url, headers, body as a
 * stream or text, signal), built straight from Node's IncomingMessage. A full undici `Request`
 * with a body costs ~30-60 µs of CPU per request on this hardware (bench/README.md, "lean
 * server"), a large share of a 3-request flow; this costs a LeanHeaders (below).
 * The body arrives already buffered (see readBody), capped at `cap` bytes: the handlers refuse
 * anything above their own, smaller limit (lib/http/params.ts MAX_BODY_BYTES).
 */
export class LeanRequest implements BufferedBody {
  readonly headers: Headers;
  private controller?: AbortController;

  constructor(
    readonly method: string,
    readonly url: string,
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
    private readonly bytes: Buffer | null,
  ) {
    // X-Forwarded-For is the client's address server/main.ts resolved for both paths (lib/http/client-ip.ts).
    this.headers = new LeanHeaders(incoming.rawHeaders);
  }

  get body(): ReadableStream<Uint8Array> | null {
    const bytes = this.bytes;
    if (!bytes) return null;
    return new ReadableStream<Uint8Array>({
      start(c) {
        if (bytes.length) c.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        c.close();
      },
    });
  }

  /** The body bytes as read (readBodyText in lib/http/params.ts reads them without a stream). */
  [BUFFERED_BODY](): Buffer | null {
    return this.bytes;
  }

  get bodyUsed(): boolean {
    return false;
  }

  async text(): Promise<string> {
    return this.bytes ? this.bytes.toString("utf8") : "";
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.bytes ?? Buffer.alloc(0);
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async formData(): Promise<FormData> {
    // Rarely used by the hot handlers: delegate to undici's parser through a real Request.
    return new Request(this.url, { method: this.method, headers: this.headers, body: this.bytes as unknown as BodyInit }).formData();
  }

  /** Aborted when the client goes away before the response is finished (long polls use it). */
  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      const abort = () => {
        if (!this.outgoing.writableFinished) controller.abort();
      };
      this.outgoing.once("close", abort);
      this.incoming.once("aborted", abort);
      // The signal is made lazily: a client that left before anything asked for it (its "close"
      // already fired) must still read as gone, or a long poll would hold for a connection that is no more.
      if (this.outgoing.closed || this.incoming.socket?.destroyed) abort();
    }
    return this.controller.signal;
  }
}

/**
 * Reads a request body into memory and stops as soon as it exceeds `cap` bytes: the handler then
 * sees more than it accepts and answers 413 itself, and the caller closes the connection instead
 * of draining the rest (an unbounded chunked body is never read to its end).
 */
export function readBody(req: IncomingMessage, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > cap) {
        req.off("data", onData);
        req.pause();
        resolve(Buffer.concat(chunks));
      }
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/**
 * Reads and throws away the rest of a request body: true when it ended within `maxBytes` more bytes
 * and `maxMs`, false otherwise (the request is then left paused and the caller closes the connection).
 */
export function discardBody(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<boolean> {
  if (req.readableEnded || req.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let size = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (!ended) req.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), maxMs);
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onError);
    req.resume();
  });
}

/**
 * The request headers as a `Headers` (it is one: `instanceof`, and every method answers as undici's
 * would) read from Node's raw header list into a plain map: names lower-case, repeated headers joined
 * with ", " (Set-Cookie kept apart), iteration sorted by name. undici's own `Headers` validates and
 * normalises each header again as it is appended (~5-9 µs for a request's ten headers on this hardware);
 * Node's parser has already refused invalid names and values and trimmed the values.
 */
export class LeanHeaders extends Headers {
  readonly #map = new Map<string, string>();
  #cookies?: string[];

  constructor(raw: readonly string[]) {
    super();
    for (let i = 0; i < raw.length; i += 2) this.append(raw[i]!, raw[i + 1]!);
  }

  override append(name: string, value: string): void {
    const key = name.toLowerCase();
    const v = String(value).trim();
    if (key === "set-cookie") (this.#cookies ??= []).push(v);
    const old = this.#map.get(key);
    // Repeated Cookie lines are one cookie list ("; ", as undici and Node join them); other headers a comma list.
    this.#map.set(key, old === undefined ? v : `${old}${key === "cookie" ? "; " : ", "}${v}`);
  }

  override set(name: string, value: string): void {
    const key = name.toLowerCase();
    const v = String(value).trim();
    if (key === "set-cookie") this.#cookies = [v];
    this.#map.set(key, v);
  }

  override delete(name: string): void {
    const key = name.toLowerCase();
    if (key === "set-cookie") this.#cookies = undefined;
    this.#map.delete(key);
  }

  override get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }

  override has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }

  override getSetCookie(): string[] {
    return this.#cookies ? [...this.#cookies] : [];
  }

  override forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  override *entries(): HeadersIterator<[string, string]> {
    for (const k of [...this.#map.keys()].sort()) {
      if (k === "set-cookie") for (const c of this.#cookies ?? []) yield [k, c];
      else yield [k, this.#map.get(k)!];
    }
  }

  override *keys(): HeadersIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  override *values(): HeadersIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }

  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
}
