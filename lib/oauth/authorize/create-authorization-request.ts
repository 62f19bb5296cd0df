import { config } from "../../config";
import { db } from "../../db";
import { issuerBase } from "../../http/issuer-base";
import { randomToken } from "../../crypto";
import type { AuthorizationParams } from "./types";

/**
 * Stores a validated request for the interaction screens, bound to the browser that made it and
 * expiring after AUTH_REQUEST_TTL: `pending` (sign-in needed), or `authenticated` with the
 * browser's session when only consent is missing. The id (128 random bits) is the only thing the
 * interaction URL carries.
 */
export async function createAuthorizationRequest({ params, browserIdHash, session }: {
  params: AuthorizationParams; browserIdHash: string; session?: { id: string; subscriberId: string };
}): Promise<string> {
  const id = randomToken(16);
  await db.authorizationRequest.create({
    data: {
      id, clientId: params.clientId, params: JSON.stringify(params), browserIdHash,
      expiresAt: new Date(Date.now() + config().AUTH_REQUEST_TTL * 1000),
      ...(session ? { status: "authenticated", sessionId: session.id, subscriberId: session.subscriberId } : {}),
    },
    select: { id: true },
  });
  return id;
}

/** The interaction screen of a stored request (OIDC Core §3.1.2.3: the OP's own UI). */
export function interactionUrl(id: string): string {
  return `${issuerBase()}/interaction/${id}`;
}
