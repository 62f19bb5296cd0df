import { resolveHints } from "../../hints/resolve-hints";
import { need, type AuthorizeStep } from "../authorize-state";

/** The subscriber the hints name (lib/oauth/hints); the request's parameters are complete after it. */
export const resolveRequestHints: AuthorizeStep = async (state) => {
  const { hints, ...validated } = need(state.validated, "validated");
  const resolved = await resolveHints({ hints, client: need(state.client, "client"),
    promptNone: validated.prompt.includes("none"), headers: state.req.headers });
  state.params = { ...validated, ...resolved, ...(state.clientAuthenticated ? { clientAuthenticated: true } : {}) };
};
