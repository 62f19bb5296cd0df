import { config } from "../config";
import { servicePath } from "../interaction/screen-headers";
import { formToken } from "../http/form-token";
import { DISPLAY_VALUES } from "../oauth/scopes";

/** How long the account page stays open after a sign-in (absolute; docs/account.md). */
export const ACCOUNT_SESSION_SECONDS = 15 * 60;
/** How long a sign-in started from the account page may take (the `state` and PKCE verifier cookie). */
export const LOGIN_SECONDS = 10 * 60;

const secure = () => config().ISSUER.startsWith("https:");
/** `__Secure-` over HTTPS (RFC 6265bis §4.1.3.1); not `__Host-`, which would need Path=/. */
const name = (base: string) => (secure() ? `__Secure-${base}` : base);
export const accountSessionCookieName = () => name("account_session");
const loginCookieName = () => name("account_login");

/** HttpOnly, SameSite=Lax (the callback is a top-level GET from our own redirect), only under /account. */
function cookie(cookieName: string, value: string, maxAge: number): string {
  return `${cookieName}=${value}; Path=${servicePath("/account")}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`
    + (secure() ? "; Secure" : "");
}

/** One cookie of a Cookie header, or null. */
export function readCookie(header: string | null, cookieName: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === cookieName) return v.join("=");
  }
  return null;
}

/** What the account page remembers while the subscriber signs in. */
export interface AccountLogin {
  state: string;
  verifier: string;
  display: string;
  lang: string;
  /**
   * When the sign-in started (seconds since epoch): the account callback accepts only a sign-in completed at or
   * after it (lib/account/check-fresh-code-sign-in.ts). Bound to `state` by the request's nonce (loginNonce).
   */
  startedAt: number;
}

export function loginCookie(login: AccountLogin): string {
  return cookie(loginCookieName(), [login.state, login.verifier, login.display, login.lang, login.startedAt].join("."),
    LOGIN_SECONDS);
}

export function readLoginCookie(header: string | null): AccountLogin | null {
  const parts = readCookie(header, loginCookieName())?.split(".") ?? [];
  if (parts.length !== 5) return null;
  const [state, verifier, display, lang, startedAt] = parts as [string, string, string, string, string];
  const token = /^[A-Za-z0-9_-]{43,128}$/;
  if (!token.test(state) || !token.test(verifier) || !(DISPLAY_VALUES as readonly string[]).includes(display)
    || !/^[a-z]{2,3}$/.test(lang) || !/^\d{1,12}$/.test(startedAt)) return null;
  return { state, verifier, display, lang, startedAt: Number(startedAt) };
}

/**
 * The `nonce` of the account page's authorization request: an HMAC of its `state` and start time
 * (lib/http/form-token.ts), so the code's nonce (OIDC Core §3.1.2.1, copied into the code) proves that the
 * cookie's start time is the one this sign-in began with: a browser that edits the cookie cannot make a
 * matching nonce.
 */
export function loginNonce({ state, startedAt }: Pick<AccountLogin, "state" | "startedAt">): string {
  return formToken("account-login-nonce", `${state}.${startedAt}`);
}

export const clearLoginCookie = () => cookie(loginCookieName(), "", 0);

/** The account session: the value of the access token the sign-in gave the account page (never stored in clear). */
export const sessionCookie = (accessToken: string) => cookie(accountSessionCookieName(), accessToken, ACCOUNT_SESSION_SECONDS);
export const clearSessionCookie = () => cookie(accountSessionCookieName(), "", 0);
