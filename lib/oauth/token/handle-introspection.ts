import { getClient } from "../../clients/get-client";
import { config } from "../../config";
import { authenticateClient } from "../../http/client-auth";
import { bodyParams } from "../../http/params";
import { json } from "../../http/respond";
import { pairwiseSubject } from "../../subjects/pairwise-subject";
import { findAnyToken, type FoundToken } from "../../tokens/find-any-token";
import { isSubscriberActive } from "../../tokens/is-subscriber-active";
import { isAccessTokenActive, isRefreshTokenActive } from "../../tokens/is-token-active";
import { requiredParam } from "./required-param";

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * POST {introspection_endpoint} - RFC 7662. Any authenticated client may introspect access tokens
 * (a resource server holding client credentials checks tokens issued to the relying parties it
 * serves); refresh tokens only by the client they were issued to. Anything not usable right now
 * is `{"active":false}` and nothing more (§2.2).
 */
export async function handleIntrospection(req: Request): Promise<Response> {
  const params = await bodyParams(req);
  const client = await authenticateClient({ headers: req.headers, params });
  const token = requiredParam(params, "token");
  const found = await findAnyToken({ token, hint: params.get("token_type_hint") });
  const body = found && (await activeTokenClaims({ found, callerId: client.id }));
  return json(body ?? { active: false }, { noStore: true });
}

async function activeTokenClaims({ found, callerId }: { found: FoundToken; callerId: string }) {
  const now = new Date();
  const usable = found.kind === "access_token"
    ? isAccessTokenActive(found.row, now)
    : isRefreshTokenActive(found.row, now) && found.row.clientId === callerId;
  if (!usable) return null;
  const { row } = found;
  const [owner, subscriberActive] = await Promise.all([
    getClient({ clientId: row.clientId }),
    isSubscriberActive({ subscriberId: row.subscriberId }),
  ]);
  if (!owner?.active || !subscriberActive) return null;
  return {
    active: true,
    scope: row.scope,
    client_id: row.clientId,
    sub: pairwiseSubject({ subscriberId: row.subscriberId, sectorIdentifier: owner.sectorIdentifier }),
    exp: seconds(row.expiresAt),
    iat: seconds(row.createdAt),
    iss: config().ISSUER,
    aud: row.clientId,
    ...(found.kind === "access_token" ? { token_type: row.dpopJkt ? "DPoP" : "bearer" } : {}),
    // RFC 9449 §6.2: the key a DPoP-bound token is bound to.
    ...(row.dpopJkt ? { cnf: { jkt: row.dpopJkt } } : {}),
  };
}
