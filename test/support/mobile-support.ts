import { expect } from "vitest";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { baseUrl as sharedBaseUrl } from "./authorize-support";

/** What the consumption device shows while a `prompt=mobile` request waits: the check code and where it waits. */
export function readWaitingPage(html: string): { checkCode: string; waitUrl: string } {
  const checkCode = /id="check-code"[^>]*>(\d+)</.exec(html)?.[1];
  const waitUrl = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(html)?.[1];
  expect(checkCode, "the waiting page shows a check code").toMatch(/^\d{2}$/);
  expect(waitUrl, "the waiting page reloads into /authorize/wait/{id}").toMatch(/\/authorize\/wait\/[A-Za-z0-9_-]{22}$/);
  return { checkCode: checkCode!, waitUrl: waitUrl! };
}

/**
 * `prompt=mobile` as a browser runs it: GET /authorize answers at once with the waiting page (the
 * check code the subscriber types on the handset), whose refresh then holds at /authorize/wait/{id}
 * until the handset answers. `pending` is that held response.
 */
export async function authorizeMobile(query: Record<string, string>, opts: {
  browserId?: string; headers?: Record<string, string>; signal?: AbortSignal; baseUrl?: string;
} = {}) {
  const browserId = opts.browserId ?? randomToken(32);
  const first = await fetch(`${opts.baseUrl ?? sharedBaseUrl}/authorize?${new URLSearchParams(query)}`, {
    redirect: "manual", headers: { ...opts.headers, cookie: `${browserCookieName()}=${browserId}` },
  });
  expect(first.status, "prompt=mobile answers with the waiting page").toBe(200);
  const html = await first.text();
  const { checkCode, waitUrl } = readWaitingPage(html);
  const pending = fetch(waitUrl, {
    redirect: "manual", signal: opts.signal, headers: { ...opts.headers, cookie: `${browserCookieName()}=${browserId}` },
  });
  return { pending, checkCode, waitUrl, browserId, first, html };
}

/** An enrolled handset for `subscriber`: a Device row and the cookie its browser would hold. */
export async function enrolledDevice(subscriber: { id: string }): Promise<string> {
  const secret = randomToken(32);
  await db.device.create({ data: { id: randomToken(12), subscriberId: subscriber.id, name: "Test phone", secretHash: sha256(secret) } });
  return `op_device=${secret}`;
}

/** Waits until the handset has a pending request for `subscriber`; returns it. */
export async function pendingOnHandset(subscriber: { id: string }) {
  for (let i = 0; i < 100; i++) {
    const row = await db.deviceRequest.findFirst({ where: { subscriberId: subscriber.id, status: "pending" } });
    if (row) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no device request appeared");
}
