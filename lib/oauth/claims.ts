import type { Subscriber } from "../subscribers/subscriber-row";
import {
  readAttribute, SUBSCRIBER_ATTRIBUTES, type AttributeName, type SubscriberAttribute,
} from "../subscribers/subscriber-attributes";

/**
 * Scope -> attributes, used by the metadata (`claims_supported`), the consent screen, premium info and
 * userinfo. The attributes themselves (names, SDK aliases, how each is read) are the one table in
 * lib/subscribers/subscriber-attributes.ts; premium info names follow the interface's record.
 */
const ADDRESS: AttributeName[] = ["street_address", "city", "state", "postal_code", "country"];

/** Premium info attributes per identity scope: the record table plus the scope descriptions. */
export const PREMIUM_INFO_ATTRIBUTES: Record<string, AttributeName[]> = {
  mc_identity_phonenumber: ["phone_number", "phone_number_verified"],
  mc_identity_signup: [
    "phone_number_alternative", "title", "given_name", "family_name", "middle_name", "preferred_username",
    "picture", "website", "gender", "birth_date", "locale", "email", "email_verified", ...ADDRESS,
  ],
  mc_identity_nationalid: [
    "national_identifier", "title", "given_name", "family_name", "middle_name", "birth_date", "email", ...ADDRESS,
  ],
};

/** Standard OIDC userinfo claims per scope (OIDC Core §5.4). */
export const USERINFO_CLAIMS: Record<string, string[]> = {
  profile: ["name", "given_name", "family_name", "middle_name", "preferred_username", "picture", "website",
    "gender", "birthdate", "locale", "updated_at"],
  email: ["email", "email_verified"],
  address: ["address"],
  phone: ["phone_number", "phone_number_verified"],
};

/** Attribute names (spec spelling) released by a set of scopes: the union over identity scopes. */
export function premiumInfoAttributes(scopes: readonly string[]): AttributeName[] {
  return [...new Set(scopes.flatMap((s) => PREMIUM_INFO_ATTRIBUTES[s] ?? []))];
}

/**
 * The premium info record: every value a string (interface "Premium info record"), attributes the
 * subscriber does not have are omitted, and SDK alias names are emitted beside the spec's.
 */
export function premiumInfoRecord(subscriber: Subscriber, scopes: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of premiumInfoAttributes(scopes)) {
    const attr: SubscriberAttribute = SUBSCRIBER_ATTRIBUTES[name];
    const value = attr.read(subscriber);
    if (value === null || value === undefined || value === "") continue;
    for (const key of [name, ...(attr.aliases ?? [])]) out[key] = String(value);
  }
  return out;
}

/** Standard userinfo claims for the granted scopes, with OIDC types (OIDC Core §5.1). */
export function userinfoClaims(s: Subscriber, scopes: readonly string[]): Record<string, unknown> {
  const a = (name: AttributeName) => readAttribute(s, name);
  const all: Record<string, unknown> = {
    name: [a("given_name"), a("middle_name"), a("family_name")].filter(Boolean).join(" ") || undefined,
    given_name: a("given_name"), family_name: a("family_name"), middle_name: a("middle_name"),
    preferred_username: a("preferred_username"), picture: a("picture"), website: a("website"), gender: a("gender"),
    birthdate: a("birth_date"), locale: a("locale"), updated_at: Math.floor(s.updatedAt.getTime() / 1000),
    email: a("email"), email_verified: a("email_verified"),
    phone_number: a("phone_number"), phone_number_verified: a("phone_number_verified"),
    address: ADDRESS.some((k) => a(k))
      ? compact({
          street_address: a("street_address"), locality: a("city"), region: a("state"), postal_code: a("postal_code"),
          country: a("country"), formatted: ADDRESS.map(a).filter(Boolean).join(", "),
        })
      : undefined,
  };
  const wanted = new Set(scopes.flatMap((sc) => USERINFO_CLAIMS[sc] ?? []));
  return compact(Object.fromEntries(Object.entries(all).filter(([k]) => wanted.has(k))));
}

function compact<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ""));
}

/** Every claim name this service can release (metadata `claims_supported`). */
export function claimsSupported(): string[] {
  const idToken = ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "at_hash",
    "hashed_login_hint"];
  const premium = (Object.entries(SUBSCRIBER_ATTRIBUTES) as [string, SubscriberAttribute][])
    .flatMap(([name, a]) => [name, ...(a.aliases ?? [])]);
  return [...new Set([...idToken, ...premium, ...Object.values(USERINFO_CLAIMS).flat()])];
}
