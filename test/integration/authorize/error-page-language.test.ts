import { beforeAll, describe, expect, it } from "vitest";
import { authorize, createTestClient, expectErrorPage, requestFor, type Client } from "../../support/authorize-support";

// Issue 17: the page for an unknown client or an unregistered redirect_uri stays a 400 (never a
// redirect, RFC 6749 §4.1.2.1) but speaks plain words in the request's language, the error code
// and its technical description in a details section for the developer.
let client: Client;

beforeAll(async () => {
  client = await createTestClient();
});

describe("the authorization error page's language", () => {
  it("follows ui_locales for an unregistered redirect_uri, keeping the status and the error code", async () => {
    const html = await expectErrorPage(await authorize(requestFor(client,
      { redirect_uri: "https://evil.example/cb", ui_locales: "fr-CA en" })));
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Cette demande de connexion ne peut pas être traitée");
    expect(html).toContain("Code d&#39;erreur: invalid_request");
    expect(html).not.toContain("evil.example");
  });

  it("follows Accept-Language for an unknown client, else English", async () => {
    const fr = await expectErrorPage(await authorize(requestFor(client, { client_id: "no-such-client" }),
      { headers: { "accept-language": "fr-FR,fr;q=0.9,en;q=0.8" } }));
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain("Vous n&#39;êtes pas connecté.");
    const en = await expectErrorPage(await authorize(requestFor(client, { client_id: "no-such-client" }),
      { headers: { "accept-language": "de" } }));
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("You are not signed in.");
    expect(en).toContain("Error code: invalid_request");
  });

  it("never reflects a hostile ui_locales", async () => {
    const html = await expectErrorPage(await authorize(requestFor(client,
      { client_id: "no-such-client", ui_locales: "\"><script>alert(1)</script>" })));
    expect(html).not.toContain("<script");
    expect(html).toContain('<html lang="en">');
  });
});
