import type { AuthorizationCode } from "../../tokens/token-rows";
import type { RegisteredClient } from "../../clients/get-client";
import type { Params } from "../../http/params";
import { auditEventRow, recordAuditEvent } from "../../audit/record-audit-event";
import { config } from "../../config";
import { randomToken } from "../../crypto";
import { findAuthorizationCode } from "../../tokens/find-authorization-code";
import { mintToken } from "../../tokens/mint-token";
import { redeemAuthorizationCode } from "../../tokens/redeem-authorization-code";
import { revokeCodeTokens } from "../../tokens/revoke-code-tokens";
import { InvalidGrant, InvalidRequest, OAuthError } from "../errors";
import { signIdToken } from "../id-token";
import { isWellFormedVerifier, pkceMatches } from "../pkce";
import { parseScope } from "../scopes";
import { networkApiTokenRules } from "../../network-apis/token-rules";
import type { TokenRequestDpop } from "../dpop/token-request-proof";
import { requiredParam } from "./required-param";
import type { TokenSet } from "./token-set";

/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3, OIDC Core §3.1.3): one code read, one
 * transaction (spend the code + store the tokens), no subscriber read (the id_token needs none).
 */
export async function authorizationCodeGrant({ client, params, now = new Date(), dpop }: {
  client: RegisteredClient; params: Params; now?: Date; dpop?: TokenRequestDpop;
}): Promise<TokenSet> {
  const code = requiredParam(params, "code");
  const redirectUri = requiredParam(params, "redirect_uri");
  const verifier = params.get("code_verifier");
  if (verifier !== undefined && !isWellFormedVerifier(verifier)) {
    throw new InvalidRequest("code_verifier must be 43 to 128 characters from A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)");
  }
  const row = await findAuthorizationCode({ code });
  // Unknown codes and other clients' codes read the same (RFC 6749 §5.2 invalid_grant).
  if (!row || row.clientId !== client.id) throw new InvalidGrant("the authorization code is invalid");
  if (row.usedAt) throw await codeReplayed(row.codeHash, row);
  checkCode({ row, client, redirectUri, verifier, now });

  const scopes = parseScope(row.scope);
  const access = mintToken();
  const rules = networkApiTokenRules(scopes, config().ACCESS_TOKEN_TTL);
  const refresh = scopes.includes("offline_access") && rules.refreshAllowed ? mintToken() : undefined;
  const familyId = refresh ? randomToken(16) : null;
  const accessTokenExpiresAt = new Date(now.getTime() + rules.ttlSeconds * 1000);
  const common = { clientId: client.id, subscriberId: row.subscriberId, scope: row.scope, codeHash: row.codeHash };
  // RFC 9449 §5: with a proof, the access token is bound to its key, and so is a public client's refresh token
  // (a confidential client's is bound to its authentication). Without one, dpopJkt stays undefined: the
  // inserts keep their column set (no statement added, lib/store).
  const accessJkt = dpop?.jkt;
  const refreshJkt = client.isPublic ? dpop?.jkt : undefined;
  const redeemed = await redeemAuthorizationCode({
    codeHash: row.codeHash,
    usedAt: now,
    accessToken: { ...common, tokenHash: access.hash, familyId, acr: row.acr, amr: row.amr, authTime: row.authTime,
      expiresAt: accessTokenExpiresAt, dpopJkt: accessJkt },
    refreshToken: refresh && {
      ...common, tokenHash: refresh.hash, familyId: familyId!, acr: row.acr, amr: row.amr, authTime: row.authTime,
      expiresAt: new Date(now.getTime() + config().REFRESH_TOKEN_TTL * 1000), dpopJkt: refreshJkt,
    },
    // Audit log: written in the same transaction, so a token is recorded exactly when it is issued.
    audit: auditEventRow({ type: "token_issued", outcome: "success", subscriberId: row.subscriberId, clientId: client.id,
      at: now, detail: { grant: "authorization_code", scope: row.scope, refresh_token: Boolean(refresh) } }),
  });
  // Lost the race against a concurrent redemption of the same code: that is a replay too.
  if (!redeemed) throw await codeReplayed(row.codeHash, row);

  const idToken = scopes.includes("openid")
    ? await signIdToken({
        client, subscriberId: row.subscriberId, accessToken: access.value, acr: row.acr,
        amr: parseScope(row.amr), authTime: row.authTime, nonce: row.nonce, loginHint: row.loginHint,
        context: row.context, bindingMessage: row.bindingMessage, sessionId: row.sessionId, iat: Math.floor(now.getTime() / 1000),
      })
    : undefined;
  return { accessToken: access.value, accessTokenExpiresAt, scope: row.scope, idToken, refreshToken: refresh?.value,
    dpopJkt: accessJkt };
}

function checkCode({ row, client, redirectUri, verifier, now }: {
  row: AuthorizationCode; client: RegisteredClient; redirectUri: string; verifier?: string; now: Date;
}) {
  if (row.expiresAt.getTime() <= now.getTime()) throw new InvalidGrant("the authorization code has expired");
  // RFC 6749 §4.1.3: redirect_uri must be identical to the one of the authorization request.
  if (row.redirectUri !== redirectUri) {
    throw new InvalidGrant("redirect_uri does not match the one used in the authorization request");
  }
  if (client.isPublic && !row.codeChallenge) throw new InvalidGrant("public clients must use PKCE (S256)");
  if (!pkceMatches({ verifier, challenge: row.codeChallenge, method: row.codeChallengeMethod })) {
    throw new InvalidGrant(verifier ? "PKCE verification failed" : "code_verifier is required for this code");
  }
}

/**
 * RFC 6749 §4.1.2: a code used more than once is refused and every token issued from it revoked
 * (OpenID conformance: the first access token stops working).
 */
async function codeReplayed(codeHash: string, row?: { clientId: string; subscriberId: string }): Promise<OAuthError> {
  await revokeCodeTokens({ codeHash });
  if (row) {
    await recordAuditEvent({ type: "token_revoked", outcome: "success", subscriberId: row.subscriberId,
      clientId: row.clientId, detail: { reason: "code_replay" } });
  }
  return new InvalidGrant("the authorization code has already been used");
}
