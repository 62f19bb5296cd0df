import { describe, expect, it } from "vitest";
import { randomToken } from "@/lib/crypto";
import { ownSector } from "@/lib/clients/own-sector";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { csrfOf, getInteraction, postStep } from "@/e2e/fixtures/interaction-http";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, db, expectInteraction, requestFor,
} from "../../support/authorize-support";

/**
 * The sign-in code's text message goes out from the operator's sender (issue 33, as the CIBA text message,
 * lib/ciba/bc-authorize/sms-text.ts): it names the operator's own app, never a self-registered one's chosen name.
 */
async function codeText({ dynamic, name, uiLocales }: { dynamic: boolean; name: string; uiLocales?: string }) {
  const client = await createTestClient({ name });
  if (dynamic) {
    await db.client.update({ where: { id: client.id },
      data: { registeredBy: "dynamic", sectorIdentifier: ownSector(client.id) } });
  }
  const subscriber = await createTestSubscriber();
  const browserId = randomToken(32);
  const cookie = `${browserCookieName()}=${browserId}`;
  const { row } = await expectInteraction(await authorize(requestFor(client, { ui_locales: uiLocales }),
    { browserId }));
  const csrf = csrfOf((await getInteraction(baseUrl, row.id, cookie)).html);
  const posted = await postStep(baseUrl, row.id, "msisdn",
    { cookie, fields: { csrf_token: csrf, msisdn: subscriber.msisdn } });
  expect(posted.status).toBe(303);
  const message = await db.message.findFirst({ where: { msisdn: subscriber.msisdn }, orderBy: { createdAt: "desc" } });
  return message!.body;
}

describe("the sign-in code's text message", () => {
  it("names the operator's own app", async () => {
    const name = `OwnShop${Date.now()}`;
    expect(await codeText({ dynamic: false, name })).toMatch(new RegExp(`Your sign-in code for ${name} is \\d{6}$`));
  });

  it("never names a self-registered app (its name is words it chose): 'a service', in English and French",
    async () => {
      const name = `DemoBank${Date.now()}`;
      const en = await codeText({ dynamic: true, name });
      expect(en).toMatch(/Your sign-in code for a service is \d{6}$/);
      expect(en).not.toContain(name);
      const fr = await codeText({ dynamic: true, name: `${name}fr`, uiLocales: "fr" });
      expect(fr).toMatch(/Votre code de connexion pour un service est \d{6}$/);
      expect(fr).not.toContain(name);
    });
});
