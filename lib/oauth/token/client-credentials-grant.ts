import type { RegisteredClient } from "../../clients/get-client";
import type { Params } from "../../http/params";
import { config } from "../../config";
import { storeClientAccessToken } from "../../tokens/client-access-tokens";
import { mintToken } from "../../tokens/mint-token";
import { InvalidScope, UnauthorizedClient } from "../errors";
import { parseScope } from "../scopes";
import { checkNetworkApiScopes, consentBasedScopes } from "../../api-consent/check-scopes";
import { isNumberVerificationGrant } from "../../network-apis/camara-scopes";
import type { TokenSet } from "./token-set";
import type { TokenRequestDpop } from "../dpop/token-request-proof";

/**
 * `grant_type=client_credentials` (RFC 6749 §4.4, docs/grants.md): a confidential client gets an access token for
 * itself, no subscriber behind it. Its scopes come only from the client's clientCredentialsScopes (the operator's
 * list, from CLIENT_CREDENTIALS_SCOPES): an absent `scope` means all of them (RFC 6749 §3.3, a pre-defined
 * default), anything else is `invalid_scope`. Network-API scopes: see CLIENT_CREDENTIALS_SCOPES. Never `openid`, an id_token or a refresh token (§4.4.3). The token
 * lives ACCESS_TOKEN_TTL and is stored in its own table (lib/tokens/client-access-tokens.ts).
 */
export async function clientCredentialsGrant({ client, params, now = new Date(), dpop }: {
  client: RegisteredClient; params: Params; now?: Date; dpop?: TokenRequestDpop;
}): Promise<TokenSet> {
  // §4.4: "MUST only be used by confidential clients" (a public client authenticated with client_id alone).
  if (client.isPublic) throw new UnauthorizedClient("client_credentials is for confidential clients only");
  const requested = params.get("scope");
  const scopes = requested === undefined ? client.clientCredentialsScopes : parseScope(requested);
  if (!scopes.length) {
    throw new InvalidScope(requested === undefined
      ? "the client has no client credentials scopes registered" : "scope must not be empty");
  }
  const extra = scopes.filter((s) => !client.clientCredentialsScopes.includes(s));
  if (extra.length) throw new InvalidScope(`scope not allowed for client_credentials: ${extra.join(" ")}`);
  // Network APIs two-legged (docs/network-apis.md): never Number Verification; one declared purpose; no scope
  // whose declared basis is consent (no subscriber is there to have given it).
  if (isNumberVerificationGrant(scopes)) {
    throw new InvalidScope("Number Verification is three-legged only: it needs the subscriber's network-based sign-in");
  }
  const api = await checkNetworkApiScopes(scopes, { allowedScopes: client.clientCredentialsScopes });
  const consentBased = api ? consentBasedScopes(api) : [];
  if (consentBased.length) {
    throw new InvalidScope(`${consentBased.join(" ")} rests on the subscriber's consent for ${api!.purpose}: `
      + "it needs a three-legged flow");
  }

  const access = mintToken();
  const scope = scopes.join(" ");
  const accessTokenExpiresAt = new Date(now.getTime() + config().ACCESS_TOKEN_TTL * 1000);
  // RFC 9449: with a proof the token is bound to its key (token_type DPoP; used with a proof at /introspect).
  await storeClientAccessToken({ tokenHash: access.hash, clientId: client.id, scope, expiresAt: accessTokenExpiresAt,
    dpopJkt: dpop?.jkt,
    audit: { type: "token_issued", outcome: "success", clientId: client.id, at: now,
      detail: { grant: "client_credentials", scope, refresh_token: false } } });
  return { accessToken: access.value, accessTokenExpiresAt, scope, dpopJkt: dpop?.jkt };
}
