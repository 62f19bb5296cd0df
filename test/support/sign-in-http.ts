import { db } from "@/lib/db";
import { cookieAfter, postStep, type Flow } from "@/e2e/fixtures/interaction-http";

/** The six-digit code of the last text message sent to `msisdn` (the inbox channel), or null. */
export async function latestCode(msisdn: string): Promise<string | null> {
  const m = await db.message.findFirst({ where: { msisdn }, orderBy: { createdAt: "desc" } });
  return m ? /\b(\d{6})\b/.exec(m.body)![1]! : null;
}

/** Posts a screen's form in the browser of `f` (its CSRF token added), following a renewed browser cookie. */
export function flowPoster(baseUrl: string) {
  return async (f: Flow, step: string, fields: Record<string, string> = {}) => {
    const res = await postStep(baseUrl, f.id, step, { cookie: f.cookie, fields: { csrf_token: f.csrf, ...fields } });
    f.cookie = cookieAfter(res, f.cookie);
    return res;
  };
}
