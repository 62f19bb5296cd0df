import { createHmac } from "node:crypto";
import { config } from "../config";
import { issuerBase } from "../http/issuer-base";

// The playground is a relying party living inside the product. Its three settings are not part of the
// service's configuration (lib/config.ts): each may be set in the environment and is otherwise derived
// from SUBJECT_SECRET with its own HMAC label, so the demo seed and the next-auth route agree without a
// new variable. This file is the one place of lib/playground that reads process.env.

/** The playground's client_id (registered by ensurePlaygroundClient). */
export const PLAYGROUND_CLIENT_ID = "playground";
/** Its registered short name (`client_name`, required with `mc_authz`). */
export const PLAYGROUND_CLIENT_NAME = "Playground";
/** The next-auth provider id, hence the callback path /api/auth/callback/operator. */
export const PLAYGROUND_PROVIDER_ID = "operator";

function derive(label: string): string {
  return createHmac("sha256", config().SUBJECT_SECRET).update(label).digest("base64url");
}

/** The playground client's secret: PLAYGROUND_CLIENT_SECRET, else HMAC(SUBJECT_SECRET, "playground-client-secret"). */
export function playgroundClientSecret(): string {
  return process.env.PLAYGROUND_CLIENT_SECRET || derive("playground-client-secret");
}

/** The key of next-auth's encrypted session cookie: NEXTAUTH_SECRET, else HMAC(SUBJECT_SECRET, "playground-nextauth-secret"). */
export function nextAuthSecret(): string {
  return process.env.NEXTAUTH_SECRET || process.env.AUTH_SECRET || derive("playground-nextauth-secret");
}

/** Where the playground's redirect URIs and pages live. */
export function playgroundUrls() {
  const base = issuerBase();
  return {
    nextAuthBase: `${base}/api/auth`,
    callback: `${base}/api/auth/callback/${PLAYGROUND_PROVIDER_ID}`,
    page: `${base}/playground`,
    popupDone: `${base}/playground/popup-done`,
    discovery: `${base}/.well-known/openid-configuration`,
  };
}

/**
 * next-auth v4 reads its own URL from process.env.NEXTAUTH_URL at request time (detectOrigin) and has no
 * option for it; the playground runs on the issuer, so NEXTAUTH_URL defaults to ISSUER/api/auth. Called
 * before every next-auth use; an explicit NEXTAUTH_URL wins.
 */
export function applyNextAuthUrl(): void {
  process.env.NEXTAUTH_URL ||= playgroundUrls().nextAuthBase;
}

/** next-auth names its cookies `__Secure-…` only when NEXTAUTH_URL is https. */
export function sessionCookieName(): string {
  applyNextAuthUrl();
  return process.env.NEXTAUTH_URL!.startsWith("https://") ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}
