import type { RegisteredClient } from "../../clients/get-client";
import { completeAuthorizationRequest } from "../../authorization-request/complete-authorization-request";
import { config } from "../../config";
import { randomToken, sha256 } from "../../crypto";
import type { LiveSession } from "../../sessions/live-session";
import { storeAuthorizationCode, type AuthorizationCodeRecord } from "../../tokens/store-authorization-code";
import { AuthorizePageError } from "../errors";
import type { AuthorizationParams } from "./types";

/**
 * Issues the one-use authorization code (RFC 6749 §4.1.2): 256 random bits, stored only as its
 * SHA-256 with every binding the token endpoint checks, valid CODE_TTL seconds.
 *
 * Written through the hot-path store (lib/store) either way. From a stored request, one transaction also
 * completes the request, so it never yields a second code, and records the PCR
 * (lib/authorization-request/complete-authorization-request.ts). The fast path (no stored request:
 * a session and remembered consent) is the code's one INSERT: it skips the PCR write, since a
 * remembered grant is only written by consent (recordConsent), which records it.
 */
export async function issueCode({ params, client, session, requestId }: {
  params: AuthorizationParams; client: RegisteredClient; session: LiveSession; requestId?: string;
}): Promise<string> {
  const code = randomToken(32);
  const now = Date.now();
  const data: AuthorizationCodeRecord = {
    codeHash: sha256(code),
    clientId: client.id,
    subscriberId: session.subscriberId,
    sessionId: session.id,
    redirectUri: params.redirectUri,
    scope: params.scopes.join(" "),
    nonce: params.nonce ?? null,
    acr: session.acr,
    amr: session.amr,
    authTime: session.authTime,
    codeChallenge: params.codeChallenge ?? null,
    codeChallengeMethod: params.codeChallengeMethod ?? null,
    loginHint: params.loginHint ?? null,
    claimsLocales: params.claimsLocales.length ? params.claimsLocales.join(" ") : null,
    // mc_authz: kept with the code so the id_token records the authorized transaction
    context: params.scopes.includes("mc_authz") ? params.context ?? null : null,
    bindingMessage: params.scopes.includes("mc_authz") ? params.bindingMessage ?? null : null,
    expiresAt: new Date(now + config().CODE_TTL * 1000),
  };
  if (!requestId) {
    await storeAuthorizationCode(data);
    return code;
  }
  const done = await completeAuthorizationRequest({ requestId, code: data, sectorIdentifier: client.sectorIdentifier });
  if (!done) throw alreadyCompleted();
  return code;
}

/** The page shown when a finished request is resumed again. */
export function alreadyCompleted() {
  return new AuthorizePageError("invalid_request",
    "This sign-in request has already been completed. Return to the application and start again.");
}
