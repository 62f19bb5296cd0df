import { authenticateWithSession, signInAs } from "../authorization-request/choose-account";
import { sessionSatisfies } from "../oauth/authorize/choose-session";
import { listAccounts } from "./list-accounts";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/select with `session=<session id>` or `session=new` ("Use another number").
 * A chosen session that satisfies the request (the same rule as /authorize: level, max_age,
 * prompt=login, hint) authenticates it at once; otherwise that subscriber signs in again, with the
 * number already filled in.
 */
export async function selectAccount({ request, params, browserId, form }: StepInput): Promise<StepResult> {
  if (request.status !== "pending") return { to: "interaction" };
  const choice = form.get("session");
  if (!choice || choice === "new") return { to: "interaction", step: "msisdn" };
  const account = (await listAccounts({ browserId })).find((a) => a.session.id === choice);
  if (!account) return { to: "interaction" };
  const { id: sessionId, subscriberId } = account.session;
  if (sessionSatisfies(account.session, params, request)) {
    await authenticateWithSession({ requestId: request.id, sessionId, subscriberId });
    return { to: "resume" };
  }
  await signInAs({ requestId: request.id, subscriberId });
  return { to: "interaction", error: "session_unusable", step: "msisdn" };
}
