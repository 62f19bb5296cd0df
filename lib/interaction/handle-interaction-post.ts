import { clientIp } from "../http/client-ip";
import { bodyParams } from "../http/params";
import { getMessages } from "../i18n/get-messages";
import { readBrowserId } from "../sessions/browser-cookie";
import { checkInteractionCsrfToken } from "./interaction-csrf";
import { isSameOriginPost } from "../http/is-same-origin-post";
import { loadAuthorizationRequest as loadInteraction } from "../authorization-request/load-authorization-request";
import { formPostFailure, renderFailurePage, type FailureKind } from "./render-failure-page";
import { SCREEN_HEADERS, serviceUrl } from "./screen-headers";
import type { StepInput, StepResult } from "./step-result";

const FAILURE: Record<"not_found" | "expired" | "completed" | "wrong_browser", [number, FailureKind]> = {
  not_found: [404, "notFound"], expired: [410, "expired"], completed: [410, "completed"],
  wrong_browser: [403, "wrongBrowser"],
};

/**
 * Turns a screen step into a route handler for `POST /interaction/{id}/<step>`: refuses cross-site
 * posts, parses the form (duplicates refused), loads the request for this browser only, checks the
 * CSRF token in constant time, runs the step and answers 303 See Other (RFC 9110 §15.4.4; RFC 9700
 * §4.12: never 307 after a credential POST), with the renewed browser cookie after a sign-in.
 * Failures are plain error pages, never redirects.
 */
export function interactionPost(step: (input: StepInput) => Promise<StepResult>) {
  return async (req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> => {
    try {
      if (!isSameOriginPost(req)) return renderFailurePage({ status: 403, kind: "forbidden" });
      const { id } = await ctx.params;
      const form = await bodyParams(req, { json: false });
      const browserId = readBrowserId(req.headers.get("cookie"));
      const loaded = await loadInteraction({ id, browserId });
      if (loaded.kind !== "ok") {
        const [status, kind] = FAILURE[loaded.kind];
        return renderFailurePage({ status, kind });
      }
      const messages = getMessages(loaded.params.uiLocales);
      const token = form.get("csrf_token");
      if (!checkInteractionCsrfToken({ id, browserIdHash: loaded.request.browserIdHash, token })) {
        return renderFailurePage({ status: 403, kind: "forbidden", messages });
      }
      return seeOther(id, await step({ ...loaded, browserId: browserId!, form, ip: clientIp(req.headers),
        userAgent: req.headers.get("user-agent") }));
    } catch (err) {
      return formPostFailure(err, "interaction step failed");
    }
  };
}

function seeOther(id: string, result: StepResult): Response {
  let location: string;
  if (result.to === "resume") location = serviceUrl(`/authorize/resume/${id}`);
  else {
    const query = new URLSearchParams();
    if (result.step) query.set("step", result.step);
    if (result.error) query.set("e", result.error);
    // The screen tells the exact time the limit ends (lib/interaction/read-step-notice.ts).
    if (result.retryAfter) query.set("until", String(Math.ceil(Date.now() / 1000) + result.retryAfter));
    // Tries left before a PIN lockout (a count, not personal data; shown only with pin_invalid).
    if (result.error === "pin_invalid" && result.pinTriesLeft) query.set("left", String(result.pinTriesLeft));
    const qs = query.toString();
    location = serviceUrl(`/interaction/${id}${qs ? `?${qs}` : ""}`);
  }
  // Over a sending limit: the screen shows the message; Retry-After (RFC 9110 §10.2.3) says how long.
  const retry: Record<string, string> =
    result.to === "interaction" && result.retryAfter ? { "Retry-After": String(result.retryAfter) } : {};
  const res = new Response(null, { status: 303, headers: { ...SCREEN_HEADERS, ...retry, Location: location } });
  if (result.to === "resume" && result.setCookie) res.headers.append("Set-Cookie", result.setCookie);
  return res;
}
