import { getHotStore } from "../../store/get-hot-store";
import { InvalidToken } from "../errors";

/** The subscriber an access token speaks for; a deleted or suspended one makes the token `invalid_token`. */
export async function getTokenSubscriberOrThrow({ subscriberId }: { subscriberId: string }) {
  const subscriber = await getHotStore().findSubscriber(subscriberId);
  if (!subscriber || subscriber.status !== "active") {
    throw new InvalidToken("The access token is invalid, expired or revoked");
  }
  return subscriber;
}
