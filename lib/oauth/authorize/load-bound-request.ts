import { getClient, type RegisteredClient } from "../../clients/get-client";
import { loadAuthorizationRequest } from "../../authorization-request/load-authorization-request";
import { readBrowserId } from "../../sessions/browser-cookie";
import { AuthorizePageError } from "../errors";
import { alreadyCompleted } from "./issue-code";
import type { StepContext } from "./respond-with-error";

export const UNKNOWN_REQUEST =
  "This sign-in request is unknown, belongs to another browser or has expired. Return to the application and start again.";

/**
 * The stored request `id` for /authorize/resume/{id} and /authorize/wait/{id}
 * (lib/authorization-request: only for the browser it was bound to), not yet completed, whose client
 * and redirect URI are still registered. Everything else is our error page; a denied or expired
 * request is returned (the caller answers the client). Once this returns, `ctx.target` is set so
 * later errors go to the client.
 */
export async function loadBoundRequest({ req, id, ctx }: { req: Request; id: string; ctx: StepContext }) {
  const browserId = readBrowserId(req.headers.get("cookie"));
  const loaded = await loadAuthorizationRequest({ id, browserId });
  if (loaded.kind === "completed") throw alreadyCompleted();
  if (loaded.kind !== "ok" && loaded.kind !== "expired") throw new AuthorizePageError("invalid_request", UNKNOWN_REQUEST);
  const { request: row, params } = loaded;
  const client: RegisteredClient | null = await getClient({ clientId: params.clientId });
  if (!client?.active || !client.redirectUris.includes(params.redirectUri)) {
    throw new AuthorizePageError("invalid_request", "The application is no longer available.");
  }
  ctx.target = { redirectUri: params.redirectUri, state: params.state, status: 302 };
  return { row, params, client, browserId: browserId! };
}
