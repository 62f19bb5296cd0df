import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import { expectCode, startAuthorization } from "../screens/authorize";
import { latestMessage, readNewCode } from "../screens/device-inbox";

// Issue 17, "Consent that tells the truth": the consent screen lists only what would leave for THIS
// subscriber, grouped, with the values behind a <details> (names only on WAP); Allow and Deny are on
// the first screen of a popup and a phone; "forget it" links to the account page.

mkdirSync("test-results/screens", { recursive: true });

const TEXT = {
  en: {
    number: "Mobile number", next: "Continue", allow: "Allow", deny: "Deny", shared: /^Information that will be shared/,
    details: "Show the details", forget: "You can ask us to forget it at any time.",
    groups: ["Identity:", "Contact:", "Address:"], has: ["First name", "Alternative phone number", "Postcode"],
    lacks: ["Website", "Picture"],
  },
  fr: {
    number: "Numéro de mobile", next: "Continuer", allow: "Autoriser", deny: "Refuser",
    shared: /^Informations qui seront partagées/, details: "Afficher le détail",
    forget: "Vous pouvez nous demander de l'oublier à tout moment.",
    groups: ["Identité\u00a0:", "Coordonnées\u00a0:", "Adresse postale\u00a0:"],
    has: ["Prénom", "Autre numéro de téléphone", "Code postal"], lacks: ["Site web", "Photo"],
  },
} as const;

/** Every scope that releases attributes: the old screen listed all 20-odd of them. */
const ALL_SCOPES = "openid mc_identity_signup mc_identity_nationalid mc_identity_phonenumber profile email address phone";

/** A subscriber with many attributes (17 of the 19 settable, no website and no picture). */
function manyAttributes() {
  return createTestSubscriber({ attributes: {
    title: "Dr", middleName: "Jane", preferredUsername: "alice.example", gender: "female", locale: "en-GB",
    phoneNumberAlternative: "447700900999", state: "Greater London",
  } });
}

/** Signs in with the code (number typed, code from the device inbox) in the screens' language. */
async function signIn(page: Page, msisdn: string, lang: keyof typeof TEXT) {
  const x = TEXT[lang];
  const before = await latestMessage(page, msisdn);
  await page.getByLabel(x.number).fill(`+${msisdn}`);
  await page.getByRole("button", { name: x.next }).click();
  const code = await readNewCode(page, msisdn, before);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: x.next }).click();
  await expect(page.getByRole("button", { name: x.allow })).toBeVisible();
}

