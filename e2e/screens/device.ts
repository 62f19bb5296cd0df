import { expect, type Page } from "@playwright/test";
import { baseUrl } from "../fixtures/test-data";
import { latestMessage, readNewCode } from "./device-inbox";

/** Registers the phone's browser as `msisdn`'s authorization device through /device/enrol. */
export async function enrolPhone(phone: Page, msisdn: string) {
  const before = await latestMessage(phone, msisdn);
  await phone.goto(`${baseUrl()}/device/enrol`);
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
