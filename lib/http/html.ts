/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The shell of every page built outside React (error, logout, waiting, unavailable, device and WAP
 * pages): doctype, language, UTF-8, the mobile viewport and the title (escaped), then `head` (more
 * meta or style elements) and `body`, both markup whose values the caller has escaped.
 */
export function htmlDocument({ lang = "en", title, head = "", body }: {
  lang?: string; title: string; head?: string; body: string;
}): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">`
    + `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>${head}`
    + `</head><body>${body}</body></html>`;
}

/**
 * Headers of every page this service renders outside the React screens: never cached (it may
 * describe a user's request), never framed (RFC 9700 §4.15, clickjacking), no referrer leak of the
 * request URL, no script at all.
 */
/** The policy of a page without script: inline styles only, no framing, no base, no forms. */
export const STATIC_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  Pragma: "no-cache",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": STATIC_PAGE_CSP,
};

/**
 * A small self-contained error page (every value escaped). Used where an error must not be sent to
 * the client's redirect URI: unknown client, unregistered redirect URI (RFC 6749 §4.1.2.1). The
 * subscriber reads `title`, `message` and `hint` in plain words (in `lang`); the developer finds the
 * error code, its technical `description` and the reference in a details section below.
 */
export function htmlErrorPage({ status = 400, lang = "en", title, message, hint, description, error, requestId,
  labels = { details: "Details", errorCode: "Error code", reference: "Reference" } }: {
  status?: number; lang?: string; title: string; message: string; hint?: string; description?: string;
  error?: string; requestId?: string; labels?: { details: string; errorCode: string; reference: string };
}): Response {
  const detail = [error && `${labels.errorCode}: ${error}`, description, requestId && `${labels.reference}: ${requestId}`]
    .filter(Boolean) as string[];
  const body = htmlDocument({ lang, title,
    head: `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}h2{font-size:.9rem;color:#555;margin-top:2rem}p.detail{color:#595959;font-size:.85rem}</style>`,
    body: `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p>${escapeHtml(hint ?? "Return to the application you came from and try again.")}</p>
${detail.length ? `<section aria-labelledby="details"><h2 id="details">${escapeHtml(labels.details)}</h2>
${detail.map((d) => `<p class="detail">${escapeHtml(d)}</p>`).join("\n")}</section>` : ""}</main>` });
  return new Response(body, { status, headers: PAGE_HEADERS });
}
