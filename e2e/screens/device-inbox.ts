import { expect, type Page } from "@playwright/test";
import { baseUrl } from "../fixtures/test-data";

export interface InboxMessage { id: string; body: string }

/** The newest message on a handset, read from the device inbox page, or null. */
export async function latestMessage(page: Page, msisdn: string): Promise<InboxMessage | null> {
  const res = await page.request.get(`${baseUrl()}/handset/inbox?msisdn=${msisdn}`);
  expect(res.status()).toBe(200);
  const m = /data-message-id="([^"]+)"[^>]*>\s*<p class="message-body">([^<]*)<\/p>/.exec(await res.text());
  return m ? { id: m[1]!, body: m[2]! } : null;
}

/** Waits for a message newer than `after` and returns the 6-digit code it carries. */
export async function readNewCode(page: Page, msisdn: string, after: InboxMessage | null): Promise<string> {
  let code = "";
  await expect.poll(async () => {
    const m = await latestMessage(page, msisdn);
    if (!m || m.id === after?.id) return "";
    code = /\b(\d{6})\b/.exec(m.body)?.[1] ?? "";
    return code;
  }, { message: `a new code in the inbox of ${msisdn}` }).toMatch(/^\d{6}$/);
  return code;
}
