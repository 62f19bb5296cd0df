import { describe, expect, it } from "vitest";
import { beginAuthorization, getInteraction, postStep } from "@/e2e/fixtures/interaction-http";
import { baseUrl, createTestClient, db, expectErrorRedirect } from "@/test/support/authorize-support";

// Issue 17 "No dead ends": the browser that started a request that can no longer go on learns why,
// and for an expired or cancelled one gets "Back to the app": /authorize/resume/{id}, which answers the
// relying party with access_denied, `state` and `iss` at its registered redirect URI. Any other
// browser gets the one generic text and no link.

const OTHER_BROWSER = `op_browser=${"x".repeat(43)}`;
const backLink = (id: string) => `href="/authorize/resume/${id}"`;

async function follow(id: string, cookie: string) {
  return fetch(`${baseUrl}/authorize/resume/${id}`, { headers: { cookie }, redirect: "manual" });
}

describe.each(["page", "wap"])("display=%s dead ends", (display) => {
  it("an expired request: the starting browser is told and led back to the app with access_denied", async () => {
    const client = await createTestClient();
    const f = await beginAuthorization(baseUrl, client, { display, state: "st-expired" });
    await db.authorizationRequest.update({ where: { id: f.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const own = await getInteraction(baseUrl, f.id, f.cookie);
    expect(own.status).toBe(200);
    expect(own.html).toContain("took too long and has expired");
    expect(own.html).toContain(backLink(f.id));
    expect(own.html).toContain("Back to the app");
    if (display === "wap") expect(own.html).not.toMatch(/<script/i);
    const foreign = await getInteraction(baseUrl, f.id, OTHER_BROWSER);
    expect(foreign.html).not.toContain(backLink(f.id));
    expect(foreign.html).not.toContain("took too long");
    expect(foreign.html).toContain("is unknown, has expired, is finished");
    const description = expectErrorRedirect(await follow(f.id, f.cookie), { ...client }, "st-expired", "access_denied");
    expect(description).toContain("expired");
  });

  it("a cancelled request: the starting browser is told and led back to the app with access_denied", async () => {
    const client = await createTestClient();
    const f = await beginAuthorization(baseUrl, client, { display, state: "st-cancel", ui_locales: "fr" });
    const cancel = await postStep(baseUrl, f.id, "cancel", { cookie: f.cookie, fields: { csrf_token: f.csrf } });
    expect(cancel.status).toBe(303);
    const own = await getInteraction(baseUrl, f.id, f.cookie);
    expect(own.html).toContain("Vous avez annulé cette connexion");
    expect(own.html).toContain(backLink(f.id));
    expect(own.html).toContain("Retour à l&#x27;application");
    expectErrorRedirect(await follow(f.id, f.cookie), client, "st-cancel", "access_denied");
  });

  it("a finished request: the starting browser is told it is finished, with no way to resend anything", async () => {
    const client = await createTestClient();
    const f = await beginAuthorization(baseUrl, client, { display });
    await db.authorizationRequest.update({ where: { id: f.id }, data: { status: "completed" } });
    const own = await getInteraction(baseUrl, f.id, f.cookie);
    expect(own.html).toContain("already finished");
    expect(own.html).not.toContain("/authorize/resume/");
    expect(own.html).not.toContain('name="csrf_token"');
  });
});

describe("an open request is never given a way back", () => {
  it("shows another browser the generic text, without the link", async () => {
    const client = await createTestClient();
    const f = await beginAuthorization(baseUrl, client);
    const foreign = await getInteraction(baseUrl, f.id, OTHER_BROWSER);
    expect(foreign.html).toContain("This sign-in cannot continue");
    expect(foreign.html).not.toContain("/authorize/resume/");
  });
});
