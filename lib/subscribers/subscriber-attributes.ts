import { Prisma } from "@prisma/client";
import type { Subscriber } from "./subscriber-row";
import { AdminError } from "../admin/admin-error";

type Value = string | boolean;

/** The Subscriber columns that hold an attribute (everything else is the account, not the person). */
export type AttributeColumn =
  | "title" | "givenName" | "middleName" | "familyName" | "preferredUsername" | "gender" | "birthDate" | "locale"
  | "picture" | "website" | "email" | "emailVerified" | "phoneNumberAlternative" | "streetAddress" | "city"
  | "state" | "postalCode" | "country" | "nationalIdentifier";

/** One subscriber attribute: where it is stored, how it is read, and how the operator may set it. */
export interface SubscriberAttribute {
  /** The column it is stored in; absent for the attributes derived from the MSISDN (not settable). */
  column?: AttributeColumn;
  read: (s: Subscriber) => Value | null;
  /** Other names the operator SDKs in the field read for the same value (premium info record). */
  aliases?: readonly string[];
  /** The operator's value to store, or null when it is malformed (then `hint` says what is expected). */
  parse?: (v: string) => Value | null;
  hint?: string;
}

const isoDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  return ok && d.getTime() <= Date.now() ? v : null;
};
const httpUrl = (v: string) => (/^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v) ? v : null);
const pattern = (re: RegExp) => (v: string) => (re.test(v) ? v : null);
const stored = (column: AttributeColumn) => ({ column, read: (s: Subscriber) => s[column] });

/**
 * The one table of subscriber attributes, by the snake_case names of the premium info record and the
 * scope descriptions (interface "Premium info record", docs/interface.md), in the order of the metadata's
 * `claims_supported`. Everything about an attribute derives from here: the claims (lib/oauth/claims.ts:
 * `claims_supported`, premium info, userinfo, the consent screen) and the operator's `--attribute` pairs
 * and subscriber view (below).
 */
export const SUBSCRIBER_ATTRIBUTES = {
  phone_number: { read: (s) => `+${s.msisdn}` },
  phone_number_verified: { read: () => true },
  phone_number_alternative: {
    ...stored("phoneNumberAlternative"), aliases: ["phone_number_alternate"],
    parse: (v) => pattern(/^[1-9]\d{6,14}$/)(v.replace(/^\+/, "")), hint: "an E.164 number",
  },
  title: stored("title"),
  given_name: stored("givenName"),
  family_name: stored("familyName"),
  middle_name: stored("middleName"),
  preferred_username: stored("preferredUsername"),
  picture: { ...stored("picture"), parse: httpUrl, hint: "an http(s) URL" },
  website: { ...stored("website"), parse: httpUrl, hint: "an http(s) URL" },
  gender: stored("gender"),
  locale: {
    ...stored("locale"), parse: pattern(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/), hint: "a language tag such as en-GB",
  },
  email: { ...stored("email"), parse: pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/), hint: "an email address" },
  // Whether the address was verified says nothing without an address.
  email_verified: {
    column: "emailVerified", read: (s) => (s.email ? s.emailVerified : null),
    parse: (v) => (v === "true" ? true : v === "false" ? false : null), hint: "true or false",
  },
  street_address: stored("streetAddress"),
  city: stored("city"),
  state: stored("state"),
  postal_code: stored("postalCode"),
  country: stored("country"),
  birth_date: { ...stored("birthDate"), aliases: ["birthdate"], parse: isoDate, hint: "a past date YYYY-MM-DD" },
  national_identifier: stored("nationalIdentifier"),
} satisfies Record<string, SubscriberAttribute>;

export type AttributeName = keyof typeof SUBSCRIBER_ATTRIBUTES;

/** A subscriber's value of one attribute (null when it has none). */
export function readAttribute(s: Subscriber, name: AttributeName): Value | null {
  const attr: SubscriberAttribute = SUBSCRIBER_ATTRIBUTES[name];
  return attr.read(s);
}

// The operator sees the settable attributes in the order of the Subscriber table's columns.
const columnOrder: readonly string[] = Object.values(Prisma.SubscriberScalarFieldEnum);
const SETTABLE = (Object.entries(SUBSCRIBER_ATTRIBUTES) as [string, SubscriberAttribute][])
  .filter((e): e is [string, SubscriberAttribute & { column: AttributeColumn }] => e[1].column !== undefined)
  .sort(([, a], [, b]) => columnOrder.indexOf(a.column) - columnOrder.indexOf(b.column));

/** Every attribute name `--attribute` accepts. */
export const ATTRIBUTE_NAMES = SETTABLE.map(([name]) => name);

/** Subscriber columns set from `--attribute` pairs. */
export type SubscriberAttributes = Partial<{ [K in AttributeColumn]: NonNullable<Subscriber[K]> }>;

/** Parses `key=value` pairs into Subscriber columns; unknown, repeated or malformed attributes throw. */
export function parseAttributes(pairs: readonly string[]): SubscriberAttributes {
  const out: Record<string, Value> = {};
  const seen = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq > 0 ? pair.slice(0, eq) : "";
    const raw = pair.slice(eq + 1);
    const spec = SETTABLE.find(([name]) => name === key)?.[1];
    if (!spec) throw new AdminError(`unknown attribute ${JSON.stringify(key || pair)} (known: ${ATTRIBUTE_NAMES.join(", ")})`);
    if (seen.has(key)) throw new AdminError(`attribute ${key} given twice`);
    seen.add(key);
    if (raw.length === 0 || raw.length > 256 || /[\u0000-\u001f\u007f]/.test(raw)) {
      throw new AdminError(`attribute ${key} must be 1-256 printable characters`);
    }
    const value = spec.parse ? spec.parse(raw) : raw;
    if (value === null) throw new AdminError(`attribute ${key} must be ${spec.hint}`);
    out[spec.column] = value;
  }
  return out as SubscriberAttributes;
}

/** A subscriber's attributes by their snake_case names, only those that are set. */
export function attributesOf(row: Subscriber): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, { read }] of SETTABLE) {
    const value = read(row);
    if (typeof value === "string" || typeof value === "boolean") out[name] = value;
  }
  return out;
}
