import type { AuthorizationRequest } from "@prisma/client";
import { db } from "../db";
import { safeEqual } from "../crypto";
import { browserIdHash } from "../sessions/browser-cookie";
import type { AuthorizationParams } from "../oauth/authorize/types";

export type LoadedInteraction =
  | { kind: "ok"; request: AuthorizationRequest; params: AuthorizationParams }
  | { kind: "not_found" | "expired" | "completed" | "wrong_browser" };

const ID = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * The pending authorization request behind `/interaction/{id}`, only for the browser that started it
 * (sha256 of its cookie = the row's `browserIdHash`). One query. A request that is unknown, expired,
 * finished or bound to another browser yields a failure kind (the screens show an error page).
 */
export async function loadInteraction({ id, browserId }: { id: string; browserId: string | null }): Promise<LoadedInteraction> {
  if (!ID.test(id)) return { kind: "not_found" };
  const request = await db.authorizationRequest.findUnique({ where: { id } });
  if (!request) return { kind: "not_found" };
  if (!browserId || !safeEqual(browserIdHash(browserId), request.browserIdHash)) return { kind: "wrong_browser" };
  if (request.status === "completed") return { kind: "completed" };
  if (request.status === "expired" || request.expiresAt.getTime() <= Date.now()) return { kind: "expired" };
  return { kind: "ok", request, params: JSON.parse(request.params) as AuthorizationParams };
}
