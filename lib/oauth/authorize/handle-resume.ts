import { AccessDenied } from "../errors";
import { continueAuthorization } from "./continue-authorization";
import { loadBoundRequest } from "./load-bound-request";
import { runAuthorizeStep } from "./respond-with-error";

/**
 * GET /authorize/resume/{id}: where the screens send the browser after each step. Decides what is
 * next with the same rules as /authorize (another screen, the error redirect, or the code).
 * Unknown ids, another browser's request and finished requests get the error page
 * (loadBoundRequest); an expired or denied one is answered to the client with `access_denied`.
 */
export function handleResume(req: Request, { id }: { id: string }): Promise<Response> {
  return runAuthorizeStep(req, async (ctx) => {
    const { row, params, client, browserId } = await loadBoundRequest({ req, id, ctx });
    if (row.status === "denied") throw new AccessDenied("User denied the request");
    if (row.expiresAt.getTime() <= Date.now()) throw new AccessDenied("The authorization request expired");
    return continueAuthorization({ params, client, browserId, request: row, target: ctx.target! });
  });
}
