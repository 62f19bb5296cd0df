import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "@/lib/db";
import { hashSecret, randomToken } from "@/lib/crypto";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, expectInteraction, grant, requestFor, signedInBrowser,
  type Client,
} from "../../support/authorize-support";
import { startServer, type RunningServer } from "../../support/server";

/** The CSP of a response, as directive name -> sources. */
function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get("content-security-policy") ?? "";
  return new Map(header.split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0])
    .map(([name, ...sources]) => [name!, sources]));
}

/** Asserts the page policy: nonce-only scripts on every <script>, no framing/plugins/base. Returns the nonce. */
async function expectPagePolicy(res: Response): Promise<{ nonce: string; html: string }> {
  const policy = csp(res);
  const scripts = policy.get("script-src") ?? [];
  const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
  expect(nonce, res.url).toMatch(/^[A-Za-z0-9+/]{22,}={0,2}$/);
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'none'"]);
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("strict-transport-security")).toBeNull(); // plain HTTP here
  const html = await res.text();
  // Every script Next.js emits carries this response's nonce, so none of them is blocked.
  const tags = html.match(/<script\b[^>]*>/g) ?? [];
  for (const tag of tags) expect(tag, tag).toContain(`nonce="${nonce}"`);
  return { nonce: nonce!, html };
}

