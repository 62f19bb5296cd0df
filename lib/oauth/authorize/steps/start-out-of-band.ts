import { need, type AuthorizeStep } from "../authorize-state";
import { startMobileAuthorization } from "../start-mobile-authorization";

/** `prompt=mobile`: the handset request and the waiting page (start-mobile-authorization.ts). */
export const startOutOfBand: AuthorizeStep = (state) => {
  const params = need(state.params, "params");
  if (!params.prompt.includes("mobile")) return;
  return startMobileAuthorization({ req: state.req, params, client: need(state.client, "client"),
    browserId: need(state.browserId, "browserId") });
};
