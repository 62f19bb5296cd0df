import { escapeHtml, htmlDocument, PAGE_HEADERS } from "./html";
import { ifDatabaseUnavailable } from "./if-database-unavailable";
import { RETRY_AFTER_SECONDS } from "./is-database-unavailable";

/** The screens a retry link may lead back to (same origin, no query: nothing reflected but a path). */
const RETRY_PATH = /^\/(interaction|handset)(\/[A-Za-z0-9_-]{1,64}){0,2}$/;

/**
 * The screens' answer while the database is unavailable: 503 with `Retry-After` (RFC 9110 §15.6.4)
 * and a plain page asking the subscriber to try again. With a `retryPath` (one of our screens) the
 * page links back to it and reloads it by itself after Retry-After seconds (no script needed).
 */
export function unavailablePage({ requestId, retryPath }: { requestId?: string; retryPath?: string } = {}): Response {
  const href = retryPath && RETRY_PATH.test(retryPath) ? escapeHtml(retryPath) : undefined;
  const body = htmlDocument({ title: "Service temporarily unavailable",
    head: `${href ? `<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS};url=${href}">` : ""}
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}p.detail{color:#595959;font-size:.85rem}</style>`,
    body: `<main><h1>Service temporarily unavailable</h1>
<p role="alert">The service is temporarily unavailable. Please wait a few seconds and try again.</p>
${href ? `<p><a href="${href}">Try again</a></p>` : "<p>Return to the application you came from and try again.</p>"}
<p class="detail">Error: temporarily_unavailable${requestId ? ` · Reference: ${escapeHtml(requestId)}` : ""}</p>
</main>` });
  return new Response(body, { status: 503, headers: { ...PAGE_HEADERS, "Retry-After": String(RETRY_AFTER_SECONDS) } });
}

/**
 * Wraps an HTML route handler (forms, device pages, playground): a database outage becomes the
 * 503 page above; any other error propagates unchanged (Next answers a bare 500, no stack trace).
 */
export function htmlRoute<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>) {
  return async (req: Request, ...rest: A): Promise<Response> => {
    try {
      return await handler(req, ...rest);
    } catch (err) {
      const page = ifDatabaseUnavailable(err, () => unavailablePage());
      if (!page) throw err;
      return page;
    }
  };
}
