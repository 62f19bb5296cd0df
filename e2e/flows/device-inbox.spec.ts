import { expect, test } from "@playwright/test";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { submitNumber } from "../screens/sign-in";

test.use({ javaScriptEnabled: false });

test("the device inbox shows a handset's messages newest first, without JavaScript", async ({ page }) => {
  test.setTimeout(90_000);
  const client = await createRpClient({ name: "InboxApp" });
  const s = await createTestSubscriber();
  await startAuthorization(page, client, { display: "wap" });
  let before = await latestMessage(page, s.msisdn);
  await submitNumber(page, s.msisdn);
  const first = await readNewCode(page, s.msisdn, before);
  before = await latestMessage(page, s.msisdn);
  // Issue 17: "Request a new code" is disabled for 30 s after a send, with the time written; without
  // script the subscriber reloads once that time has come.
  const resend = page.getByRole("button", { name: "Request a new code" });
  await expect(resend).toBeDisabled();
  await expect(async () => {
    await page.reload();
    await expect(resend).toBeEnabled({ timeout: 500 });
  }).toPass({ timeout: 45_000, intervals: [2_000] });
  await resend.click();
  const second = await readNewCode(page, s.msisdn, before);

  const inbox = await page.context().newPage();
  await inbox.goto(`${baseUrl()}/handset/inbox?msisdn=${s.msisdn}`);
  const bodies = await inbox.locator(".message-body").allInnerTexts();
  expect(bodies).toEqual([
    `Your sign-in code for InboxApp is ${second}`, `Your sign-in code for InboxApp is ${first}`,
  ]);
  await expect(inbox.getByRole("link", { name: "Reload" })).toBeVisible();
  await inbox.screenshot({ path: "test-results/screens/device-inbox.png", fullPage: true });
  const none = await inbox.goto(`${baseUrl()}/handset/inbox?msisdn=999000000001`);
  expect(none?.status()).toBe(200);
  await expect(inbox.getByText("No messages yet.")).toBeVisible();
});
