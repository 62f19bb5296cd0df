import { db } from "@/lib/db";
import { mintToken } from "@/lib/tokens/mint-token";
import { createTestClient } from "./fixtures";
import { baseUrl as sharedBaseUrl } from "./authorize-support";
import type { ApiAnswer } from "./openapi-validate";

export { openApiErrors } from "./openapi-validate";

/**
 * Helpers of the network-API tests (lib/network-apis, docs/network-apis.md): a client allowed API scopes, the
 * operator's purpose declarations, tokens, one call of an API operation, and validation of an answer against the
 * API's published OpenAPI document.
 */

export const FRAUD = "dpv:FraudPreventionAndDetection";

/** A confidential client allowed `openid` and the given API and purpose scopes (createTestClient's record). */
export async function createApiClient(opts: { scopes: string[]; grantTypes?: string[]; clientCredentialsScopes?: string[];
  expiresInFormat?: "timestamp" | "seconds"; } ) {
  const client = await createTestClient({ scopes: ["openid", ...opts.scopes], expiresInFormat: opts.expiresInFormat ?? "seconds" });
  if (opts.grantTypes || opts.clientCredentialsScopes) {
    await db.client.update({ where: { id: client.id }, data: {
      ...(opts.grantTypes ? { grantTypes: opts.grantTypes.join(" ") } : {}),
      ...(opts.clientCredentialsScopes ? { clientCredentialsScopes: opts.clientCredentialsScopes.join(" ") } : {}),
    } });
  }
  return client;
}

/** Declares the operator's legal basis for a scope and purpose (ApiPurpose), replacing an earlier declaration. */
export async function declarePurpose(scope: string, purpose = FRAUD,
  legalBasis: "consent" | "contract" | "legitimate_interest" = "legitimate_interest") {
  await db.apiPurpose.upsert({ where: { scope_purpose: { scope, purpose } }, create: { scope, purpose, legalBasis },
    update: { legalBasis } });
}

/**
 * An access token for `subscriberId` straight in the database, as a grant would have stored it (for tests of an
 * API's own behaviour; the end-to-end tests obtain theirs through the grants). `amr` "nba": network-based.
 */
export async function insertApiToken({ clientId, subscriberId, scope, amr = null, ttlSeconds = 300, dpopJkt = null }: {
  clientId: string; subscriberId: string; scope: string; amr?: string | null; ttlSeconds?: number; dpopJkt?: string | null;
}): Promise<string> {
  const token = mintToken();
  await db.accessToken.create({ data: { tokenHash: token.hash, clientId, subscriberId, scope, amr, dpopJkt,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000) } });
  return token.value;
}

/** A two-legged (client_credentials) token straight in the database. */
export async function insertClientApiToken({ clientId, scope, ttlSeconds = 300 }: {
  clientId: string; scope: string; ttlSeconds?: number;
}): Promise<string> {
  const token = mintToken();
  await db.clientAccessToken.create({ data: { tokenHash: token.hash, clientId, scope,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000) } });
  return token.value;
}


/** One call of an API operation: Bearer `token` (unless `authorization` is given), JSON `body` for POST. */
export async function callApi(apiPath: string, { token, body, method = body === undefined ? "GET" : "POST", correlator,
  headers = {}, baseUrl = sharedBaseUrl }: {
  token?: string; body?: unknown; method?: string; correlator?: string; headers?: Record<string, string>; baseUrl?: string;
}): Promise<ApiAnswer> {
  const res = await fetch(`${baseUrl}${apiPath}`, {
    method, redirect: "manual",
    headers: {
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(correlator !== undefined ? { "x-correlator": correlator } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try { parsed = text ? JSON.parse(text) as Record<string, unknown> : {}; } catch { parsed = { unparsed: text }; }
  return { status: res.status, headers: res.headers, body: parsed };
}
