import type { Subscriber } from "@prisma/client";
import { AdminError } from "../admin/admin-error";

type Value = string | boolean;
type AttributeField =
  | "title" | "givenName" | "middleName" | "familyName" | "preferredUsername" | "gender" | "birthDate" | "locale"
  | "picture" | "website" | "email" | "emailVerified" | "phoneNumberAlternative" | "streetAddress" | "city"
  | "state" | "postalCode" | "country" | "nationalIdentifier";
type Spec = { field: AttributeField; parse?: (v: string) => Value | null };

const isoDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  return ok && d.getTime() <= Date.now() ? v : null;
};
const httpUrl = (v: string) => (/^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v) ? v : null);
const pattern = (re: RegExp) => (v: string) => (re.test(v) ? v : null);

/**
 * Operator-settable attributes, by the snake_case names of the premium info record and the scope
 * descriptions (interface "Premium info record"), mapped to Subscriber columns.
 */
const ATTRIBUTES: Record<string, Spec> = {
  title: { field: "title" },
  given_name: { field: "givenName" },
  middle_name: { field: "middleName" },
  family_name: { field: "familyName" },
  preferred_username: { field: "preferredUsername" },
  gender: { field: "gender" },
  birth_date: { field: "birthDate", parse: isoDate },
  locale: { field: "locale", parse: pattern(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/) },
  picture: { field: "picture", parse: httpUrl },
  website: { field: "website", parse: httpUrl },
  email: { field: "email", parse: pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/) },
  email_verified: { field: "emailVerified", parse: (v) => (v === "true" ? true : v === "false" ? false : null) },
  phone_number_alternative: { field: "phoneNumberAlternative", parse: (v) => pattern(/^[1-9]\d{6,14}$/)(v.replace(/^\+/, "")) },
  street_address: { field: "streetAddress" },
  city: { field: "city" },
  state: { field: "state" },
  postal_code: { field: "postalCode" },
  country: { field: "country" },
  national_identifier: { field: "nationalIdentifier" },
};

const HINT: Record<string, string> = {
  birth_date: "a past date YYYY-MM-DD", locale: "a language tag such as en-GB", picture: "an http(s) URL",
  website: "an http(s) URL", email: "an email address", email_verified: "true or false",
  phone_number_alternative: "an E.164 number",
};

/** Every attribute name `--attribute` accepts. */
export const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES);

/** Subscriber columns set from `--attribute` pairs. */
export type SubscriberAttributes = Partial<{ [K in AttributeField]: NonNullable<Subscriber[K]> }>;

/** Parses `key=value` pairs into Subscriber columns; unknown, repeated or malformed attributes throw. */
export function parseAttributes(pairs: readonly string[]): SubscriberAttributes {
  const out: Record<string, Value> = {};
  const seen = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq > 0 ? pair.slice(0, eq) : "";
    const raw = pair.slice(eq + 1);
    const spec = Object.hasOwn(ATTRIBUTES, key) ? ATTRIBUTES[key] : undefined;
    if (!spec) throw new AdminError(`unknown attribute ${JSON.stringify(key || pair)} (known: ${ATTRIBUTE_NAMES.join(", ")})`);
    if (seen.has(key)) throw new AdminError(`attribute ${key} given twice`);
    seen.add(key);
    if (raw.length === 0 || raw.length > 256 || /[\u0000-\u001f\u007f]/.test(raw)) {
      throw new AdminError(`attribute ${key} must be 1-256 printable characters`);
    }
    const value = spec.parse ? spec.parse(raw) : raw;
    if (value === null) throw new AdminError(`attribute ${key} must be ${HINT[key]}`);
    out[spec.field] = value;
  }
  return out as SubscriberAttributes;
}

/** A subscriber's attributes by their snake_case names, only those that are set. */
export function attributesOf(row: Subscriber): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, { field }] of Object.entries(ATTRIBUTES)) {
    const value = row[field];
    if (field === "emailVerified" && !row.email) continue;
    if (typeof value === "string" || typeof value === "boolean") out[name] = value;
  }
  return out;
}
