import { AccessDenied } from "../../errors";
import { need, type AuthorizeStep } from "../authorize-state";

/** Resume: a stored request past its expiry is answered to the client with access_denied. */
export const refuseExpired: AuthorizeStep = (state) => {
  if (need(state.stored, "stored").expiresAt.getTime() <= Date.now()) {
    throw new AccessDenied("The authorization request expired");
  }
};
