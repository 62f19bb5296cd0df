import { playgroundUrls } from "./playground-settings";

export interface NextAuthResult {
  status: number;
  body: unknown;
  /** Set-Cookie headers to pass on to the browser (CSRF, state/PKCE/nonce, session). */
  setCookies: string[];
}

/** The cookies of a Cookie request header. */
export function parseCookieHeader(header: string | null): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) jar.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return jar;
}

function absorb(jar: Map<string, string>, setCookies: string[]) {
  for (const c of setCookies) {
    const [pair] = c.split(";");
    const i = pair!.indexOf("=");
    if (i > 0) jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
  }
}

/**
 * Runs a POST action of next-auth's own endpoints for the browser, the way next-auth's client does
 * (`signIn`, `update`, `signOut`): fetches a CSRF token with the browser's cookies, then posts the action
 * with it and `json=true`, as a form post. Lets plain HTML forms (no JavaScript) drive next-auth; the caller
 * passes the returned cookies on. Over HTTP to the issuer because next-auth v4 exports no in-process handler.
 */
export async function callNextAuth(browserRequest: Request, action: string, opts: {
  query?: URLSearchParams; body?: Record<string, string>;
} = {}): Promise<NextAuthResult> {
  const base = playgroundUrls().nextAuthBase;
  const jar = parseCookieHeader(browserRequest.headers.get("cookie"));
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const setCookies: string[] = [];

  const csrf = await fetch(`${base}/csrf`, { headers: { cookie: cookieHeader() }, redirect: "manual", cache: "no-store" });
  const csrfCookies = csrf.headers.getSetCookie();
  setCookies.push(...csrfCookies);
  absorb(jar, csrfCookies);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };

  const query = opts.query?.size ? `?${opts.query}` : "";
  const res = await fetch(`${base}/${action}${query}`, {
    method: "POST",
    // A form post, as next-auth's client sends its actions (the route takes no other: lib/http/next-auth-route.ts).
    headers: { cookie: cookieHeader(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...opts.body, csrfToken, json: "true" }),
    redirect: "manual",
    cache: "no-store",
  });
  setCookies.push(...res.headers.getSetCookie());
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body, setCookies };
}

/** A 303 to `location` carrying next-auth's cookies (and any extra ones). */
export function redirectWithCookies(location: string, setCookies: readonly string[]): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const c of setCookies) headers.append("Set-Cookie", c);
  return new Response(null, { status: 303, headers });
}
