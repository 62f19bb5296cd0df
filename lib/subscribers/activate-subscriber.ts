import { updateSubscriber } from "./update-subscriber";
import type { SubscriberKey } from "./subscriber-key";
import type { SubscriberRecord } from "./subscriber-record";

/**
 * Lets a suspended subscriber sign in again (sessions and tokens ended by the suspension stay ended).
 * CLI: by MSISDN, console: by id.
 */
export async function activateSubscriber(key: SubscriberKey): Promise<SubscriberRecord> {
  return updateSubscriber({ ...key, data: { status: "active" } });
}
