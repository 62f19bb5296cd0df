import { config } from "../config";
import { clientIp } from "../http/client-ip";
import { escapeHtml, htmlDocument, PAGE_HEADERS } from "../http/html";
import { issuerBase } from "../http/issuer-base";
import type { Messages } from "../i18n/get-messages";
import { requestMessages } from "../i18n/request-language";
import { formatRetry } from "../i18n/format-retry";
import { limitCodeSends } from "../security/limit-code-sends";
import { readBodyText } from "../http/params";
import { isSameOriginPost } from "../http/is-same-origin-post";
import { normaliseMsisdn } from "../interaction/normalise-msisdn";
import { servicePath } from "../interaction/screen-headers";
import { answerDeviceRequest } from "../out-of-band/answer-device-request";
import { answerByLink, checkLinkCode, isLinkToken } from "../ciba/answer-by-link";
import { cookieHeader, DEVICE_COOKIE, ENROL_COOKIE, readCookie } from "./device-cookie";
import { findDevice } from "./find-device";
import { revokeDevice } from "./revoke-device";
import { finishEnrolment } from "./finish-enrolment";
import { startEnrolment } from "./start-enrolment";

/** The handset keeps its device credential for a year (revocable server-side via revokedAt). */
const DEVICE_COOKIE_AGE = 365 * 86_400;

function seeOther(path: string, ...cookies: string[]): Response {
  const headers = new Headers({ Location: `${issuerBase()}${path}`, "Cache-Control": "no-store" });
  for (const c of cookies) headers.append("Set-Cookie", c);
  return new Response(null, { status: 303, headers });
}

/**
 * 429 (RFC 6585 §4) with Retry-After and the exact time to try again: a plain page without a form
 * (none can work before then), since the enrolment forms work without script.
 */
function tooManyCodes(retryAfter: number, t: Messages): Response {
  const retry = formatRetry({ t, retryAt: new Date(Date.now() + retryAfter * 1000) });
  const m = t.handset;
  const body = htmlDocument({ lang: t.lang, title: m.tooManyTitle,
    body: `<main><h1>${escapeHtml(m.tooManyTitle)}</h1><p role="alert">${escapeHtml(m.tooManyText)} ${escapeHtml(retry)}</p>`
      + `<p><a href="${servicePath("/handset/enrol")}">${escapeHtml(m.back)}</a></p></main>` });
  return new Response(body, { status: 429, headers: { ...PAGE_HEADERS, "Retry-After": String(retryAfter) } });
}

