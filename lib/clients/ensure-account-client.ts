import { db } from "../db";
import { issuerBase } from "../http/issuer-base";
import { isUniqueViolation } from "../store/is-unique-violation";
import { ACCOUNT_CALLBACK_PATH, ACCOUNT_CLIENT_ID, ACCOUNT_CLIENT_NAME } from "./account-client-id";
import { invalidateClient, toRegisteredClient, type RegisteredClient } from "./get-client";

let ensured: Promise<RegisteredClient> | null = null;

/**
 * The account page's client (lib/clients/account-client-id.ts), written on first use in each process
 * so a deployment has it without a manual step: public (PKCE S256, no secret), scope `openid` only,
 * its one redirect URI `<ISSUER>/account/callback`. Idempotent: an upsert that also puts back the
 * registration if an operator changed it (or the issuer moved); two instances racing on the insert
 * both end with the same row.
 */
export function ensureAccountClient(): Promise<RegisteredClient> {
  ensured ??= writeAccountClient().catch((err: unknown) => {
    ensured = null; // a database outage must not be remembered: the next use tries again
    throw err;
  });
  return ensured;
}

async function writeAccountClient(): Promise<RegisteredClient> {
  const redirectUri = `${issuerBase()}${ACCOUNT_CALLBACK_PATH}`;
  const data = {
    name: ACCOUNT_CLIENT_NAME, secretHash: null, isPublic: true, status: "active", allowedScopes: "openid",
    redirectUris: JSON.stringify([redirectUri]), postLogoutRedirectUris: "[]",
    sectorIdentifier: new URL(redirectUri).host, expiresInFormat: "seconds",
  };
  const upsert = () => db.client.upsert({ where: { id: ACCOUNT_CLIENT_ID }, create: { id: ACCOUNT_CLIENT_ID, ...data },
    update: data });
  let row;
  try {
    row = await upsert();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    row = await upsert(); // another instance inserted it first: now it is an update
  }
  invalidateClient({ clientId: ACCOUNT_CLIENT_ID });
  return toRegisteredClient(row);
}
