import { config } from "../config";
import { db } from "../db";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { newRequestId } from "./request-id";

/**
 * Stores a validated request for the interaction screens, bound to the browser that made it and
 * expiring after AUTH_REQUEST_TTL: `pending` (sign-in needed), or `authenticated` with the
 * browser's session when only consent is missing. Returns its id (request-id.ts).
 */
export async function createAuthorizationRequest({ params, browserIdHash, session }: {
  params: AuthorizationParams; browserIdHash: string; session?: { id: string; subscriberId: string };
}): Promise<string> {
  const id = newRequestId();
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
