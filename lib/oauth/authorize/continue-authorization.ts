import { alignRequestStatus } from "../../authorization-request/align-request-status";
import { createAuthorizationRequest } from "../../authorization-request/create-authorization-request";
import type { RegisteredClient } from "../../clients/get-client";
import { browserIdHash, newBrowserCookie } from "../../sessions/browser-cookie";
import { AccountSelectionRequired, ConsentRequired, LoginRequired } from "../errors";
import type { RequestState } from "./choose-session";
import { decideNextStep, type NextStep } from "./decide-next-step";
import { interactionUrl } from "./interaction-url";
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
    await alignRequestStatus(request, session);
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
