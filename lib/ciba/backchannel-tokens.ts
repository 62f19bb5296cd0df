import type { Prisma } from "@prisma/client";
import { auditEventRow } from "../audit/record-audit-event";
import type { RegisteredClient } from "../clients/get-client";
import { config } from "../config";
import { randomToken } from "../crypto";
import { signIdToken } from "../oauth/id-token";
import { parseScope } from "../oauth/scopes";
import { mintToken } from "../tokens/mint-token";
import { networkApiTokenRules } from "../network-apis/token-rules";
import type { BackchannelRequestRow } from "./backchannel-requests";

/** The tokens of an approved backchannel request, minted and not yet stored: their rows, and the values to send. */
export interface BackchannelTokens {
  access: { value: string; hash: string };
  refresh?: { value: string; hash: string };
  familyId: string | null;
  accessTokenExpiresAt: Date;
  rows: {
    accessToken: Prisma.AccessTokenUncheckedCreateInput;
    refreshToken?: Prisma.RefreshTokenUncheckedCreateInput;
    audit: Prisma.AuditEventCreateManyInput;
  };
}

/**
 * Mints the tokens of an approved request exactly as the code flow does (docs/ciba.md): an access token with the
 * approval's acr and auth_time, a refresh token only with offline_access (in a new family), the `token_issued`
 * audit row with grant `ciba`. `family`: always give the access token a family (push: the next attempt revokes the
 * previous one's tokens by it). DPoP (RFC 9449 §5): `dpopJkt` binds the access token, and a public client's refresh
 * token.
 */
export function mintBackchannelTokens({ client, request, now, dpopJkt, family = false, mode }: {
  client: Pick<RegisteredClient, "id" | "isPublic">; request: BackchannelRequestRow; now: Date; dpopJkt?: string;
  family?: boolean; mode: "poll" | "ping" | "push";
}): BackchannelTokens {
  const scopes = parseScope(request.scope);
  const access = mintToken();
  const rules = networkApiTokenRules(scopes, config().ACCESS_TOKEN_TTL);
  const refresh = scopes.includes("offline_access") && rules.refreshAllowed ? mintToken() : undefined;
  const familyId = refresh || family ? randomToken(16) : null;
  const accessTokenExpiresAt = new Date(now.getTime() + rules.ttlSeconds * 1000);
  const authTime = request.authTime ?? request.answeredAt ?? now;
  const common = { clientId: client.id, subscriberId: request.subscriberId, scope: request.scope };
  return {
    access, refresh, familyId, accessTokenExpiresAt,
    rows: {
      accessToken: { ...common, tokenHash: access.hash, familyId, acr: request.acr, authTime, expiresAt: accessTokenExpiresAt,
        dpopJkt, amr: request.amr ?? null },
      refreshToken: refresh && { ...common, tokenHash: refresh.hash, familyId: familyId!, acr: request.acr,
        amr: request.amr ?? "", authTime, expiresAt: new Date(now.getTime() + config().REFRESH_TOKEN_TTL * 1000),
        dpopJkt: client.isPublic ? dpopJkt : undefined },
      audit: auditEventRow({ type: "token_issued", outcome: "success", subscriberId: request.subscriberId,
        clientId: client.id, at: now, detail: { grant: "ciba", mode, scope: request.scope, refresh_token: Boolean(refresh) } }),
    },
  };
}

/**
 * The id_token of a backchannel request, as the code flow's (pairwise sub, acr, amr, auth_time, at_hash,
 * hashed_login_hint of the hint as the client sent it), without nonce or sid (CIBA has neither); a pushed one also
 * names its request (`authReqId`: urn:openid:params:jwt:claim:auth_req_id, CIBA Core §10.3.1) and, when a refresh
 * token is pushed with it (`refreshToken`), carries its urn:openid:params:jwt:claim:rt_hash (§10.3.1).
 */
export function backchannelIdToken({ client, request, accessToken, now, authReqId, refreshToken }: {
  client: Pick<RegisteredClient, "id" | "sectorIdentifier">; request: BackchannelRequestRow; accessToken: string;
  now: Date; authReqId?: string; refreshToken?: string;
}): Promise<string> | undefined {
  if (!parseScope(request.scope).includes("openid")) return undefined;
  return signIdToken({ client, subscriberId: request.subscriberId, accessToken, acr: request.acr,
    amr: parseScope(request.amr ?? ""), authTime: request.authTime ?? request.answeredAt ?? now,
    hashedLoginHint: request.loginHint, iat: Math.floor(now.getTime() / 1000), ...(authReqId ? { authReqId } : {}),
    ...(authReqId && refreshToken ? { refreshToken } : {}) });
}
