import type { RegisteredClient } from "../../clients/get-client";
import { OPEN_STATUSES } from "../../authorization-request/open-statuses";
import { config } from "../../config";
import { db } from "../../db";
import { getHotStore } from "../../store/get-hot-store";
import { randomToken, sha256 } from "../../crypto";
import type { LiveSession } from "../../sessions/find-live-sessions";
import { pairwiseSubject } from "../../subjects/pairwise-subject";
import { AuthorizePageError } from "./errors";
import type { AuthorizationParams } from "./types";

/**
 * Issues the one-use authorization code (RFC 6749 §4.1.2): 256 random bits, stored only as its
 * SHA-256 with every binding the token endpoint checks, valid CODE_TTL seconds.
 *
 * From a stored request, one transaction also marks the request completed with a conditional
 * update (a double submit or a replayed resume finds it no longer open and gets no second code)
 * and records the PCR so `PCR:` and `id_token_hint` hints resolve later (one INSERT .. ON CONFLICT
 * statement, no read). The fast path (no stored request: a session and remembered consent) skips
 * the PCR write: a remembered grant is only written by consent (recordConsent), which records it;
 * its one INSERT goes through the hot-path store (lib/store), the rest stays on Prisma.
 */
export async function issueCode({ params, client, session, requestId }: {
  params: AuthorizationParams; client: RegisteredClient; session: LiveSession; requestId?: string;
}): Promise<string> {
  const code = randomToken(32);
  const now = Date.now();
  const data = {
    codeHash: sha256(code),
    clientId: client.id,
    subscriberId: session.subscriberId,
    sessionId: session.id,
    redirectUri: params.redirectUri,
    scope: params.scopes.join(" "),
    nonce: params.nonce,
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
    await getHotStore().insertAuthorizationCode(data);
    return code;
  }
  const sectorIdentifier = client.sectorIdentifier;
  const sub = pairwiseSubject({ subscriberId: session.subscriberId, sectorIdentifier });
  await db.$transaction(async (tx) => {
    const done = await tx.authorizationRequest.updateMany({
      where: { id: requestId, status: { in: OPEN_STATUSES } },
      data: { status: "completed", sessionId: session.id, subscriberId: session.subscriberId },
    });
    if (done.count !== 1) throw alreadyCompleted();
    await tx.authorizationCode.create({ data, select: { codeHash: true } });
    // a no-op update keeps Prisma on the native single-statement upsert
    await tx.pairwiseSubject.upsert({
      where: { sub }, create: { sub, subscriberId: session.subscriberId, sectorIdentifier },
      update: { sectorIdentifier }, select: { sub: true },
    });
  });
  return code;
}

/** The page shown when a finished request is resumed again. */
export function alreadyCompleted() {
  return new AuthorizePageError("invalid_request",
    "This sign-in request has already been completed. Return to the application and start again.");
}
