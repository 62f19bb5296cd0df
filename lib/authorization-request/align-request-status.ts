import { db } from "../db";
import { OPEN_STATUSES } from "./open-statuses";

/**
 * Aligns a stored request with the authorization endpoint's decision (no write when it already
 * matches): consent for a session -> `authenticated` with it; sign-in or selection -> back to
 * `pending` (the attached session ended, expired or is below the level: sign in again).
 */
export async function alignRequestStatus(request: { id: string; status: string; sessionId: string | null },
  session: { id: string; subscriberId: string } | undefined): Promise<void> {
  if (session) {
    if (request.status === "authenticated" && request.sessionId === session.id) return;
    await db.authorizationRequest.updateMany({
      where: { id: request.id, status: { in: OPEN_STATUSES } },
      data: { status: "authenticated", sessionId: session.id, subscriberId: session.subscriberId },
    });
  } else if (request.status !== "pending") {
    await db.authorizationRequest.updateMany({
      where: { id: request.id, status: { in: ["authenticated", "consented"] } },
      data: { status: "pending", sessionId: null, subscriberId: null },
    });
  }
}