describe("security headers of rendered pages", () => {
  it("every page has a nonce CSP, a fresh nonce per response, and the anti-framing/referrer/nosniff headers", async () => {
    const nonces = new Set<string>();
    for (const path of ["/", "/docs", "/policy", "/terms", "/handset", "/handset/enrol", "/handset/inbox", "/playground",
      "/no-such-page"]) {
      const res = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
      expect(res.status, path).toBeLessThan(500);
      const { nonce } = await expectPagePolicy(res);
      expect(csp(res).get("form-action"), path).toEqual(["'self'"]);
      nonces.add(nonce);
    }
    const again = await expectPagePolicy(await fetch(`${baseUrl}/policy`));
    expect(nonces.has(again.nonce)).toBe(false);
  });

  it("the sign-in screen allows its forms to end at the client's redirect URI and nowhere else", async () => {
    const client = await createTestClient({ redirectUris: ["https://rp.example.test/callback"] });
    const res = await authorize(requestFor(client));
    await expectInteraction(res);
    const page = await fetch(res.headers.get("location")!, {
      headers: { cookie: res.headers.get("set-cookie")!.split(";")[0]! },
    });
    const { html } = await expectPagePolicy(page);
    expect(csp(page).has("form-action")).toBe(false);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    expect(meta?.[1]?.replace(/&#x27;/g, "'")).toBe("form-action 'self' https://rp.example.test");
    // A <meta> policy only counts inside <head> (HTML §4.2.5.3).
    expect(html.indexOf(meta![0])).toBeLessThan(html.indexOf("</head>"));
  });

  it("pages rendered without React (error, logout, form failure) keep their own script-free policy", async () => {
    const pages = [
      await fetch(`${baseUrl}/authorize?client_id=nope`),
      await fetch(`${baseUrl}/logout?state=x`),
      await fetch(`${baseUrl}/interaction/x/code`, { method: "POST", headers: { origin: "https://evil.example" } }),
    ];
    for (const res of pages) {
      expect(res.headers.get("content-type"), res.url).toContain("text/html");
      const policy = csp(res);
      expect(policy.get("default-src"), res.url).toEqual(["'none'"]);
      expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
      expect(policy.get("base-uri")).toEqual(["'none'"]);
      expect(policy.has("script-src")).toBe(false);
      expect(await res.text()).not.toMatch(/<script/i);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("protocol responses carry nosniff; redirects carrying a code carry no-referrer", async () => {
    for (const path of ["/jwks", "/.well-known/openid-configuration", "/premiuminfo", "/userinfo"]) {
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    const token = await fetch(`${baseUrl}/token`, { method: "POST" });
    expect(token.headers.get("x-content-type-options")).toBe("nosniff");
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await grant(subscriber, client);
    const { browserId } = await signedInBrowser(subscriber);
    const res = await authorize(requestFor(client), { browserId });
    expect(res.headers.get("location")).toContain("code=");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("the browser cookie is HttpOnly, SameSite=Lax, Path=/, not Secure on plain HTTP", async () => {
    const client = await createTestClient();
    const res = await authorize(requestFor(client));
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^op_browser=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain("; Path=/");
    expect(cookie).toContain("; HttpOnly");
    expect(cookie).toContain("; SameSite=Lax");
    expect(cookie).not.toContain("Secure");
    expect(cookie).not.toMatch(/Domain=/i);
  });
});

describe("oversized input", () => {
  it("a URL over 8 KB -> 414 (page, protocol endpoint and authorize), beyond 16 KB Node answers 431", async () => {
    const long = "x".repeat(9_000);
    for (const path of [`/policy?q=${long}`, `/premiuminfo?token=${long}`, `/authorize?client_id=${long}`,
      `/jwks?${long}`, `/logout?state=${long}`]) {
      const res = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
      // /jwks and discovery ignore their query (no parameters): anything but a 5xx is fine there.
      if (path.startsWith("/jwks")) expect(res.status).toBeLessThan(500);
      else expect(res.status, path.slice(0, 20)).toBe(414);
      expect(res.headers.get("location")).toBeNull();
    }
    const huge = await fetch(`${baseUrl}/policy?q=${"x".repeat(20_000)}`);
    expect(huge.status).toBe(431);
  });

  it("a header section over 16 KB -> 431", async () => {
    const res = await fetch(`${baseUrl}/jwks`, { headers: { "x-junk": "y".repeat(20_000) } });
    expect(res.status).toBe(431);
  });

  it("bodies over 16 KB -> 413 JSON at token, revoke, introspect; 413 page at the screens; declared or chunked", async () => {
    const big = `token=${"a".repeat(17_000)}`;
    for (const path of ["/token", "/revoke", "/introspect"]) {
      const res = await fetch(`${baseUrl}${path}`, {
        method: "POST", body: big, headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status, path).toBe(413);
      expect(await res.json()).toMatchObject({ error: "invalid_request" });
    }
    // No Content-Length (chunked): cut off while reading, same answer.
    const chunked = await fetch(`${baseUrl}/token`, {
      method: "POST", duplex: "half", headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode(" ".repeat(1024)));
          c.close();
        },
      }),
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const client = await createTestClient();
    const res = await authorize(requestFor(client));
    const id = new URL(res.headers.get("location")!).pathname.split("/").pop();
    const form = await fetch(`${baseUrl}/interaction/${id}/msisdn`, {
      method: "POST", redirect: "manual", body: `msisdn=${"1".repeat(17_000)}`,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: res.headers.get("set-cookie")!.split(";")[0]!,
        origin: baseUrl },
    });
    expect(form.status).toBe(413);
    expect(form.headers.get("content-type")).toContain("text/html");
  });
});

describe("over HTTPS (issuer https://…, TLS terminated in front)", () => {
  let server: RunningServer;
  let db: PrismaClient;
  let client: Client;

  beforeAll(async () => {
    server = await startServer({ name: "https-issuer", env: { ISSUER: "https://op.example.test" } });
    db = createPrismaClient(server.databaseUrl); // SQLite or PostgreSQL (TEST_DATABASE), like the server's
    const secret = randomToken(32);
    client = { id: `test-${randomToken(9)}`, secret, name: "HttpsApp", redirectUri: "https://rp.example.test/callback" };
    await db.client.create({ data: { id: client.id, name: client.name, secretHash: await hashSecret(secret),
      redirectUris: JSON.stringify([client.redirectUri]), allowedScopes: "openid", sectorIdentifier: "rp.example.test" } });
  }, 90_000);
  afterAll(async () => {
    await db?.$disconnect();
    await server?.stop();
  });

  it("cookies are __Host- prefixed and Secure; HSTS on pages, authorize and JSON; CSP upgrades insecure requests", async () => {
    const res = await fetch(`${server.baseUrl}/authorize?${new URLSearchParams(requestFor(client))}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__Host-op_browser=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const page = await fetch(`${server.baseUrl}/policy`);
    expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(page.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    const token = await fetch(`${server.baseUrl}/token`, { method: "POST" });
    expect([400, 401]).toContain(token.status);
    expect(token.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    // The plain-HTTP name is not read over HTTPS (it could have been planted by a sibling host).
    const id = new URL(res.headers.get("location")!).pathname.split("/").pop();
    const planted = await fetch(`${server.baseUrl}/interaction/${id}`, { headers: { cookie: cookie.replace("__Host-", "").split(";")[0]! } });
    expect(await planted.text()).not.toContain('name="csrf_token"');
    const genuine = await fetch(`${server.baseUrl}/interaction/${id}`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(await genuine.text()).toContain('name="csrf_token"');
  });

  it("device cookies get the same prefix and flags", async () => {
    const res = await fetch(`${server.baseUrl}/handset/enrol/start`, {
      method: "POST", redirect: "manual", body: "msisdn=447700900123",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://op.example.test" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie()).toHaveLength(1);
    for (const c of res.headers.getSetCookie()) {
      expect(c).toMatch(/^__Host-op_device_enrol=[A-Za-z0-9_-]*; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    }
  });
});
