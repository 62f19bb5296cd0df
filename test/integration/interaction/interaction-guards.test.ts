import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { beginAuthorization, getInteraction, postStep } from "@/e2e/fixtures/interaction-http";

const baseUrl = inject("baseUrl");
let client: Awaited<ReturnType<typeof createTestClient>>;
let msisdn: string;

beforeAll(async () => {
  client = await createTestClient();
  msisdn = (await createTestSubscriber()).msisdn;
});

const OTHER_BROWSER = `op_browser=${"x".repeat(43)}`;

function expectScreenHeaders(res: Response) {
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("interaction form handlers refuse forged posts", () => {
  it("accepts a well-formed post with 303 See Other and the screen headers", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const res = await postStep(baseUrl, f.id, "msisdn", { cookie: f.cookie, fields: { csrf_token: f.csrf, msisdn } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${baseUrl}/interaction/${f.id}`);
    expectScreenHeaders(res);
  });

  it("answers 403 with an error page when the CSRF token is missing or wrong", async () => {
    const f = await beginAuthorization(baseUrl, client);
    for (const fields of <Array<Record<string, string>>>[{ msisdn }, { msisdn, csrf_token: "" }, { msisdn, csrf_token: `${f.csrf.slice(0, -2)}AA` }]) {
      const res = await postStep(baseUrl, f.id, "msisdn", { cookie: f.cookie, fields });
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("location")).toBeNull();
      expectScreenHeaders(res);
      expect(await res.text()).toContain("could not be accepted");
    }
  });

  it("refuses another request's token", async () => {
    const a = await beginAuthorization(baseUrl, client);
    const b = await beginAuthorization(baseUrl, client);
    const res = await postStep(baseUrl, a.id, "msisdn", { cookie: a.cookie, fields: { csrf_token: b.csrf, msisdn } });
    expect(res.status).toBe(403);
  });

  it("shows an error page to another browser (or none), for the page and the forms", async () => {
    const f = await beginAuthorization(baseUrl, client);
    for (const cookie of [OTHER_BROWSER, undefined]) {
      const res = await postStep(baseUrl, f.id, "msisdn", { cookie, fields: { csrf_token: f.csrf, msisdn } });
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("another browser");
    }
    const page = await getInteraction(baseUrl, f.id, OTHER_BROWSER);
    expect(page.html).toContain("This sign-in cannot continue");
    expect(page.html).not.toContain('name="csrf_token"');
  });

  it("refuses a cross-origin Origin and a cross-site Sec-Fetch-Site, accepts our own and `null`", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const fields = { csrf_token: f.csrf, msisdn };
    for (const headers of <Array<Record<string, string>>>[{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }]) {
      const res = await postStep(baseUrl, f.id, "msisdn", { cookie: f.cookie, fields, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    for (const headers of <Array<Record<string, string>>>[{ origin: new URL(baseUrl).origin }, { origin: "null", "sec-fetch-site": "same-origin" }]) {
      const res = await postStep(baseUrl, f.id, "restart", { cookie: f.cookie, fields, headers });
      expect(res.status, JSON.stringify(headers)).toBe(303);
    }
  });

  it("answers unknown ids with 404, repeated fields with 400, GET with 405 - never a 500", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const unknown = await postStep(baseUrl, "AAAAAAAAAAAAAAAAAAAAAA", "msisdn", { cookie: f.cookie, fields: { csrf_token: f.csrf } });
    expect(unknown.status).toBe(404);
    const weird = await postStep(baseUrl, "%3Cscript%3E", "code", { cookie: f.cookie, fields: { csrf_token: f.csrf } });
    expect(weird.status).toBe(404);
    const repeated = new URLSearchParams([["csrf_token", f.csrf], ["msisdn", msisdn], ["msisdn", "33612345678"]]);
    expect((await postStep(baseUrl, f.id, "msisdn", { cookie: f.cookie, fields: repeated })).status).toBe(400);
    const json = await fetch(`${baseUrl}/interaction/${f.id}/msisdn`, {
      method: "POST", headers: { cookie: f.cookie, "content-type": "application/json" }, body: "{}", redirect: "manual",
    });
    expect(json.status).toBe(400);
    const get = await fetch(`${baseUrl}/interaction/${f.id}/msisdn`, { headers: { cookie: f.cookie } });
    expect(get.status).toBe(405);
  });

  it("never reflects the `e` query parameter, only known messages", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const page = await getInteraction(baseUrl, f.id, f.cookie, "?e=%3Cscript%3Ealert(1)%3C%2Fscript%3E&step=x");
    expect(page.status).toBe(200);
    expect(page.html).not.toContain("<script>alert(1)");
    // Next's flight data carries the URL (percent-encoded, in a JSON string); the markup must not.
    expect(page.html.replace(/<script[\s\S]*?<\/script>/g, "")).not.toContain("alert(1)");
    const known = await getInteraction(baseUrl, f.id, f.cookie, "?e=msisdn_invalid");
    expect(known.html).toContain("That is not a complete mobile number"); // issue 17's wording
  });

  it("renders the page with no-referrer and noindex", async () => {
    const f = await beginAuthorization(baseUrl, client);
    expect(f.html).toMatch(/<meta name="referrer" content="no-referrer"\s*\/?>/);
    expect(f.html).toContain('name="robots" content="noindex, nofollow"');
    expect(f.html).toContain(`action="/interaction/${f.id}/msisdn"`);
  });
});