/** Allow and Deny are both inside the viewport as the page opens: no scrolling needed to reach them. */
async function expectButtonsWithoutScrolling(page: Page, lang: keyof typeof TEXT) {
  const viewport = page.viewportSize()!;
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  for (const name of [TEXT[lang].allow, TEXT[lang].deny]) {
    const box = (await page.getByRole("button", { name }).boundingBox())!;
    expect(box, `${name} at ${JSON.stringify(box)} in ${viewport.width}x${viewport.height}`).not.toBeNull();
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, `${name} bottom within ${viewport.height}`).toBeLessThanOrEqual(viewport.height);
  }
}

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);

    for (const lang of ["en", "fr"] as const) {
      test(`${lang}: only the subscriber's own attributes, grouped; values in details; forget links to /account`, async ({ page }) => {
        const x = TEXT[lang];
        const client = await createRpClient();
        const s = await manyAttributes();
        const { state } = await startAuthorization(page, client, { display, scope: ALL_SCOPES, uiLocales: lang });
        await signIn(page, s.msisdn, lang);

        const list = page.getByRole("list", { name: x.shared });
        await expect(list.getByRole("listitem")).toHaveCount(3);
        for (const [i, group] of x.groups.entries()) await expect(list.getByRole("listitem").nth(i)).toContainText(group);
        for (const name of x.has) await expect(list).toContainText(name);
        for (const name of x.lacks) await expect(list).not.toContainText(name);
        if (display === "popup" || display === "touch") await expectButtonsWithoutScrolling(page, lang);

        const suffix = lang === "en" ? "" : `-${lang}`;
        await page.screenshot({ path: `test-results/screens/consent-${display}${suffix}.png`, fullPage: true });
        await expectAccessible(page, `consent-${display}-${lang}`, { scriptless: display === "wap" });

        const forget = page.getByRole("link", { name: x.forget });
        await expect(forget).toHaveAttribute("href", /\/account$/);
        if (display === "popup") await expect(forget).toHaveAttribute("target", "_blank");
        else await expect(forget).not.toHaveAttribute("target", /./);

        if (display === "wap") {
          // Names only on a feature phone: no values, no <details>.
          await expect(page.locator("details")).toHaveCount(0);
          await expect(page.getByText("alice@example.test")).toHaveCount(0);
          const html = await (await page.request.get(page.url())).text();
          expect(html).not.toMatch(/<script/i);
          expect(Buffer.byteLength(html)).toBeLessThan(8 * 1024);
        } else {
          await expect(page.getByText("alice@example.test")).toBeHidden();
          await page.getByText(x.details).click();
          // What the app may do: in the summary on a page, inside the details on the small screens.
          await expect(page.getByRole("list", { name: lang === "en" ? /^Allow .+ to:$/ : /^Autoriser .+ à/ })).toBeVisible();
          await expect(page.getByText("alice@example.test", { exact: false })).toBeVisible();
          await expect(page.getByText("Greater London")).toBeVisible();
          // The national identity number keeps its last four characters only.
          await expect(page.getByText(/•••••456C$/)).toBeVisible();
          await expect(page.getByText("QQ123456C")).toHaveCount(0);
          await page.screenshot({ path: `test-results/screens/consent-${display}${suffix}-details.png`, fullPage: true });
          await expectAccessible(page, `consent-${display}-${lang}-details`);
        }
        await page.getByRole("button", { name: x.allow }).click();
        await expectCode(page, state);
      });
    }

    if (display === "popup" || display === "touch") {
      test("mc_authz: Allow and Deny within the viewport with a long context and a binding message", async ({ page }) => {
        const client = await createRpClient();
        const s = await manyAttributes();
        const context = `Pay £1,250.00 to Example Electronics Ltd for order 2026-11-25-000123: `
          + "one laptop, one charger, two-year warranty, next-day delivery to 1 High Street, London SW1A 1AA.";
        const { state } = await startAuthorization(page, client, {
          display, scope: "openid mc_authz mc_identity_phonenumber", context, bindingMessage: "REF-7Q2X-9K4M",
        });
        await signIn(page, s.msisdn, "en");
        await expect(page.locator("#context")).toHaveText(context);
        await expect(page.locator("#binding-message")).toHaveText("REF-7Q2X-9K4M");
        await expectButtonsWithoutScrolling(page, "en");
        await page.screenshot({ path: `test-results/screens/consent-${display}-mc_authz.png`, fullPage: true });
        await expectAccessible(page, `consent-${display}-mc_authz`);
        await page.getByRole("button", { name: "Allow" }).click();
        await expectCode(page, state);
      });
    }
  });
}

test("a subscriber with 6 attributes sees exactly those 6, grouped, not the 20 the scopes could return", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber({ attributes: {
    givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10", email: "ada@example.test", emailVerified: true,
    city: "London", country: "GB", nationalIdentifier: null, streetAddress: null, postalCode: null,
  } });
  const { state } = await startAuthorization(page, client, { scope: "openid mc_identity_signup profile email address" });
  await signIn(page, s.msisdn, "en");
  await expect(page.getByRole("list", { name: "Information that will be shared:" }).getByRole("listitem")).toHaveText([
    "Identity: First name, Last name, Date of birth", "Contact: Email address", "Address: City, Country",
  ]);
  await page.getByText("Show the details").click();
  await expect(page.getByRole("list", { name: "Identity" }).getByRole("listitem"))
    .toHaveText(["First name: Ada", "Last name: Lovelace", "Date of birth: 1815-12-10"]);
  await expect(page.getByRole("list", { name: "Contact" }).getByRole("listitem"))
    .toHaveText(["Email address: ada@example.test (verified)"]);
  await expect(page.getByRole("list", { name: "Address" }).getByRole("listitem")).toHaveText(["City: London", "Country: GB"]);
  await page.getByRole("button", { name: "Allow" }).click();
  await expectCode(page, state);
});

test.describe("display=touch without JavaScript", () => {
  test.use({ ...DISPLAYS.find((d) => d.display === "touch")!.use, javaScriptEnabled: false });

  test("the details open without script, and Allow and Deny are in view", async ({ page }) => {
    const client = await createRpClient();
    const s = await manyAttributes();
    const { state } = await startAuthorization(page, client, { display: "touch", scope: ALL_SCOPES });
    await signIn(page, s.msisdn, "en");
    await expectButtonsWithoutScrolling(page, "en");
    await expect(page.getByText("Greater London")).toBeHidden();
    await page.getByText("Show the details").click();
    await expect(page.getByText("Greater London")).toBeVisible();
    await page.getByRole("button", { name: "Allow" }).click();
    await expectCode(page, state);
  });
});
