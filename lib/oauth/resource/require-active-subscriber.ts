import type { Subscriber } from "../../subscribers/subscriber-row";
import { InvalidToken } from "../errors";

/** The subscriber an access token speaks for; a deleted or suspended one makes the token `invalid_token`. */
export function requireActiveSubscriber(subscriber: Subscriber | null): Subscriber {
  if (!subscriber || subscriber.status !== "active") {
    throw new InvalidToken("The access token is invalid, expired or revoked");
  }
  return subscriber;
}
