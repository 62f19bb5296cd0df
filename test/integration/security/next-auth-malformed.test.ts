import { describe, expect, inject, it } from "vitest";

/**
 * next-auth's routes (the playground's /api/auth/*, the console's /console/auth/*) against malformed POSTs
 * (issue 33, item 7; lib/http/next-auth-route.ts): next-auth v4 JSON-parses any body that names application/json
 * and answered 500 when it was not JSON. Every case here gets a standard 4xx: 415 for anything but a form post,
 * 413 for a body over the limit, 400 `invalid_request` for what next-auth itself refuses, never a 5xx.
 */
const baseUrl = inject("baseUrl");

const PATHS = [
  "/console/auth/callback/staff", "/console/auth/signin", "/console/auth/csrf", "/api/auth/callback/operator",
  "/api/auth/signin/operator", "/api/auth/signin", "/api/auth/session", "/api/auth/signout", "/api/auth/_log",
  "/api/auth/csrf", "/api/auth/providers", "/api/auth/callback/nobody", "/api/auth/unknown",
];
const HUGE = "a=".concat("x".repeat(1_000_000));

/** [Content-Type (none when undefined), body]: what no form handler should answer with a 5xx. */
const CASES: Array<[string | undefined, string]> = [
  ["application/json", "{"],
  ["application/json", "not json"],
  ["application/json", ""],
  ["application/json", '{"csrfToken":"x","json":"true","callbackUrl":{"a":1}}'],
  ["APPLICATION/JSON; charset=utf-8", '{"a":'],
  ["application/x-www-form-urlencoded; x=application/json", "{"],
  ["application/json; x=application/x-www-form-urlencoded", "{"],
  ["text/plain", "hello"],
  ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--"],
  ["application/xml", "<a/>"],
  ["", "a=b"],
  [undefined, "csrfToken=x"],
  [undefined, ""],
  ["application/x-www-form-urlencoded", ""],
  ["application/x-www-form-urlencoded", "%%%=&&==%zz&csrfToken=%E0%A4%A"],
  ["application/x-www-form-urlencoded", "csrfToken=x&json=true&callbackUrl=javascript:alert(1)"],
  ["application/x-www-form-urlencoded", HUGE],
  ["application/json", `{"a":"${"x".repeat(1_000_000)}"`],
];

function post(path: string, type: string | undefined, body: string | ReadableStream<Uint8Array>) {
  const headers: Record<string, string> = { origin: baseUrl };
  if (type !== undefined) headers["content-type"] = type;
  return fetch(`${baseUrl}${path}`, { method: "POST", redirect: "manual", headers, body,
    ...(typeof body === "string" ? {} : { duplex: "half" }) } as RequestInit);
}

describe("next-auth routes and malformed POSTs", () => {
  it("never answer a malformed POST with a 5xx, and refuse it with JSON or a page", async () => {
    const failures: string[] = [];
    for (const path of PATHS) {
      for (const [type, body] of CASES) {
        const res = await post(path, type, body);
        const text = await res.text();
        const media = res.headers.get("content-type") ?? "";
        if (res.status >= 500) failures.push(`${res.status} ${path} ${type} ${body.slice(0, 40)}`);
        // A refusal says what it is: JSON or a page, never next-auth's untyped "[object Object]".
        else if (res.status >= 400 && res.status !== 404 && res.status !== 405 && !/json|html/.test(media)) {
          failures.push(`${res.status} untyped "${text.slice(0, 40)}" ${path} ${type} ${body.slice(0, 40)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuse a body that is not a form post with 415 and a clear JSON error, before next-auth reads it", async () => {
    for (const path of ["/console/auth/callback/staff", "/api/auth/session", "/api/auth/signin/operator"]) {
      for (const type of ["application/json", "text/plain", "multipart/form-data; boundary=x"]) {
        const res = await post(path, type, "{");
        expect(res.status, `${path} ${type}`).toBe(415);
        expect(res.headers.get("content-type")).toContain("application/json");
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.json()).toEqual({ error: "invalid_request",
          error_description: "the body must be a form post (Content-Type: application/x-www-form-urlencoded)" });
      }
    }
  });

  it("refuse a form body over the limit with 413, declared or chunked", async () => {
    expect((await post("/console/auth/callback/staff", "application/x-www-form-urlencoded", HUGE)).status).toBe(413);
    const chunk = new TextEncoder().encode(`a=${"x".repeat(64 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 64) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await post("/api/auth/signout", "application/x-www-form-urlencoded", stream);
    expect(res.status).toBe(413);
  });
});
