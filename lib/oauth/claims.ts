import type { Subscriber } from "@prisma/client";

/**
 * One table for scope -> attributes, used by the metadata (`claims_supported`), the consent
 * screen, premium info and userinfo. Premium info names follow the interface's record; the
 * `aliases` are the names the operator SDKs in the field read for the same value.
 */
type Attr = {
  claim: string;
  read: (s: Subscriber) => string | boolean | null | undefined;
  aliases?: string[];
};

const A = {
  phone_number: { claim: "phone_number", read: (s) => `+${s.msisdn}` },
  phone_number_verified: { claim: "phone_number_verified", read: () => true },
  phone_number_alternative: {
    claim: "phone_number_alternative", read: (s) => s.phoneNumberAlternative, aliases: ["phone_number_alternate"],
  },
  title: { claim: "title", read: (s) => s.title },
  given_name: { claim: "given_name", read: (s) => s.givenName },
  family_name: { claim: "family_name", read: (s) => s.familyName },
  middle_name: { claim: "middle_name", read: (s) => s.middleName },
  preferred_username: { claim: "preferred_username", read: (s) => s.preferredUsername },
  picture: { claim: "picture", read: (s) => s.picture },
  website: { claim: "website", read: (s) => s.website },
  gender: { claim: "gender", read: (s) => s.gender },
  locale: { claim: "locale", read: (s) => s.locale },
  email: { claim: "email", read: (s) => s.email },
  email_verified: { claim: "email_verified", read: (s) => (s.email ? s.emailVerified : null) },
  street_address: { claim: "street_address", read: (s) => s.streetAddress },
  city: { claim: "city", read: (s) => s.city },
  state: { claim: "state", read: (s) => s.state },
  postal_code: { claim: "postal_code", read: (s) => s.postalCode },
  country: { claim: "country", read: (s) => s.country },
  birth_date: { claim: "birth_date", read: (s) => s.birthDate, aliases: ["birthdate"] },
  national_identifier: { claim: "national_identifier", read: (s) => s.nationalIdentifier },
} satisfies Record<string, Attr>;

type AttrName = keyof typeof A;
const ADDRESS: AttrName[] = ["street_address", "city", "state", "postal_code", "country"];

/** Premium info attributes per identity scope: the record table plus the scope descriptions. */
export const PREMIUM_INFO_ATTRIBUTES: Record<string, AttrName[]> = {
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
export function premiumInfoAttributes(scopes: readonly string[]): AttrName[] {
  return [...new Set(scopes.flatMap((s) => PREMIUM_INFO_ATTRIBUTES[s] ?? []))];
}

/**
 * The premium info record: every value a string (interface "Premium info record"), attributes the
 * subscriber does not have are omitted, and SDK alias names are emitted beside the spec's.
 */
export function premiumInfoRecord(subscriber: Subscriber, scopes: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of premiumInfoAttributes(scopes)) {
    const attr: Attr = A[name];
    const value = attr.read(subscriber);
    if (value === null || value === undefined || value === "") continue;
    for (const key of [attr.claim, ...(attr.aliases ?? [])]) out[key] = String(value);
  }
  return out;
}

/** Standard userinfo claims for the granted scopes, with OIDC types. */
export function userinfoClaims(s: Subscriber, scopes: readonly string[]): Record<string, unknown> {
  const all: Record<string, unknown> = {
    name: [s.givenName, s.middleName, s.familyName].filter(Boolean).join(" ") || undefined,
    given_name: s.givenName, family_name: s.familyName, middle_name: s.middleName,
    preferred_username: s.preferredUsername, picture: s.picture, website: s.website, gender: s.gender,
    birthdate: s.birthDate, locale: s.locale, updated_at: Math.floor(s.updatedAt.getTime() / 1000),
    email: s.email, email_verified: s.email ? s.emailVerified : undefined,
    phone_number: `+${s.msisdn}`, phone_number_verified: true,
    address: ADDRESS.some((k) => A[k].read(s))
      ? compact({
          street_address: s.streetAddress, locality: s.city, region: s.state, postal_code: s.postalCode,
          country: s.country,
          formatted: [s.streetAddress, s.city, s.state, s.postalCode, s.country].filter(Boolean).join(", "),
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
  const premium = Object.values(A).flatMap((a: Attr) => [a.claim, ...(a.aliases ?? [])]);
  return [...new Set([...idToken, ...premium, ...Object.values(USERINFO_CLAIMS).flat()])];
}
