import { getClient, type RegisteredClient } from "../../clients/get-client";
import { config } from "../../config";
import { authenticateClient } from "../../http/client-auth";
import { bodyParams } from "../../http/params";
import { json } from "../../http/respond";
import { pairwiseSubject } from "../../subjects/pairwise-subject";
import { findClientAccessToken } from "../../tokens/client-access-tokens";
import { findAnyToken, type FoundToken } from "../../tokens/find-any-token";
import { isSubscriberActive } from "../../tokens/is-subscriber-active";
import { isAccessTokenActive, isRefreshTokenActive } from "../../tokens/is-token-active";
import { InvalidToken } from "../errors";
import { bearerChallenge } from "../resource/bearer-challenge";
import { authorizationToken } from "../resource/read-bearer-token";
import { requiredParam } from "./required-param";
import { PATHS } from "../../http/endpoints";
import { checkDpopProof } from "../dpop/check-dpop-proof";
import { invalidDpopProof } from "../dpop/dpop-errors";

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * POST {introspection_endpoint} - RFC 7662. Any client the operator registered may introspect access tokens
 * (a resource server holding client credentials checks tokens issued to the relying parties it
 * serves); refresh tokens only by the client they were issued to. A dynamically registered client (anyone, when
 * registration is open) is no resource server of ours: it is told only about tokens issued to itself, and so is a
 * public client (anyone can name its client_id). Anything
 * not usable right now, or not the caller's to read, is `{"active":false}` and nothing more (§2.2). A
 * client_credentials token is described without `sub`; the caller may instead present one with the
 * `introspection` scope as a bearer token (docs/grants.md).
 */
export async function handleIntrospection(req: Request): Promise<Response> {
  const params = await bodyParams(req);
  const presented = authorizationToken(req.headers.get("authorization"));
  const caller = presented && presented !== "malformed"
    ? await bearerCaller(req.headers, presented.token, presented.scheme === "dpop")
    : await authenticateClient({ headers: req.headers, params, endpoint: "introspection" });
  const callerId = caller.id;
  // The caller's record is cached (get-client.ts): no statement added. null: any client's access tokens.
  // A public client proves nothing but its (public) client_id: it too is told only about its own tokens.
  const onlyOf = caller.registeredBy === "dynamic" || caller.isPublic ? caller.id : null;
  const token = requiredParam(params, "token");
  const found = await findAnyToken({ token, hint: params.get("token_type_hint") });
  // A client_credentials token (its own table) is looked for last: the two reads above are unchanged.
  const body = found
    ? await activeTokenClaims({ found, callerId, onlyOf })
    : await activeClientTokenClaims(token, onlyOf);
  return json(body ?? { active: false }, { noStore: true });
}

/**
 * RFC 7662 §2.1 allows "a separate OAuth 2.0 access token" instead of client authentication: a client_credentials
 * token with the `introspection` scope (docs/grants.md). Anything else is 401 `invalid_token` (§2.3). A DPoP-bound
 * one comes with the `DPoP` scheme and a proof of its key (RFC 9449 §7), as at the resource endpoints.
 */
async function bearerCaller(headers: Headers, value: string, dpopScheme: boolean): Promise<RegisteredClient> {
  const row = await findClientAccessToken({ token: value });
  const owner = row && isAccessTokenActive(row) ? await getClient({ clientId: row.clientId }) : null;
  const refuse = (description: string) => {
    const err = new InvalidToken(description);
    err.headers["WWW-Authenticate"] = bearerChallenge(err, "introspection");
    return err;
  };
  if (!row || !owner?.active) throw refuse("The access token is invalid, expired or revoked");
  if (!row.scope.split(" ").includes("introspection")) throw refuse("The access token lacks the introspection scope");
  if (row.dpopJkt || dpopScheme) {
    if (!row.dpopJkt) throw refuse("The access token is not DPoP-bound: present it with the Bearer scheme");
    if (!dpopScheme) throw refuse("The access token is DPoP-bound: present it with the DPoP scheme and a proof");
    const proof = await checkDpopProof(headers, { method: "POST", path: PATHS.introspection, place: "resource",
      accessToken: value, requireNonce: false });
    if (!proof) throw invalidDpopProof("a DPoP proof is required with a DPoP-bound token", "resource");
    if (proof.jkt !== row.dpopJkt) throw invalidDpopProof("the DPoP proof's key is not the one the token is bound to", "resource");
  }
  return owner;
}

/** RFC 7662 §2.2 for a client_credentials token: no `sub`, it names no subscriber. */
async function activeClientTokenClaims(token: string, onlyOf: string | null) {
  const row = await findClientAccessToken({ token });
  if (!row || !isAccessTokenActive(row) || (onlyOf !== null && row.clientId !== onlyOf)) return null;
  if (!(await getClient({ clientId: row.clientId }))?.active) return null;
  return { active: true, scope: row.scope, client_id: row.clientId, exp: seconds(row.expiresAt), iat: seconds(row.createdAt),
    iss: config().ISSUER, token_type: row.dpopJkt ? "DPoP" : "bearer", ...(row.dpopJkt ? { cnf: { jkt: row.dpopJkt } } : {}) };
}

async function activeTokenClaims({ found, callerId, onlyOf }: {
  found: FoundToken; callerId: string; onlyOf: string | null;
}) {
  if (onlyOf !== null && found.row.clientId !== onlyOf) return null;
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
