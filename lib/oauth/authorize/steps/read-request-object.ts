import { need, type AuthorizeStep } from "../authorize-state";
import { resolveRequestObject } from "../resolve-request-object";

/**
 * A signed request object (RFC 9101) or a pushed request (RFC 9126): its parameters replace the
 * query's (resolve-request-object.ts; refusals on our page). Nothing to do, and no I/O, without
 * `request` or `request_uri`.
 */
export const readRequestObject: AuthorizeStep = async (state) => {
  const raw = need(state.raw, "raw");
  if (!raw.has("request") && !raw.has("request_uri")) return;
  const resolved = await resolveRequestObject(raw);
  if (!resolved) return;
  state.raw = resolved.raw;
  state.requestSource = { pushed: resolved.pushed, signed: resolved.signed };
  if (resolved.authenticated) state.clientAuthenticated = true;
};
