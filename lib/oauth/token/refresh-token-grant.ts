import type { RegisteredClient } from "../../clients/get-client";
import type { Params } from "../../http/params";
import { auditEventRow } from "../../audit/record-audit-event";
import { config } from "../../config";
import { findRefreshToken } from "../../tokens/find-refresh-token";
import { mintToken } from "../../tokens/mint-token";
import { revokeTokenFamily } from "../../tokens/revoke-token-family";
import { rotateRefreshToken } from "../../tokens/rotate-refresh-token";
import { InvalidGrant, InvalidScope, OAuthError, UnauthorizedClient } from "../errors";
import { signIdToken } from "../id-token";
import { parseScope } from "../scopes";
import { refreshRefusal } from "../../api-consent/refresh-check";
import type { TokenRequestDpop } from "../dpop/token-request-proof";
import { requiredParam } from "./required-param";
import type { TokenSet } from "./token-set";

/**
 * `grant_type=refresh_token` (RFC 6749 §6): the token rotates on every use and a reused one revokes
 * its whole family (RFC 9700 §4.14.2). The requested scope may narrow the new access token, never
 * widen it; the new refresh token keeps the original scope and the family's original expiry, so a
 * family never outlives REFRESH_TOKEN_TTL from the code it came from. A grant with network-API scopes is checked
 * again against the operator's declarations and the subscriber's consent (lib/api-consent/refresh-check.ts).
 */
export async function refreshTokenGrant({ client, params, now = new Date(), dpop }: {
  client: RegisteredClient; params: Params; now?: Date; dpop?: TokenRequestDpop;
}): Promise<TokenSet> {
  if (!client.allowedScopes.includes("offline_access")) {
    throw new UnauthorizedClient("the client is not registered for offline_access (refresh tokens)");
  }
  const presented = requiredParam(params, "refresh_token");
  const row = await findRefreshToken({ token: presented });
  // RFC 6749 §6: the refresh token must have been issued to the authenticated client.
  if (!row || row.clientId !== client.id) throw new InvalidGrant("the refresh token is invalid");
  if (row.revokedAt) throw new InvalidGrant("the refresh token has been revoked");
  if (row.usedAt) throw await refreshTokenReused(row.familyId);
  if (row.expiresAt.getTime() <= now.getTime()) throw new InvalidGrant("the refresh token has expired");
  // RFC 9449 §5: a bound refresh token (a public client's) needs a proof made with the same key. Refused as
  // invalid_grant, as node-oidc-provider does: the proof itself is valid, the grant is not usable with it.
  if (row.dpopJkt && dpop?.jkt !== row.dpopJkt) {
    throw new InvalidGrant(dpop ? "the refresh token is bound to another DPoP key"
      : "the refresh token is DPoP-bound: a DPoP proof with its key is required");
  }
  const scopes = narrowedScope({ granted: parseScope(row.scope), requested: params.get("scope") });
  // The subscriber's status came with the token (one statement): a suspended or deleted subscriber is refused.
  if (row.subscriberStatus !== "active") {
    throw new InvalidGrant("the subscriber's account is not active");
  }
  // Network APIs: the grant's (API scope, purpose) pairs still declared by the operator and, where the basis is now
  // consent, the subscriber's consent in force (reads nothing for a grant without API scope). Refused: the family is
  // revoked, as its basis is gone for good (its live access token with it); the client must be authorized again.
  const refusal = await refreshRefusal({ subscriberId: row.subscriberId, clientId: client.id,
    scopes: parseScope(row.scope) });
  if (refusal) {
    await revokeTokenFamily({ familyId: row.familyId, at: now });
    throw new InvalidGrant(refusal);
  }

  const access = mintToken();
  const next = mintToken();
  const accessTokenExpiresAt = new Date(now.getTime() + config().ACCESS_TOKEN_TTL * 1000);
  const { clientId, subscriberId, familyId, codeHash, acr, amr, authTime } = row;
  // The successor keeps the binding; the new access token is bound to this request's proof, if any.
  const refreshJkt = row.dpopJkt ?? undefined;
  const accessJkt = dpop?.jkt;
  const rotated = await rotateRefreshToken({
    tokenHash: row.tokenHash,
    usedAt: now,
    next: { tokenHash: next.hash, familyId, clientId, subscriberId, scope: row.scope, codeHash, acr, amr, authTime,
      expiresAt: row.expiresAt, dpopJkt: refreshJkt },
    accessToken: { tokenHash: access.hash, clientId, subscriberId, scope: scopes.join(" "), codeHash, familyId, acr,
      amr, authTime, expiresAt: accessTokenExpiresAt, dpopJkt: accessJkt },
    // Audit log: in the rotation's transaction (no statement of its own).
    audit: auditEventRow({ type: "token_issued", outcome: "success", subscriberId, clientId, at: now,
      detail: { grant: "refresh_token", scope: scopes.join(" "), refresh_token: true } }),
  });
  if (!rotated) throw await refreshTokenReused(familyId);

  // OIDC Core §12.2: a new id_token keeps the original authentication's auth_time, acr and amr.
  const idToken = scopes.includes("openid")
    ? await signIdToken({ client, subscriberId, accessToken: access.value, acr, amr: parseScope(amr), authTime,
        iat: Math.floor(now.getTime() / 1000) })
    : undefined;
  return { accessToken: access.value, accessTokenExpiresAt, scope: scopes.join(" "), idToken, refreshToken: next.value,
    dpopJkt: accessJkt };
}

/** RFC 6749 §6: omitted scope means the original; anything not originally granted is invalid_scope. */
function narrowedScope({ granted, requested }: { granted: string[]; requested: string | undefined }): string[] {
  if (requested === undefined) return granted;
  const wanted = parseScope(requested);
  if (!wanted.length) throw new InvalidScope("scope must not be empty");
  const extra = wanted.filter((s) => !granted.includes(s));
  if (extra.length) throw new InvalidScope(`scope exceeds the original grant: ${extra.join(" ")}`);
  return wanted;
}

async function refreshTokenReused(familyId: string): Promise<OAuthError> {
  await revokeTokenFamily({ familyId });
  return new InvalidGrant("the refresh token has already been used");
}
