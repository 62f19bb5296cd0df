import { need, type AuthorizeStep } from "../authorize-state";
import { validateAuthorizationParams } from "../validate-params";

/** Every parameter (validate-params.ts); its errors are redirected to the client. */
export const validate: AuthorizeStep = (state) => {
  state.validated = validateAuthorizationParams({ raw: need(state.raw, "raw"), client: need(state.client, "client"),
    now: Date.now() });
};
