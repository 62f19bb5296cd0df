import { normaliseMsisdnOrThrow } from "./normalise-msisdn-or-throw";

/**
 * How an operation names its subscriber: by MSISDN (the admin CLI, as typed: normalised, malformed ones
 * refused) or by id (the console, whose pages link by id so that no number is in a URL).
 */
export type SubscriberKey = { msisdn: string } | { id: string };

/** The unique `where` of a subscriber key; throws an AdminError for a malformed MSISDN. */
export function subscriberWhere(key: SubscriberKey): { msisdn: string } | { id: string } {
  return "id" in key ? { id: key.id } : { msisdn: normaliseMsisdnOrThrow(key.msisdn) };
}

/** How an error names the subscriber: the normalised number, or the id. */
export function describeSubscriberKey(key: SubscriberKey): string {
  const where = subscriberWhere(key);
  return "id" in where ? where.id : where.msisdn;
}
