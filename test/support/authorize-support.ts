import { createPublicKey } from "node:crypto";
import { expect, inject } from "vitest";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { getKeys, invalidateKeyCache, type LoadedKey } from "@/lib/keys/key-store";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { createTestClient, createTestSubscriber } from "./fixtures";

export const baseUrl = inject("baseUrl");

export type Client = Awaited<ReturnType<typeof createTestClient>>;
export type Subscriber = Awaited<ReturnType<typeof createTestSubscriber>>;

/** The query of a minimal valid authorization request for `client`. */
export function requestFor(client: Client, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    client_id: client.id, redirect_uri: client.redirectUri, response_type: "code", scope: "openid",
    state: `state-${randomToken(6)}`, nonce: `nonce-${randomToken(6)}`, acr_values: "2", ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
}

/** GET /authorize without following redirects. */
export function authorize(query: Record<string, string> | Array<[string, string]>, opts: {
  browserId?: string; headers?: Record<string, string>;
} = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.browserId) headers.cookie = `${browserCookieName()}=${opts.browserId}`;
  return fetch(`${baseUrl}/authorize?${new URLSearchParams(query)}`, { redirect: "manual", headers });
}

/** GET /authorize/resume/{id}. */
export function resume(id: string, browserId?: string) {
  const headers: Record<string, string> = browserId ? { cookie: `${browserCookieName()}=${browserId}` } : {};
  return fetch(`${baseUrl}/authorize/resume/${id}`, { redirect: "manual", headers });
}

/** Asserts a redirect to the client's redirect URI carrying `state` and `iss`; returns its parameters. */
export function expectCallback(res: Response, client: Client, state: string | undefined): URLSearchParams {
  expect(res.status).toBe(302);
  const location = res.headers.get("location")!;
  expect(location.startsWith(`${client.redirectUri}?`) || location.startsWith(`${client.redirectUri}&`)).toBe(true);
  const params = new URL(location).searchParams;
  expect(params.get("iss")).toBe(baseUrl);
  if (state === undefined) expect(params.has("state")).toBe(false);
  else expect(params.get("state")).toBe(state);
  return params;
}

/** Asserts an error redirect; returns the description. */
export function expectErrorRedirect(res: Response, client: Client, state: string | undefined, error: string) {
  const params = expectCallback(res, client, state);
  expect(params.get("error"), params.get("error_description") ?? "").toBe(error);
  expect(params.has("code")).toBe(false);
  return params.get("error_description");
}

/** Asserts the plain error page: 400, HTML, no Location, anti-framing and no-store headers. */
export async function expectErrorPage(res: Response, status = 400) {
  expect(res.status).toBe(status);
  expect(res.headers.get("location")).toBeNull();
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  return res.text();
}

/** Asserts a redirect to the interaction screen; returns the stored request. */
export async function expectInteraction(res: Response) {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(location.origin).toBe(baseUrl);
  const m = /^\/interaction\/([A-Za-z0-9_-]{22})$/.exec(location.pathname);
  expect(m, location.href).not.toBeNull();
  expect(location.search).toBe("");
  const row = await db.authorizationRequest.findUniqueOrThrow({ where: { id: m![1]! } });
  return { row, params: JSON.parse(row.params) };
}

/** The code row behind a callback's `code`. */
export function codeRow(code: string) {
  return db.authorizationCode.findUnique({ where: { codeHash: sha256(code) } });
}

/** A signed-in browser: a Session row for `subscriber` bound to a fresh browser id. */
export async function signedInBrowser(subscriber: Subscriber, opts: {
  acr?: "2" | "3"; authTime?: Date; browserId?: string;
} = {}) {
  const browserId = opts.browserId ?? randomToken(32);
  const session = await db.session.create({
    data: {
      id: randomToken(16), browserIdHash: sha256(browserId), subscriberId: subscriber.id,
      authTime: opts.authTime ?? new Date(), acr: opts.acr ?? "2", amr: opts.acr === "3" ? "otp sms pin" : "otp sms",
      expiresAt: new Date(Date.now() + 3600_000),
    },
  });
  return { browserId, session };
}

/** Remembered consent for (subscriber, client). */
export function grant(subscriber: Subscriber, client: Client, scope = "openid") {
  return db.grant.create({ data: { id: randomToken(12), subscriberId: subscriber.id, clientId: client.id, scope } });
}

/**
 * The server's current key of `use`: the key set is created by whichever process reads it first,
 * so the keys are taken from what the server publishes at /jwks (which also makes it create them).
 */
export async function serverKey(use: "sig" | "enc"): Promise<LoadedKey> {
  const { keys } = (await (await fetch(`${baseUrl}/jwks`)).json()) as { keys: Array<{ kid: string; use: string }> };
  const published = new Set(keys.filter((k) => k.use === use).map((k) => k.kid));
  invalidateKeyCache();
  // The signing key of the RS256 default (one sig key per algorithm is published, lib/keys/key-store.ts).
  const mine = (await getKeys()).filter((k) => k.use === use && published.has(k.kid) && (use === "enc" || k.alg === "RS256"));
  const key = mine.find((k) => k.status === "active") ?? mine[0];
  if (!key) throw new Error(`no published ${use} key`);
  return key;
}

export const publicKeyOf = (key: LoadedKey) => createPublicKey(key.privateKey);

export { createTestClient, createTestSubscriber, db };
