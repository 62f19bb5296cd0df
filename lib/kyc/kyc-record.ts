import type { Subscriber } from "../subscribers/subscriber-row";
import { normaliseText } from "./normalise";

/**
 * What KYC Match compares against, taken from the subscriber's record (prisma Subscriber); null where the record
 * holds nothing (then the attribute answers `not_available`). Never leaves lib/kyc and the handler: the response
 * carries only match results and scores (docs/kyc-match.md "Privacy").
 */
export interface KycRecord {
  idDocument: string | null;
  givenName: string | null;
  middleNames: string | null;
  familyName: string | null;
  streetAddress: string | null;
  /** From streetAddress when it reads unambiguously as "<number> <name>" or "<name> <number>" (parseStreet). */
  streetName: string | null;
  streetNumber: string | null;
  postalCode: string | null;
  region: string | null;
  locality: string | null;
  country: string | null;
  birthdate: string | null;
  /** Only a verified address counts (the API compares with data on file "and verified"). */
  email: string | null;
  gender: string | null;
}

const present = (value: string | null | undefined) => (value && value.trim() ? value : null);

/** The record's fields KYC Match uses (docs/kyc-match.md, the table of attributes). */
export function kycRecordOf(row: Pick<Subscriber, "nationalIdentifier" | "givenName" | "middleName" | "familyName"
  | "streetAddress" | "postalCode" | "state" | "city" | "country" | "birthDate" | "email" | "emailVerified"
  | "gender">): KycRecord {
  const streetAddress = present(row.streetAddress);
  const street = streetAddress ? parseStreet(streetAddress) : null;
  return {
    idDocument: present(row.nationalIdentifier),
    givenName: present(row.givenName),
    middleNames: present(row.middleName),
    familyName: present(row.familyName),
    streetAddress,
    streetName: street?.name ?? null,
    streetNumber: street?.number ?? null,
    postalCode: present(row.postalCode),
    region: present(row.state),
    locality: present(row.city),
    country: present(row.country),
    birthdate: present(row.birthDate),
    email: row.emailVerified ? present(row.email) : null,
    gender: present(row.gender),
  };
}

const HOUSE_NUMBER = /^\d+[a-z]?$/;

/**
 * The street name and number of an OpenID Connect `street_address` (one free-text field), only when it reads
 * unambiguously: the whole field holds exactly one house number (digits, optionally one letter: `4`, `12b`), on its
 * first line (up to a comma or line break), first ("1 High Street") or last ("Calle Mayor 4"), beside a word.
 * Anything else (a flat, "Apartment 3, 12 Rue X", no number) is null: not_available rather than a wrong `false`.
 */
export function parseStreet(streetAddress: string): { name: string; number: string } | null {
  const everyWord = normaliseText(streetAddress).split(" ").filter(Boolean);
  if (everyWord.filter((w) => HOUSE_NUMBER.test(w)).length !== 1) return null;
  const words = normaliseText(streetAddress.split(/[\n,]/)[0] ?? "").split(" ").filter(Boolean);
  if (words.length < 2) return null;
  const [first, last] = [words[0]!, words[words.length - 1]!];
  if (HOUSE_NUMBER.test(first)) return { number: first, name: words.slice(1).join(" ") };
  if (HOUSE_NUMBER.test(last)) return { number: last, name: words.slice(0, -1).join(" ") };
  return null;
}
