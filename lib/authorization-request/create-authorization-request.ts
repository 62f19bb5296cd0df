import type { Prisma } from "@prisma/client";
import { config } from "../config";
import { db } from "../db";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { newRequestId } from "./request-id";

/**
 * Stores a validated request for the interaction screens, bound to the browser that made it and
 * expiring after AUTH_REQUEST_TTL: `pending` (sign-in needed), or `authenticated` with the
 * browser's session when only consent is missing. Returns its id (request-id.ts). A `prompt=mobile`
 * request is stored with its handset request (`tx`, `id` and `expiresAt` chosen with it, and the
 * subscriber it can be delivered to).
 */
export async function createAuthorizationRequest({ params, browserIdHash, session, id = newRequestId(),
  subscriberId, expiresAt = new Date(Date.now() + config().AUTH_REQUEST_TTL * 1000), tx = db }: {
  params: AuthorizationParams; browserIdHash: string; session?: { id: string; subscriberId: string };
  id?: string; subscriberId?: string | null; expiresAt?: Date; tx?: Prisma.TransactionClient;
}): Promise<string> {
  await tx.authorizationRequest.create({
    data: {
      id, clientId: params.clientId, params: JSON.stringify(params), browserIdHash, expiresAt,
      ...(subscriberId !== undefined ? { subscriberId } : {}),
      ...(session ? { status: "authenticated", sessionId: session.id, subscriberId: session.subscriberId } : {}),
    },
    select: { id: true },
  });
  return id;
}