async function readForm(req: Request): Promise<URLSearchParams | null> {
  if (!isSameOriginPost(req)) return null;
  if (!(req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return null;
  // Bounded read (lib/http/params.ts): an oversized or endless body is cut off, not buffered.
  const text = await readBodyText(req).catch(() => null);
  return text === null || text.length > 4_096 ? null : new URLSearchParams(text);
}

/**
 * POST /handset/enrol/start (msisdn) and /handset/enrol/confirm (code, name): the handset's
 * enrolment forms; each answers 303 back to a page (POST/redirect/GET, works without script).
 * The cookies are HttpOnly and SameSite=Lax, so a cross-site form cannot carry them; cross-origin
 * POSTs are refused outright.
 */
export async function handleEnrolPost(req: Request, step: "start" | "confirm"): Promise<Response> {
  const form = await readForm(req);
  if (!form) return seeOther("/handset/enrol?error=bad_request");
  if (step === "start") {
    const msisdn = normaliseMsisdn(form.get("msisdn") ?? undefined, { country: config().DEFAULT_COUNTRY });
    if (!msisdn) return seeOther("/handset/enrol?error=msisdn_invalid");
    // The same per-number and per-IP budget as sign-in codes (one SMS budget per number, known or not).
    const verdict = await limitCodeSends({ msisdn, ip: clientIp(req.headers) });
    if (!verdict.allowed) return tooManyCodes(verdict.retryAfter, requestMessages(req).t);
    const id = await startEnrolment({ msisdn, t: requestMessages(req).t });
    return seeOther("/handset/enrol?step=code", cookieHeader(ENROL_COOKIE, id, config().OTP_TTL));
  }
  const enrolmentId = readCookie(req.headers.get("cookie"), ENROL_COOKIE, 22);
  if (!enrolmentId) return seeOther("/handset/enrol?error=code_expired");
  const code = (form.get("code") ?? "").replace(/\s/g, "");
  if (!code) return seeOther("/handset/enrol?step=code&error=code_missing");
  const result = await finishEnrolment({ enrolmentId, code, name: form.get("name") ?? "" });
  if (!result.ok) return seeOther(`/handset/enrol?step=code&error=${result.error}`);
  return seeOther("/handset?result=enrolled",
    cookieHeader(DEVICE_COOKIE, result.secret, DEVICE_COOKIE_AGE), cookieHeader(ENROL_COOKIE, "", 0));
}

/** POST /handset/requests/{id} (decision=approve|reject, check, pin): the subscriber's answer on the handset. */
export async function handleAnswerPost(req: Request, requestId: string): Promise<Response> {
  const form = await readForm(req);
  const decision = form?.get("decision");
  if (!form || (decision !== "approve" && decision !== "reject") || !/^[A-Za-z0-9_-]{22}$/.test(requestId)) {
    return seeOther("/handset?result=bad_request");
  }
  const device = await findDevice({ cookieHeader: req.headers.get("cookie") });
  if (!device) return seeOther("/handset/enrol");
  const result = await answerDeviceRequest({ device, requestId, decision, pin: form.get("pin") ?? undefined,
    checkCode: form.get("check") ?? undefined });
  return seeOther(`/handset?result=${result}`);
}

/**
 * POST /handset/remove: the subscriber removes (revokes) this handset. The credential cookie is
 * deleted too; the revocation is what counts (a copied cookie is refused from now on).
 */
export async function handleRemovePost(req: Request): Promise<Response> {
  const form = await readForm(req);
  if (!form || form.get("confirm") !== "remove") return seeOther("/handset?result=bad_request");
  const device = await findDevice({ cookieHeader: req.headers.get("cookie") });
  if (!device) return seeOther("/handset/enrol");
  await revokeDevice({ deviceId: device.id, subscriberId: device.subscriberId });
  return seeOther("/handset?result=removed", cookieHeader(DEVICE_COOKIE, "", 0));
}

/**
 * The text-message link's proof of the right code (lib/ciba/answer-by-link.ts): HttpOnly, SameSite=Strict, scoped
 * to this link's path, as long as the proof (at most ten minutes, never past the request). Over HTTPS it carries
 * the `__Secure-` prefix (`__Host-` needs Path=/).
 */
const LINK_COOKIE = "op_ciba_link";

function linkCookieName(): string {
  return config().ISSUER.startsWith("https:") ? `__Secure-${LINK_COOKIE}` : LINK_COOKIE;
}

function linkCookie(token: string, value: string, maxAge: number): string {
  const secure = config().ISSUER.startsWith("https:") ? "; Secure" : "";
  return `${linkCookieName()}=${value}; Path=${servicePath(`/handset/approve/${token}`)}; HttpOnly; SameSite=Strict; `
    + `Max-Age=${maxAge}${secure}`;
}

/** The proof cookie's value from a Cookie header, or null (shape checked again by answerByLink). */
export function readLinkProof(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === linkCookieName()) return v.join("=").slice(0, 64);
  }
  return null;
}

/**
 * POST /handset/approve/{token}/code (code): the code of the text message. Right: the proof cookie, then back to
 * the page, which shows the request. Each answer is 303 to the page (POST/redirect/GET, no script needed); the page
 * tells the state (wrong code and tries left, no tries left, expired, answered). Cross-site POSTs are refused.
 */
export async function handleLinkCodePost(req: Request, token: string): Promise<Response> {
  if (!isLinkToken(token)) return seeOther("/handset/approve/invalid");
  const page = `/handset/approve/${token}`;
  const form = await readForm(req);
  if (!form) return seeOther(`${page}?error=bad_request`);
  const checked = await checkLinkCode({ token, code: form.get("code") ?? "" });
  if (checked.result === "ok") return seeOther(page, linkCookie(token, checked.proof, checked.maxAge));
  if (checked.result === "code_missing" || checked.result === "code_invalid") return seeOther(`${page}?error=${checked.result}`);
  return seeOther(page);
}

/** POST /handset/approve/{token}/answer (decision=approve|reject, pin): the answer, after the right code. */
export async function handleLinkAnswerPost(req: Request, token: string): Promise<Response> {
  if (!isLinkToken(token)) return seeOther("/handset/approve/invalid");
  const page = `/handset/approve/${token}`;
  const form = await readForm(req);
  const decision = form?.get("decision");
  if (!form || (decision !== "approve" && decision !== "reject")) return seeOther(`${page}?error=bad_request`);
  const result = await answerByLink({ token, proof: readLinkProof(req.headers.get("cookie")), decision,
    pin: form.get("pin") ?? undefined });
  const done = linkCookie(token, "", 0);
  if (result === "approved" || result === "rejected") return seeOther(page, done);
  if (result === "code_again") return seeOther(`${page}?error=code_again`, done);
  if (result === "pin_missing" || result === "pin_invalid" || result === "locked") return seeOther(`${page}?error=${result}`);
  return seeOther(page, done);
}
