import { db } from "../db";
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
  const where = { id: request.id, status: "pending" };
  if (sessionSatisfies(account.session, params, request)) {
    await db.authorizationRequest.updateMany({
      where, data: { status: "authenticated", sessionId, subscriberId, otpHash: null },
    });
    return { to: "resume" };
  }
  await db.authorizationRequest.updateMany({
    where, data: { subscriberId, otpHash: null, otpSentAt: null, otpAttempts: 0 },
  });
  return { to: "interaction", error: "session_unusable", step: "msisdn" };
}
