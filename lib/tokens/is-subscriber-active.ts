import { getHotStore } from "../store/get-hot-store";

/** Whether a subscriber still exists and is not suspended (one indexed read of one column). */
export async function isSubscriberActive({ subscriberId }: { subscriberId: string }): Promise<boolean> {
  return (await getHotStore().findSubscriberStatus(subscriberId)) === "active";
}
