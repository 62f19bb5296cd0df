import { issuerBase } from "../../../http/issuer-base";
import { readBrowserId } from "../../../sessions/browser-cookie";
import { PATHS } from "../../discovery";
import { need, type AuthorizeStep } from "../authorize-state";

/**
 * The browser cookie. A cross-site form POST does not carry our SameSite=Lax cookie: it is re-issued
 * as a top-level GET (which does) rather than mistaking the browser for a new one and orphaning its
 * sessions.
 */
export const readBrowser: AuthorizeStep = (state) => {
  state.browserId = readBrowserId(state.req.headers.get("cookie"));
  if (state.req.method === "POST" && !state.browserId) return asGet(need(state.pairs, "pairs"));
};

function asGet(pairs: Array<[string, string]>): Response {
  const url = `${issuerBase()}${PATHS.authorization}?${new URLSearchParams(pairs)}`;
  return new Response(null, { status: 303, headers: { Location: url, "Cache-Control": "no-store" } });
}
