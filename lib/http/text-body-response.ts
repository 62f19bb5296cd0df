/** Brand of a TextBodyResponse, read across bundles (the production server and Next.js's each have a copy). */
export const TEXT_BODY = Symbol.for("operator-identity.text-body");

/**
 * A Response whose body is a string known up front (every JSON answer of the protocol endpoints).
 * undici's Response turns a string body into a ReadableStream as it is constructed (~27 µs on this
 * hardware, about 4 % of a full flow's server CPU in the benchmark's profile); this one keeps the
 * string and builds a real body only if something reads it (`body`, `text()`, ...: Next.js's
 * response writer, tests). The production server writes the string itself (server/write-response.ts).
 * Everything else (status, headers, `instanceof Response`) is the standard Response.
 */
export class TextBodyResponse extends Response {
  readonly #text: string;
  #inner?: Response;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The body text, for a writer that sends it directly; undefined once the body has been read. */
  [TEXT_BODY](): string | undefined {
    return this.#inner?.bodyUsed ? undefined : this.#text;
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
