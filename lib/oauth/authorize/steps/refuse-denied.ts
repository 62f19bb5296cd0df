import { AccessDenied } from "../../errors";
import { need, type AuthorizeStep } from "../authorize-state";

/** A request the subscriber refused (consent Deny, cancelled sign-in, rejected on the handset): access_denied. */
export const refuseDenied: AuthorizeStep = (state) => {
  if (need(state.stored, "stored").status !== "denied") return;
  throw new AccessDenied(state.entry === "wait"
    ? "The subscriber rejected the request on their handset" : "User denied the request");
};
