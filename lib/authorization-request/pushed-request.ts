import { db } from "../db";
import { randomToken, sha256 } from "../crypto";

/** The `request_uri` prefix of a pushed authorization request (RFC 9126 §2.2). */
export const PUSHED_REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

/** How long a pushed request may be used at the authorization endpoint (RFC 9126 §2.2 `expires_in`). */
export const PUSHED_REQUEST_TTL_SECONDS = 60;

/** What a pushed request keeps: the authorization request's effective parameters and how they arrived. */
export interface PushedRequest {
  /** Name/value pairs of the authorization request (from the body, or from its verified request object). */
  pairs: Array<[string, string]>;
  /** The parameters came from a verified request object (RFC 9101). */
  signed: boolean;
  /** The client authenticated when it pushed them (a secret or its keys; not a public client). */
  authenticated: boolean;
}

/**
 * Stores a validated pushed authorization request (RFC 9126 §2.2) and returns its one-use `request_uri`:
 * 256 random bits, kept as their SHA-256 only, usable for PUSHED_REQUEST_TTL_SECONDS.
 */
export async function storePushedRequest({ clientId, request, now = new Date() }: {
  clientId: string; request: PushedRequest; now?: Date;
}): Promise<{ requestUri: string; expiresIn: number }> {
  const random = randomToken(32);
  await db.pushedAuthorizationRequest.create({
    data: {
      uriHash: sha256(random), clientId, params: JSON.stringify(request),
      expiresAt: new Date(now.getTime() + PUSHED_REQUEST_TTL_SECONDS * 1000),
    },
  });
  return { requestUri: `${PUSHED_REQUEST_URI_PREFIX}${random}`, expiresIn: PUSHED_REQUEST_TTL_SECONDS };
}

/**
 * Uses a pushed request once (RFC 9126 §4: "one-time use"): one conditional UPDATE marks it used only
 * if it is this client's, not used yet and not expired, so of fifty parallel uses exactly one gets it.
 * Returns null for an unknown, another client's, used or expired request_uri (the caller's
 * `invalid_request_uri`); the row itself is purged later (lib/maintenance/purge-expired.ts).
 */
export async function consumePushedRequest({ requestUri, clientId, now = new Date() }: {
  requestUri: string; clientId: string; now?: Date;
}): Promise<PushedRequest | null> {
  if (!requestUri.startsWith(PUSHED_REQUEST_URI_PREFIX)) return null;
  const uriHash = sha256(requestUri.slice(PUSHED_REQUEST_URI_PREFIX.length));
  const { count } = await db.pushedAuthorizationRequest.updateMany({
    where: { uriHash, clientId, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (count !== 1) return null;
  const row = await db.pushedAuthorizationRequest.findUnique({ where: { uriHash }, select: { params: true } });
  return row ? (JSON.parse(row.params) as PushedRequest) : null;
}
