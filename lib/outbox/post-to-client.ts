import { ClientDocumentError, ClientUrlRefusedError, fetchClientDocument } from "../clients/fetch-client-document";
import { describeError, type Outcome } from "./outbox";
import { outboundSpan, tracing } from "../tracing/spans";

/** Time allowed for one POST to a relying party. */
export const POST_TIMEOUT_MS = 5_000;
/** How much of a relying party's answer is read (its body is not used). */
const ANSWER_MAX_BYTES = 16 * 1024;

/** The outcome of an answer with this HTTP status: 2xx delivered; 4xx but 408/429 final; otherwise retried. */
export function byStatus(status: number): Outcome {
  if (status >= 200 && status < 300) return { delivered: true, status };
  const final = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return { delivered: false, final, status, error: `HTTP ${status}` };
}

/**
 * POSTs `body` to a client's endpoint (a back-channel logout URI, a CIBA client notification endpoint): no redirects
 * followed (a 3xx is a failure that is retried), a bounded wait (POST_TIMEOUT_MS), the answer's body not read.
 *
 * Server-side request forgery: a dynamically registered client (or one no longer found: `trusted` false) is POSTed
 * to through fetchClientDocument, which resolves the host at send time, refuses a private, loopback or reserved
 * address (loopback only with ALLOW_LOOPBACK_CLIENT_URLS) and connects to the address it checked; a refused URL is
 * final (given up at once, the reason in `lastError`). A client the operator registered (admin CLI, `trusted`) is
 * trusted with its URI, which may name an internal relying party: it is POSTed to with fetch.
 */
export async function postToClient({ uri, body, contentType, authorization, trusted }: {
  uri: string; body: string; contentType: string; authorization?: string; trusted: boolean;
}): Promise<Outcome> {
  if (!trusted) return postGuarded({ uri, body, contentType, authorization });
  // A CLIENT span (host and path only) under the caller's when traces are on (lib/tracing); the guarded
  // path above gets its span from fetchClientDocument.
  if (!tracing.on) return postTrusted(uri, body, contentType, authorization);
  return outboundSpan("POST", uri, async (span) => {
    const outcome = await postTrusted(uri, body, contentType, authorization);
    if (outcome.status !== undefined) span.setAttribute("http.response.status_code", outcome.status);
    return outcome;
  });
}

async function postTrusted(uri: string, body: string, contentType: string, authorization?: string): Promise<Outcome> {
  try {
    const res = await fetch(uri, {
      method: "POST", redirect: "manual", signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      headers: { "Content-Type": contentType, "Cache-Control": "no-store",
        ...(authorization ? { Authorization: authorization } : {}) },
      body,
    });
    await res.body?.cancel().catch(() => undefined);
    return byStatus(res.status);
  } catch (err) {
    return { delivered: false, final: false, error: describeError(err) };
  }
}

/**
 * The POST for a client that registered itself: the client-URL rules of fetchClientDocument (https, the host
 * resolved now and every address public, the connection pinned to it, no redirects, 5 s, a bounded answer).
 */
async function postGuarded({ uri, body, contentType, authorization }: {
  uri: string; body: string; contentType: string; authorization?: string;
}): Promise<Outcome> {
  try {
    const res = await fetchClientDocument(uri, { method: "POST", body, contentType, authorization,
      timeoutMs: POST_TIMEOUT_MS, maxBytes: ANSWER_MAX_BYTES });
    return byStatus(res.status);
  } catch (err) {
    if (err instanceof ClientUrlRefusedError) {
      return { delivered: false, final: true, error: `refused: ${err.message} (server-side request forgery guard)` };
    }
    // An answer too large to read to its end still carries the relying party's status.
    if (err instanceof ClientDocumentError && err.status !== undefined) return byStatus(err.status);
    return { delivered: false, final: false, error: describeError(err) };
  }
}
