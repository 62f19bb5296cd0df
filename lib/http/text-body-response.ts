/** Brand of a TextBodyResponse, read across bundles (the production server and Next.js's each have a copy). */
export const TEXT_BODY = Symbol.for("operator-identity.text-body");

/** Brand of the pending header list of a TextBodyResponse (read by server/write-response.ts across bundles). */
export const TEXT_HEADERS = Symbol.for("operator-identity.text-headers");
/** set / append / has on that list (a symbol, so a response of either bundle's copy is recognised). */
const HEADER_OP = Symbol.for("operator-identity.text-header-op");
type HeaderOp = (op: "set" | "append", name: string, value?: string) => boolean;

type LeanInit = { status?: number; statusText?: string; headers?: HeadersInit };

/**
 * A Response whose body is a string known up front (every JSON answer of the protocol endpoints), or
 * none (a redirect). undici's Response turns a string body into a ReadableStream as it is constructed
 * (~27 µs on this hardware, about 4 % of a full flow's server CPU in the benchmark's profile); this one
 * keeps the string and builds a real body only if something reads it (`body`, `text()`, ...: Next.js's
 * response writer, tests). Headers given as a plain record are kept as a list too, and become a real
 * `Headers` (validated and normalised as undici does) the first time anything reads `headers`: the
 * production server writes the string and the list itself (server/write-response.ts) and the hot
 * handlers add their headers through {@link setHeader} / {@link appendHeader} / {@link hasHeader},
 * so a protocol response on the lean path builds no `Headers` object at all (~5-10 µs each).
 * Everything else (status, headers, `instanceof Response`) is the standard Response.
 */
export class TextBodyResponse extends Response {
  readonly #text: string | null;
  #inner?: Response;
  /** Lower-case name, value, name, value, ... until `headers` is first read; then undefined. */
  #pending?: string[];

  constructor(text: string | null, init: LeanInit) {
    const h = init.headers;
    const plain = h !== undefined && !(h instanceof Headers) && !Array.isArray(h) && typeof h === "object"
      && !(Symbol.iterator in h);
    super(null, plain ? { status: init.status, statusText: init.statusText } : init);
    this.#text = text;
    if (plain) {
      const list: string[] = [];
      for (const k in h as Record<string, string>) list.push(k.toLowerCase(), (h as Record<string, string>)[k]!);
      this.#pending = list;
    }
  }

  /** The body text for a writer that sends it directly (null: no body); undefined once the body has been read. */
  [TEXT_BODY](): string | null | undefined {
    return this.#inner?.bodyUsed ? undefined : this.#text;
  }

  /** The headers as a flat name/value list while nothing has read `headers` (then undefined: read those). */
  [TEXT_HEADERS](): readonly string[] | undefined {
    return this.#pending;
  }

  override get headers(): Headers {
    const headers = super.headers;
    const pending = this.#pending;
    if (pending) {
      this.#pending = undefined;
      for (let i = 0; i < pending.length; i += 2) headers.append(pending[i]!, pending[i + 1]!);
    }
    return headers;
  }

  /** set / append on the pending list; false when the list is gone (the caller uses `headers`). */
  [HEADER_OP](op: "set" | "append", name: string, value = ""): boolean {
    const list = this.#pending;
    if (!list) return false;
    const key = name.toLowerCase();
    if (op === "set") {
      for (let i = list.length - 2; i >= 0; i -= 2) if (list[i] === key) list.splice(i, 2);
    }
    list.push(key, value);
    return true;
  }

  private get inner(): Response {
    return (this.#inner ??= new Response(this.#text));
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.inner.body as ReadableStream<Uint8Array<ArrayBuffer>> | null;
  }

  override get bodyUsed(): boolean {
    return this.#inner?.bodyUsed ?? false;
  }

  override text(): Promise<string> {
    return this.inner.text();
  }

  override json(): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- Response's own signature
    return this.inner.json();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.inner.arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.inner.blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.inner.bytes();
  }

  override formData(): Promise<FormData> {
    return this.inner.formData();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new TextBodyResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

/** `res.headers.set(name, value)`, without building the Headers of a TextBodyResponse that has none yet. */
export function setHeader(res: Response, name: string, value: string): void {
  if (!headerOp(res)?.call(res, "set", name, value)) res.headers.set(name, value);
}

/** `res.headers.append(name, value)`, as {@link setHeader}. */
export function appendHeader(res: Response, name: string, value: string): void {
  if (!headerOp(res)?.call(res, "append", name, value)) res.headers.append(name, value);
}

/** `res.headers.has(name)`, as {@link setHeader}. */
export function hasHeader(res: Response, name: string): boolean {
  const pending = pendingHeaders(res);
  if (!pending) return res.headers.has(name);
  const key = name.toLowerCase();
  return pending.some((n, i) => i % 2 === 0 && n === key);
}

/**
 * The header list of a TextBodyResponse (either bundle's copy) that nothing has read `headers` of yet: lower-case
 * names and values in turn. Undefined for any other response, or once `headers` was read.
 */
export function pendingHeaders(res: Response): readonly string[] | undefined {
  return (res as Partial<Record<typeof TEXT_HEADERS, () => readonly string[] | undefined>>)[TEXT_HEADERS]?.();
}

function headerOp(res: Response): HeaderOp | undefined {
  return (res as Partial<Record<typeof HEADER_OP, HeaderOp>>)[HEADER_OP];
}
