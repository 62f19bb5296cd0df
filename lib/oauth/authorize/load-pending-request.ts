import type { AuthorizationRequest } from "@prisma/client";
import { db } from "../../db";
import { safeEqual } from "../../crypto";
import { browserIdHash } from "../../sessions/browser-cookie";
import type { LiveSession } from "../../sessions/find-live-sessions";
import { decideNextStep } from "./decide-next-step";
import { REQUEST_ID_PATTERN } from "./load-bound-request";
import type { AuthorizationParams } from "./types";

export interface PendingRequest {
  /** The row (status, subscriberId, sessionId, the OTP fields the screens manage, expiresAt). */
  request: AuthorizationRequest;
  params: AuthorizationParams;
  /**
   * The screen to show: `login` (sign in; a hint may name the subscriber), `select_account`
   * (listBrowserSessions), `consent` (for `session`'s subscriber), or `resume` (nothing left to ask:
   * send the browser to /authorize/resume/{id}).
   */
  next: "login" | "select_account" | "consent" | "resume";
  /** The session that will answer the request once consent is given (next = consent). */
  session?: LiveSession;
}

/**
 * The stored request an interaction screen works on, or null when it cannot be continued in this
 * browser: unknown id, bound to another browser cookie, expired, completed or denied. Screens show
 * a generic error for null (never which case it was).
 */
export async function loadPendingRequest({ id, browserId }: { id: string; browserId: string | null }):
  Promise<PendingRequest | null> {
  if (!browserId || !REQUEST_ID_PATTERN.test(id)) return null;
  return pendingFromRow(await db.authorizationRequest.findUnique({ where: { id } }), browserId);
}

/** loadPendingRequest's checks on a row the caller has already read (the WAP screen reads it first). */
export async function pendingFromRow(request: AuthorizationRequest | null, browserId: string):
  Promise<PendingRequest | null> {
  const hash = browserIdHash(browserId);
  if (!request || !safeEqual(request.browserIdHash, hash)) return null;
  if (!["pending", "authenticated", "consented"].includes(request.status)) return null;
  if (request.expiresAt.getTime() <= Date.now()) return null;
  const params = JSON.parse(request.params) as AuthorizationParams;
  const next = await decideNextStep({ params, browserIdHash: hash, request });
  if (next.step === "issue") return { request, params, next: "resume", session: next.session };
  if (next.step === "consent") return { request, params, next: "consent", session: next.session };
  return { request, params, next: next.step };
}
