import type { AuthorizeState, AuthorizeStep, Entry } from "./authorize-state";
import { runAuthorizeStep } from "./respond-with-error";
import { appendHeader } from "../../http/text-body-response";
import { authenticateClient } from "./steps/authenticate-client";
import { authenticateByNetwork } from "./steps/authenticate-by-network";
import { awaitHandset } from "./steps/await-handset";
import { checkClient } from "./steps/check-client";
import { decide } from "./steps/decide";
import { enforceRequestRules } from "./steps/enforce-request-rules";
import { findHandset } from "./steps/find-handset";
import { issue } from "./steps/issue";
import { loadStored } from "./steps/load-stored";
import { readBrowser } from "./steps/read-browser";
import { readParameters } from "./steps/read-parameters";
import { readRequestObject } from "./steps/read-request-object";
import { refuseDenied } from "./steps/refuse-denied";
import { refuseExpired } from "./steps/refuse-expired";
import { refusePromptNone } from "./steps/refuse-prompt-none";
import { resolveRequestHints } from "./steps/resolve-request-hints";
import { showInteraction } from "./steps/show-interaction";
import { startOutOfBand } from "./steps/start-out-of-band";
import { validate } from "./steps/validate";

const A: Entry = "authorize";
const R: Entry = "resume";
const W: Entry = "wait";

/**
 * The authorization pipeline, in order (node-oidc-provider's lib/actions/authorization/index.js is
 * the model): each step with the entry points that run it. A new step (a signed request object, a
 * pushed request) is one line here and one file in steps/. Errors before `ctx.target` is set (client
 * and redirect URI verified) are our error page, after it redirects to the client (runAuthorizeStep).
 */
const STEPS: ReadonlyArray<readonly [AuthorizeStep, ...Entry[]]> = [
  [readParameters, A], //          the query or form body, duplicates and lengths refused (error page)
  [loadStored, R, W], //           the stored request for this browser, its client still registered
  [readBrowser, A], //             the browser cookie; a cross-site POST without it is re-issued as a GET
  //                               (before a one-use request object or pushed request_uri is spent)
  [readRequestObject, A], //       request / request_uri (RFC 9101) or a pushed request (RFC 9126) (error page)
  [checkClient, A], //             client_id and the exact redirect_uri (error page until both hold)
  [enforceRequestRules, A], //     the client's "PAR required" and "signed request object required"
  [authenticateClient, A], //      the optional Basic header
  [validate, A], //                every parameter (errors redirected with state and iss from here on)
  [resolveRequestHints, A], //     login_hint, login_hint_token, id_token_hint
  [findHandset, W], //            the handset request a prompt=mobile wait holds on
  [refuseDenied, R, W], //         refused on the screens or the handset: access_denied
  [refuseExpired, R], //           past its expiry: access_denied
  [startOutOfBand, A], //          prompt=mobile: the handset request and the waiting page
  [awaitHandset, W], //            the handset's answer (or the waiting page again)
  [decide, A, R], //               session, prompt and consent: what is still missing
  [authenticateByNetwork, A], //   no session: silent sign-in by the network (nba); Number Verification: always
  [refusePromptNone, A, R], //     prompt=none with something missing: the OIDC Core §3.1.2.6 error
  [showInteraction, A, R], //      something missing: the interaction screen (storing the request)
  [issue, A, R, W], //             the code, to the redirect URI
];

const BY_ENTRY = new Map<Entry, AuthorizeStep[]>(([A, R, W] as const).map((entry) =>
  [entry, STEPS.filter(([, ...entries]) => entries.includes(entry)).map(([step]) => step)]));

/** The names of `entry`'s steps, in order (what pipeline.test.ts pins down). */
export function stepsOf(entry: Entry): string[] {
  return BY_ENTRY.get(entry)!.map((step) => step.name);
}

/** Runs `entry`'s steps in order until one answers, inside the one error boundary (runAuthorizeStep). */
export function runPipeline(entry: Entry, req: Request, id?: string): Promise<Response> {
  return runAuthorizeStep(req, async (ctx) => {
    const state: AuthorizeState = { entry, req, ctx, id };
    for (const step of BY_ENTRY.get(entry)!) {
      // A synchronous step's result is used as it is (no turn of the microtask queue per step).
      const result = step(state);
      const answer = result instanceof Promise ? await result : result;
      if (answer) {
        for (const cookie of state.setCookies ?? []) appendHeader(answer, "Set-Cookie", cookie);
        return answer;
      }
    }
    throw new Error(`authorization pipeline: no step answered ${entry}`);
  });
}
