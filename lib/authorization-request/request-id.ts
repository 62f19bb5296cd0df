import { randomToken } from "../crypto";

/** The one shape of a stored request's id: 128 random bits, base64url (22 characters). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Whether `id` can name a stored request at all (anything else is not looked up). */
export function isRequestId(id: string): boolean {
  return REQUEST_ID_PATTERN.test(id);
}

/** A fresh id (128 random bits): the only thing the interaction URL carries. */
export function newRequestId(): string {
  return randomToken(16);
}
