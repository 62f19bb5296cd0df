import type { RegisteredClient } from "../../clients/get-client";
import { db } from "../../db";
import { browserIdHash, newBrowserCookie } from "../../sessions/browser-cookie";
import { AccountSelectionRequired, ConsentRequired, LoginRequired } from "../errors";
import type { RequestState } from "./choose-session";
import { createAuthorizationRequest, interactionUrl } from "./create-authorization-request";
import { decideNextStep, type NextStep } from "./decide-next-step";
import { issueCode } from "./issue-code";
import { redirectToClient, type RedirectTarget } from "./redirect-to-client";
import type { AuthorizationParams } from "./types";

/**
 * Answers a valid request: the code when the browser's session and remembered consent suffice,
 * otherwise the interaction screen (creating the stored request the first time), or with
 * `prompt=none` the OIDC Core §3.1.2.6 error at once (no screen may be shown).
 *
 * The stored status tells the screens what to show (types.ts lifecycle): `pending` -> sign-in or
 * account selection; `authenticated` (with the session that will answer) -> consent.
 */
export async function continueAuthorization({ params, client, browserId, request, target }: {
  params: AuthorizationParams; client: RegisteredClient; browserId: string | null; request?: RequestState;
  target: RedirectTarget;
}): Promise<Response> {
  const hash = browserId ? browserIdHash(browserId) : null;
  const next = await decideNextStep({ params, browserIdHash: hash, request });
  if (next.step === "issue") {
    const code = await issueCode({ params, client, session: next.session, requestId: request?.id });
    return redirectToClient(target, { code });
  }
  if (params.prompt.includes("none")) throw promptNoneError(next);
  const session = next.step === "consent" ? next.session : undefined;
  if (request) {
    await moveTo(request, session);
    return toInteraction(request.id, target);
  }
  const cookie = hash ? null : newBrowserCookie();
  const id = await createAuthorizationRequest({
    params, browserIdHash: hash ?? browserIdHash(cookie!.browserId), session,
  });
  const res = toInteraction(id, target);
  if (cookie) res.headers.append("Set-Cookie", cookie.setCookie);
  return res;
}

function promptNoneError(next: Exclude<NextStep, { step: "issue" }>) {
  if (next.step === "consent") return new ConsentRequired("Consent is required and prompt=none forbids asking for it");
  if (next.step === "select_account") return new AccountSelectionRequired("Account selection is required");
  return new LoginRequired("The subscriber must sign in and prompt=none forbids it");
}

function toInteraction(id: string, target: RedirectTarget): Response {
  return new Response(null, {
    status: target.status,
    headers: { Location: interactionUrl(id), "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}

/**
 * Aligns a stored request with the decision (no write when it already matches): consent for a
 * session -> `authenticated` with it; sign-in or selection -> back to `pending` (the attached
 * session ended, expired or is below the level: sign in again).
 */
async function moveTo(request: RequestState, session: { id: string; subscriberId: string } | undefined) {
  if (session) {
    if (request.status === "authenticated" && request.sessionId === session.id) return;
    await db.authorizationRequest.updateMany({
      where: { id: request.id, status: { in: ["pending", "authenticated", "consented"] } },
      data: { status: "authenticated", sessionId: session.id, subscriberId: session.subscriberId },
    });
  } else if (request.status !== "pending") {
    await db.authorizationRequest.updateMany({
      where: { id: request.id, status: { in: ["authenticated", "consented"] } },
      data: { status: "pending", sessionId: null, subscriberId: null },
    });
  }
}
