import { getHotStore } from "../store/get-hot-store";
import { pairwiseSubject } from "../subjects/pairwise-subject";
import type { AuthorizationCodeRecord } from "../tokens/store-authorization-code";
import { OPEN_STATUSES } from "./open-statuses";

/**
 * Ends a stored request with its code, in one transaction on the hot-path store (lib/store): the
 * request becomes `completed` by a conditional update (a double submit or a replayed resume finds it
 * no longer open and gets no second code), the code is inserted, and the PCR is recorded so `PCR:`
 * and `id_token_hint` hints resolve later (one INSERT .. ON CONFLICT statement, no read). False,
 * with nothing written, when the request was no longer open.
 */
export function completeAuthorizationRequest({ requestId, code, sectorIdentifier }: {
  requestId: string; code: AuthorizationCodeRecord; sectorIdentifier: string;
}): Promise<boolean> {
  const { subscriberId, sessionId } = code;
  return getHotStore().completeAuthorizationRequest({
    requestId, openStatuses: OPEN_STATUSES, sessionId, subscriberId, code,
    pairwise: { sub: pairwiseSubject({ subscriberId, sectorIdentifier }), subscriberId, sectorIdentifier },
  });
}
