import type { AuthorizationRequest } from "./authorization-request-row";
import { db } from "../db";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { isRequestId } from "./request-id";
import { isRequestExpired, isRequestOfBrowser } from "./request-standing";

/**
 * What a stored request is for the browser asking: `ok` (open, or denied: the caller decides what a
 * denial means for it), `expired` (past its expiry, the row still given: the endpoint answers the
 * client with access_denied), or a failure without the row (`not_found`, `wrong_browser`, `completed`).
 */
export type LoadedAuthorizationRequest =
  | { kind: "ok" | "expired"; request: AuthorizationRequest; params: AuthorizationParams }
  | { kind: "not_found" | "wrong_browser" | "completed" };

/**
 * The one loader of the AuthorizationRequest row behind `/interaction/{id}`, `/authorize/resume/{id}`
 * and `/authorize/wait/{id}`, only for the browser that started it (SHA-256 of its cookie = the row's
 * `browserIdHash`: CSRF and session-fixation defence). One query; an id of any other shape is not
 * looked up. Each caller maps the failure kinds to its own answer (error page, generic screen).
 */
export async function loadAuthorizationRequest({ id, browserId, now = Date.now() }: {
  id: string; browserId: string | null; now?: number;
}): Promise<LoadedAuthorizationRequest> {
  if (!isRequestId(id)) return { kind: "not_found" };
  const request = await db.authorizationRequest.findUnique({ where: { id } });
  if (!request) return { kind: "not_found" };
  if (!isRequestOfBrowser(request, browserId)) return { kind: "wrong_browser" };
  if (request.status === "completed") return { kind: "completed" };
  const params = JSON.parse(request.params) as AuthorizationParams;
  if (isRequestExpired(request, now)) return { kind: "expired", request, params };
  return { kind: "ok", request, params };
}
