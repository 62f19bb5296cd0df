import { describe, expect, it } from "vitest";
import { authorize, createTestClient, createTestSubscriber, requestFor } from "@/test/support/authorize-support";

// Issue 17 "Language": the prompt=mobile waiting page of /authorize is in the request's language
// (ui_locales, then Accept-Language), like every other screen, and its <html lang> says so.
describe("prompt=mobile waiting page language", () => {
  it("follows ui_locales", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const res = await authorize(requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}`, ui_locales: "fr" }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Approuvez sur votre téléphone");
    expect(html).toContain("vous demande d&#39;approuver");
    expect(html).not.toContain("Approve on your phone");
  });

  it("falls back to Accept-Language, and to English", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const q = () => requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}` });
    const fr = await (await authorize(q(), { headers: { "accept-language": "fr-CA,fr;q=0.9" } })).text();
    expect(fr).toContain('<html lang="fr">');
    const en = await (await authorize(q(), { headers: { "accept-language": "de-DE" } })).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("asks you to approve this sign-in on your phone");
  });
});
