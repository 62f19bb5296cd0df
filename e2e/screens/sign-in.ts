import { expect, type Page } from "@playwright/test";
import { latestMessage, readNewCode } from "./device-inbox";

/** Where the screens live, so a helper can tell it is on one. */
export const INTERACTION = /\/interaction\/[A-Za-z0-9_-]+/;

/** Number step: types the number (or confirms a hinted one) and asks for the code. */
export async function submitNumber(page: Page, msisdn?: string) {
  await expect(page).toHaveURL(INTERACTION);
  const input = page.getByLabel("Mobile number");
  if (msisdn !== undefined && (await input.count()) > 0) await input.fill(msisdn);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByLabel("Code")).toBeVisible();
}

/** Code step: enters the code (and the PIN when asked) and continues. */
export async function submitCode(page: Page, { code, pin }: { code: string; pin?: string }) {
  await page.getByLabel("Code").fill(code);
  if (pin !== undefined) await page.getByLabel("PIN").fill(pin);
  await page.getByRole("button", { name: "Continue" }).click();
}

/**
 * The whole sign-in: number (typed unless the request names the subscriber), the code read from the
 * device inbox, and the PIN at level 3.
 */
export async function signInWithCode(page: Page, { msisdn, pin, typeNumber = true }: {
  msisdn: string; pin?: string; typeNumber?: boolean;
}) {
  const before = await latestMessage(page, msisdn);
  await submitNumber(page, typeNumber ? `+${msisdn}` : undefined);
  const code = await readNewCode(page, msisdn, before);
  await submitCode(page, { code, pin });
}

/** Consent step: checks it names the app, then allows. */
export async function allowConsent(page: Page, clientName?: string) {
  if (clientName) await expect(page.getByRole("heading", { level: 1 })).toContainText(clientName);
  await page.getByRole("button", { name: "Allow" }).click();
}

/** Consent step: denies. */
export async function denyConsent(page: Page) {
  await page.getByRole("button", { name: "Deny" }).click();
}

/** The message of the last failed step on a screen (Next adds its own empty route announcer alert). */
export function screenAlert(page: Page) {
  return page.locator("main").getByRole("alert");
}

/** Allows consent when the consent screen is shown (first use of a client), else does nothing. */
export async function allowConsentIfAsked(page: Page) {
  const allow = page.getByRole("button", { name: "Allow" });
  // Either the consent screen or the relying party's callback (which answers "ok") comes next.
  await expect(allow.or(page.getByText("ok", { exact: true }))).toBeVisible();
  if (await allow.isVisible()) await allow.click();
}

/** Consent step: the list of what the app asks to do (its accessible name is "Allow <app> to:"). */
export function consentScopes(page: Page) {
  return page.getByRole("list", { name: /^Allow .+ to:$/ });
}

/** Consent step: the list of the subscriber's details that will be shared. */
export function consentAttributes(page: Page) {
  return page.getByRole("list", { name: "Information that will be shared:" });
}
