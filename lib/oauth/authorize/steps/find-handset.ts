import { findHandsetRequest } from "../../../out-of-band/find-handset-request";
import { need, type AuthorizeStep } from "../authorize-state";
import { AuthorizePageError } from "../../errors";
import { UNKNOWN_REQUEST } from "../load-bound-request";

/** Wait: the handset request the stored request holds on; a request without one is unknown here. */
export const findHandset: AuthorizeStep = async (state) => {
  const handset = await findHandsetRequest({ authorizationRequestId: need(state.id, "id") });
  if (!handset) throw new AuthorizePageError("invalid_request", UNKNOWN_REQUEST);
  state.handset = handset;
};
