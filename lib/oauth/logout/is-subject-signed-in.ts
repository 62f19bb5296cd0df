import { findSignedInSubscriberIds } from "../../sessions/find-signed-in-subscriber-ids";
import { pairwiseSubject } from "../../subjects/pairwise-subject";

/**
 * Whether the `sub` of a logout `id_token_hint` is a subscriber with a live session in this browser.
 * RP-Initiated Logout 1.0 §2: the OP may skip the confirmation only when the hint names the End-User
 * who is signed in here; an id_token of someone else (any client can hold one, e.g. its own
 * subscriber's, and put it in a link) says nothing about the person at this browser. `sub` is pairwise
 * (OIDC Core §8.1), so it is compared with each signed-in subscriber's PCR for the hint client's sector:
 * one indexed query, an HMAC per session.
 */
export async function isSubjectSignedIn({ browserId, sub, sectorIdentifier }: {
  browserId: string; sub: string; sectorIdentifier: string;
}): Promise<boolean> {
  const subscriberIds = await findSignedInSubscriberIds({ browserId });
  return subscriberIds.some((subscriberId) => pairwiseSubject({ subscriberId, sectorIdentifier }) === sub);
}
