import { describe, expect, it } from "vitest";
import { json } from "./respond";
import { appendHeader, hasHeader, pendingHeaders, setHeader, TEXT_BODY, TextBodyResponse } from "./text-body-response";

describe("TextBodyResponse (a Response that keeps its string body until something reads it)", () => {
  const make = () => new TextBodyResponse('{"a":"é"}', { status: 201, statusText: "Created", headers: { "content-type": "application/json" } });

  it("is a standard Response: status, headers, text(), json(), bytes, body stream, bodyUsed", async () => {
    const r = make();
    expect(r).toBeInstanceOf(Response);
    expect([r.status, r.statusText, r.ok, r.headers.get("content-type")]).toEqual([201, "Created", true, "application/json"]);
    expect(r.bodyUsed).toBe(false);
    expect(await r.text()).toBe('{"a":"é"}');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect(await make().json()).toEqual({ a: "é" });
    expect(Buffer.from(await make().arrayBuffer()).toString("utf8")).toBe('{"a":"é"}');
    expect(await (await make().blob()).text()).toBe('{"a":"é"}');
    const streamed = make();
    const chunks: Uint8Array[] = [];
    for await (const c of streamed.body as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
    expect(Buffer.concat(chunks).toString("utf8")).toBe('{"a":"é"}');
    expect(streamed.body).toBe(streamed.body); // one stream, as Response.body
    expect(streamed.bodyUsed).toBe(true);
  });

  it("a wrapper built from its body and init (what a framework may do) carries the same bytes and headers", async () => {
    const r = make();
    const wrapped = new Response(r.body, r);
    expect(wrapped.status).toBe(201);
    expect(wrapped.headers.get("content-type")).toBe("application/json");
    expect(await wrapped.text()).toBe('{"a":"é"}');
  });

  it("clones until read; the clone is independent", async () => {
    const r = make();
    const c = r.clone();
    expect(await c.text()).toBe('{"a":"é"}');
    expect(await r.text()).toBe('{"a":"é"}');
    expect(() => r.clone()).toThrow(TypeError);
  });

  it("hands its text to a direct writer until the body has been read", async () => {
    const r = json({ error: "invalid_request" }, { status: 400, noStore: true });
    const text = (r as unknown as Record<typeof TEXT_BODY, () => string | undefined>)[TEXT_BODY]();
    expect(text).toBe('{"error":"invalid_request"}');
    expect(r.headers.get("cache-control")).toBe("no-store");
    await r.text();
    expect((r as unknown as Record<typeof TEXT_BODY, () => string | undefined>)[TEXT_BODY]()).toBeUndefined();
  });

  it("keeps record headers as a list until `headers` is read, then they are the Headers", () => {
    const pending = pendingHeaders;
    const r = new TextBodyResponse(null, { status: 302, headers: { Location: "https://rp.example/cb?code=x", "Cache-Control": "no-store" } });
    setHeader(r, "X-Request-Id", "a");
    setHeader(r, "x-request-id", "b"); // set replaces, whatever the case
    appendHeader(r, "Set-Cookie", "c=1");
    appendHeader(r, "Set-Cookie", "d=2");
    expect([hasHeader(r, "cache-control"), hasHeader(r, "X-Content-Type-Options")]).toEqual([true, false]);
    expect(pending(r)).toEqual(["location", "https://rp.example/cb?code=x", "cache-control", "no-store", "x-request-id", "b",
      "set-cookie", "c=1", "set-cookie", "d=2"]);
    // Read as a Response: the same headers, and from then on the Headers are the one place.
    expect(r.headers.get("x-request-id")).toBe("b");
    expect(r.headers.getSetCookie()).toEqual(["c=1", "d=2"]);
    expect(r.headers.get("location")).toBe("https://rp.example/cb?code=x");
    expect(pending(r)).toBeUndefined();
    setHeader(r, "X-Request-Id", "c");
    expect([r.headers.get("x-request-id"), hasHeader(r, "x-request-id")]).toEqual(["c", true]);
    expect([r.status, r.body]).toEqual([302, null]);
  });
});
