import { expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl } from "../fixtures/test-data";

export interface TestClient { id: string; name: string; redirectUri: string; secret?: string }

export interface AuthorizeOptions {
  scope?: string;
  acr?: string;
  display?: "page" | "popup" | "touch" | "wap";
  prompt?: string;
  loginHint?: string;
  idTokenHint?: string;
  maxAge?: number;
  uiLocales?: string;
  context?: string;
  bindingMessage?: string;
  state?: string;
  nonce?: string;
  extra?: Record<string, string>;
}

/** An authorization request URL as a Mobile Connect relying party builds it. */
export function authorizeUrl(client: TestClient, o: AuthorizeOptions = {}) {
  const state = o.state ?? randomBytes(12).toString("base64url");
  const nonce = o.nonce ?? randomBytes(12).toString("base64url");
  const q = new URLSearchParams({
    client_id: client.id, client_name: client.name, response_type: "code", redirect_uri: client.redirectUri,
    scope: o.scope ?? "openid mc_authn", acr_values: o.acr ?? "2", state, nonce, version: "mc_v1.1",
  });
  const optional: Record<string, string | undefined> = {
    display: o.display, prompt: o.prompt, login_hint: o.loginHint, id_token_hint: o.idTokenHint,
    max_age: o.maxAge === undefined ? undefined : String(o.maxAge), ui_locales: o.uiLocales, context: o.context,
    binding_message: o.bindingMessage, ...o.extra,
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) q.set(k, v);
  return { url: `${baseUrl()}/authorize?${q}`, state, nonce };
}

/** Sends the browser to /authorize (the relying party's redirect) and returns state and nonce. */
export async function startAuthorization(page: Page, client: TestClient, o: AuthorizeOptions = {}) {
  const req = authorizeUrl(client, o);
  await page.goto(req.url);
  return req;
}

/**
 * Waits for the browser to land on the relying party's redirect URI (e2e/fixtures/relying-party.ts)
 * and checks the response: same `state`, our `iss` (RFC 9207). Returns the query parameters.
 */
export async function expectCallback(page: Page, state: string): Promise<URLSearchParams> {
  const rp = await relyingPartyOrigin();
  await page.waitForURL((u) => u.origin === rp && u.pathname === "/callback");
  const params = new URL(page.url()).searchParams;
  expect(params.get("state")).toBe(state);
  expect(params.get("iss")).toBe(baseUrl());
  return params;
}

/** The flow ended with an authorization code. */
export async function expectCode(page: Page, state: string): Promise<string> {
  const params = await expectCallback(page, state);
  expect(params.get("error"), params.get("error_description") ?? "").toBeNull();
  expect(params.get("code")).toBeTruthy();
  return params.get("code")!;
}

/** The flow ended with an error redirect. */
export async function expectError(page: Page, state: string, error: string) {
  const params = await expectCallback(page, state);
  expect(params.get("code")).toBeNull();
  expect(params.get("error")).toBe(error);
  expect(params.get("error_description")).toBeTruthy();
  return params;
}

/** Exchanges a code at the token endpoint (client_secret_basic, form body) and returns the token set. */
export async function exchangeCode(client: TestClient, code: string) {
  const res = await fetch(`${baseUrl()}/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret!)}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { access_token: string; id_token: string; token_type: string };
}

/** The claims of a JWT (no verification: the token endpoint's own tests check signatures). */
export function jwtClaims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8"));
}
