import { updateSubscriberByMsisdn } from "./update-subscriber-by-msisdn";
import type { SubscriberRecord } from "./subscriber-record";

/** Lets a suspended subscriber sign in again (sessions and tokens ended by the suspension stay ended). */
export async function activateSubscriber({ msisdn }: { msisdn: string }): Promise<SubscriberRecord> {
  return updateSubscriberByMsisdn({ msisdn, data: { status: "active" } });
}
