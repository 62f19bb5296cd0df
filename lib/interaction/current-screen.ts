import type { AuthorizationRequest } from "../authorization-request/authorization-request-row";
import { loadAuthorizationRequest } from "../authorization-request/load-authorization-request";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { clientProvenance, type ClientProvenance } from "../clients/client-provenance";
import { getClient } from "../clients/get-client";
import { chooseScreen, type Screen } from "./choose-screen";
import { interactionCsrfToken } from "./interaction-csrf";
import { pendingRequest } from "./pending-request";

export interface CurrentScreen {
  request: AuthorizationRequest;
  params: AuthorizationParams;
  screen: Screen;
  /** The anti-CSRF token of this interaction's forms (interaction-csrf.ts). */
  csrf: string;
  /** A self-registered client's mark (lib/clients/client-provenance.ts), null for the operator's own. */
  mark: ClientProvenance | null;
}

/**
 * Which screen `/interaction/{id}` shows now, for both renderers (app/interaction/[id]/page.tsx
 * and the script-free WAP one, server/wap-screen.tsx): the stored request for this browser
 * (lib/authorization-request), what the authorization endpoint needs next (pending-request.ts) and
 * the screen for it (choose-screen.ts). Null when the request cannot be continued in this browser,
 * or (`display`) is not a request of that display.
 */
export async function currentScreen({ id, browserId, wantsNumber, display }: {
  id: string; browserId: string | null; wantsNumber: boolean; display?: AuthorizationParams["display"];
}): Promise<CurrentScreen | null> {
  const loaded = await loadAuthorizationRequest({ id, browserId });
  if (display && (loaded.kind !== "ok" || loaded.params.display !== display)) return null;
  const pending = browserId ? await pendingRequest(loaded, browserId) : null;
  if (!pending) return null;
  const screen = await chooseScreen({ pending, browserId: browserId!, wantsNumber });
  const csrf = interactionCsrfToken({ id, browserIdHash: pending.request.browserIdHash });
  const client = await getClient({ clientId: pending.params.clientId });
  const mark = client ? clientProvenance(client, pending.params.redirectUri) : null;
  return { request: pending.request, params: pending.params, screen, csrf, mark };
}
