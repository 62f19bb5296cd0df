import { expect, type Page } from "@playwright/test";
import { baseUrl } from "../fixtures/test-data";
import { latestMessage, readNewCode } from "./device-inbox";

/** Registers the phone's browser as `msisdn`'s authorization device through /handset/enrol. */
export async function enrolPhone(phone: Page, msisdn: string) {
  const before = await latestMessage(phone, msisdn);
  await phone.goto(`${baseUrl()}/handset/enrol`);
  await phone.getByLabel("Mobile number").fill(msisdn);
  await phone.getByRole("button", { name: "Send code" }).click();
  const code = await readNewCode(phone, msisdn, before);
  await phone.getByLabel("Code").fill(code);
  await phone.getByRole("button", { name: "Register" }).click();
  await expect(phone.getByRole("status")).toHaveText("This phone is now registered for approvals.");
}

/** The request card on the phone for `clientName` (appears live, without reloading by hand). */
export function requestCard(phone: Page, clientName: string) {
  return phone.locator(".device-request").filter({ hasText: clientName });
}

/**
 * Opens a `prompt=mobile` authorization on the consumption device and reads its waiting page as it
 * arrives: the page reloads itself at once into /authorize/wait/{id}, which holds until the phone
 * answers, and Playwright's locators wait for that navigation (a browser keeps showing the page), so
 * the first response is read on its way in (a route that passes it through unchanged).
 */
export async function openMobileWaitingPage(page: Page, url: string): Promise<{ checkCode: string; html: string }> {
  let html = "";
  await page.route((u) => u.pathname === "/authorize", async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    html = await response.text();
    await route.fulfill({ response, body: html });
  }, { times: 1 });
  await page.goto(url, { waitUntil: "commit" });
  await expect.poll(() => html).toContain("Approve on your phone");
  const checkCode = /id="check-code"[^>]*>(\d+)</.exec(html)?.[1] ?? "";
  expect(checkCode).toMatch(/^\d{2}$/);
  return { checkCode, html };
}

/** The waiting page as a browser shows it, without its refresh (for screenshots and axe on a settled page). */
export async function showStill(page: Page, html: string) {
  await page.setContent(html.replace(/<meta http-equiv="refresh"[^>]*>/, ""));
}
