import { randomBytes, randomInt } from "node:crypto";
import { requestFrom } from "./request-from";
import { createStaff } from "../../lib/console/staff-accounts";
import { totpCode } from "../../lib/console/totp";
import type { StaffRole } from "../../lib/console/roles";

/** A staff member made for one test: the credentials the CLI would print. */
export interface TestStaff {
  username: string;
  password: string;
  totpSecret: string;
  role: StaffRole;
}

/** Creates a staff account straight in the database the server uses (DATABASE_URL of the test process). */
export async function createTestStaff(role: StaffRole, username = `${role}-${randomBytes(4).toString("hex")}`): Promise<TestStaff> {
  const c = await createStaff({ username, role });
  return { username: c.username, password: c.password, totpSecret: c.totpSecret, role };
}

/**
 * A TOTP code for `staff` that has not been used yet: each TOTP step is accepted once, so a test
 * signing in twice within 30 s takes the next step's code (accepted within the ±1 step window).
 */
const lastStep = new Map<string, number>();
export function freshTotp(staff: TestStaff, now = Date.now()): string {
  const step = Math.floor(now / 30_000);
  const prev = lastStep.get(staff.username) ?? -1;
  const use = prev >= step ? prev + 1 : step;
  if (use > step + 1) throw new Error("freshTotp: more than two sign-ins of one member within 30 s");
  lastStep.set(staff.username, use);
  return totpCode(staff.totpSecret, staff.username, use * 30_000);
}

/** The cookies of a Set-Cookie list, merged into a jar. */
function absorb(jar: Map<string, string>, res: Response) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair!.indexOf("=");
    if (i > 0) jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
  }
}

/**
 * A loopback address of its own (127.x.y.z; every 127.0.0.0/8 address reaches a server on 127.0.0.1):
 * tests that fail sign-ins on purpose send them from one, so the per-address sign-in limit they spend
 * is never the shared 127.0.0.1's that every other console test signs in from.
 */
export function loopbackAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** fetch, or (with `from`) one HTTP request from that local address; never follows redirects. */
export function fetchFrom(url: string | URL, init: { method?: string; headers?: Record<string, string>; body?: string },
  from?: string): Promise<Response> {
  if (!from) return fetch(url, { ...init, redirect: "manual" });
  return requestFrom(url, { ...init, from });
}

/** A console session over plain HTTP (no browser): the cookie header to send, and the page fetcher. */
export interface ConsoleHttpSession {
  cookie(): string;
  get(path: string): Promise<Response>;
  /** Posts a console form with the CSRF token taken from `fromPage` (the page that shows the form). */
  post(path: string, fields: Record<string, string>, fromPage: string): Promise<Response>;
}

/**
 * Signs `staff` in to the console of the server at `baseUrl` as a browser would without script:
 * GET /console/sign-in (through next-auth's signin, which sets its CSRF cookie), then POST the form to
 * next-auth's credentials callback. Throws when the sign-in does not end on /console (the message has
 * the redirect, e.g. `…?e=invalid`). With `from`, every request of the session is sent from that local address.
 */
export async function consoleSignIn(baseUrl: string, staff: TestStaff, code = freshTotp(staff),
  { from }: { from?: string } = {}): Promise<ConsoleHttpSession> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const get = async (path: string) => {
    let url = new URL(path, baseUrl).toString();
    for (let i = 0; i < 5; i++) {
      const res = await fetchFrom(url, { headers: { cookie: cookie() } }, from);
      absorb(jar, res);
      const loc = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && loc) { url = new URL(loc, url).toString(); continue; }
      return res;
    }
    throw new Error(`too many redirects from ${path}`);
  };
  const page = await (await get("/console/sign-in")).text();
  const csrf = /name="csrfToken" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error("no next-auth CSRF token on the sign-in page");
  const res = await fetchFrom(new URL("/console/auth/callback/staff", baseUrl), {
    method: "POST",
    headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded", origin: new URL(baseUrl).origin },
    body: new URLSearchParams({ csrfToken: csrf, username: staff.username, password: staff.password, code,
      callbackUrl: "/console" }).toString(),
  }, from);
  absorb(jar, res);
  const loc = res.headers.get("location") ?? "";
  if (!new URL(loc, baseUrl).pathname.startsWith("/console") || new URL(loc, baseUrl).pathname.startsWith("/console/sign-in")) {
    throw new Error(`console sign-in failed: ${res.status} ${loc}`);
  }
  const post = async (path: string, fields: Record<string, string>, fromPage: string) => {
    const html = await (await get(fromPage)).text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`no console CSRF token on ${fromPage}`);
    const r = await fetchFrom(new URL(path, baseUrl), {
      method: "POST",
      headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded", origin: new URL(baseUrl).origin },
      body: new URLSearchParams({ csrf_token: token, ...fields }).toString(),
    }, from);
    absorb(jar, r);
    return r;
  };
  return { cookie, get, post };
}
