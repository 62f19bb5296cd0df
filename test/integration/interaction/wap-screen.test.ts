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

  it("leaves the other displays and unusable requests to the Next.js page", async () => {
    const { html } = await openScreen("page");
    expect(html).toMatch(/<script/i);
    const { id } = await openScreen("wap");
    const foreign = await fetch(`${baseUrl}/interaction/${id}`); // no cookie: not this browser's request
    expect(foreign.status).toBe(200);
    expect(await foreign.text()).toMatch(/<script/i);
  });
});
