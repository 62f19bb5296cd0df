import { describe, expect, it } from "vitest";
import { createTestClient } from "@/test/support/fixtures";
import { authorize, baseUrl, requestFor } from "@/test/support/authorize-support";

// display=wap (OIDC Core §3.1.2.1): the production server renders the sign-in screens for feature
// phones itself (server/wap-screen.tsx), from the same step components, without Next.js's scripts.
async function openScreen(display: string) {
  const client = await createTestClient();
  const res = await authorize(requestFor(client, { display }));
  expect(res.status).toBe(302);
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  const location = new URL(res.headers.get("location")!, baseUrl);
  const page = await fetch(`${baseUrl}${location.pathname}`, { headers: { cookie, "accept-encoding": "identity" } });
  return { page, html: await page.text(), id: location.pathname.split("/").pop()!, cookie };
}

describe("display=wap sign-in screen", () => {
  it("is a few KB of HTML with no script, the same form and the screens' headers", async () => {
    const { page, html, id } = await openScreen("wap");
    expect(page.status).toBe(200);
    expect(html).not.toMatch(/<script/i);
    expect(Buffer.byteLength(html)).toBeLessThan(8 * 1024);
    expect(html).toContain(`action="/interaction/${id}/`);
    expect(html).toContain('name="csrf_token"');
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
  });

  it("leaves the other displays and unknown ids to the Next.js page", async () => {
    const { html } = await openScreen("page");
    expect(html).toMatch(/<script/i);
    const unknown = await fetch(`${baseUrl}/interaction/${"A".repeat(43)}`);
    expect(await unknown.text()).toMatch(/<script/i);
  });

  // Issue 17: a WAP request that cannot continue here is shown its failure page without script, in
  // the request's language; a foreign browser learns nothing else and changes nothing.
  it("shows another browser's or a finished WAP request its failure page without script, in its language",
    async () => {
      const client = await createTestClient();
      const res = await authorize(requestFor(client, { display: "wap", ui_locales: "fr" }));
      const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
      const path = new URL(res.headers.get("location")!, baseUrl).pathname;
      const foreign = await fetch(`${baseUrl}${path}`); // no cookie: not this browser's request
      expect(foreign.status).toBe(200);
      const html = await foreign.text();
      expect(html).not.toMatch(/<script/i);
      expect(html).toContain('<html lang="fr">');
      expect(html).toContain("Cette connexion ne peut pas continuer");
      expect(html).not.toContain("csrf_token");
      // The owner's screen is untouched by the foreign visit.
      const own = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
      expect(await own.text()).toContain('name="csrf_token"');
    });
});
