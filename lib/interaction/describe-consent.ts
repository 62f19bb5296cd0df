import { maskMsisdn } from "../messaging/mask-msisdn";
import { premiumInfoAttributes, premiumInfoRecord, userinfoClaims } from "../oauth/claims";
import type { AttributeName } from "../subscribers/subscriber-attributes";
import type { Subscriber } from "../subscribers/subscriber-row";
import type { Messages } from "../i18n/get-messages";
import { isPurposeScope } from "../network-apis/camara-scopes";

/** How the consent screen groups what is shared. */
export const ATTRIBUTE_GROUPS = {
  identity: [
    "title", "given_name", "middle_name", "family_name", "preferred_username", "gender", "birth_date",
    "national_identifier", "picture", "website", "locale",
  ],
  contact: ["phone_number", "phone_number_alternative", "email"],
  address: ["street_address", "city", "state", "postal_code", "country"],
} as const satisfies Record<string, readonly AttributeName[]>;

export type AttributeGroup = keyof typeof ATTRIBUTE_GROUPS;
type SharedName = (typeof ATTRIBUTE_GROUPS)[AttributeGroup][number];

/** One attribute that would leave, language-neutral (what chooseScreen() hands to the screen). */
export interface SharedAttribute {
  name: SharedName;
  /** The value as the subscriber is shown it (identifiers masked, see `displayValue`). */
  value: string;
  /** For the phone number and the email address: whether the app is told it is verified. */
  verified?: boolean;
}

/** userinfo claim -> the attribute it carries; `address` is expanded, `name` and `updated_at` are derived. */
const USERINFO_TO_ATTRIBUTE: Record<string, SharedName> = {
  given_name: "given_name", family_name: "family_name", middle_name: "middle_name",
  preferred_username: "preferred_username", picture: "picture", website: "website", gender: "gender",
  birthdate: "birth_date", locale: "locale", email: "email", phone_number: "phone_number",
};
const ADDRESS_CLAIM_TO_ATTRIBUTE: Record<string, SharedName> = {
  street_address: "street_address", locality: "city", region: "state", postal_code: "postal_code", country: "country",
};
export const VERIFIED_FLAGS: Record<string, SharedName> = { phone_number_verified: "phone_number", email_verified: "email" };
const ORDER: readonly SharedName[] = Object.values(ATTRIBUTE_GROUPS).flat();

/**
 * What would actually leave for this subscriber if the request's scopes are allowed: exactly the
 * attributes the premium info record (identity scopes) and userinfo (profile, email, address, phone)
 * would return - both built here by the endpoints' own functions (lib/oauth/claims.ts), so an
 * attribute the subscriber does not have is never listed. Each attribute once, in the groups' order.
 * Not listed as attributes of their own: the verified flags (shown beside their value), userinfo's
 * `name` (made of the given, middle and family names, which are listed) and `updated_at` (a date
 * about the record, not a detail of the subscriber).
 */
export function sharedAttributes(subscriber: Subscriber, scopes: readonly string[]): SharedAttribute[] {
  const values = new Map<SharedName, string>();
  const verified = new Map<SharedName, boolean>();
  const premium = premiumInfoRecord(subscriber, scopes);
  for (const name of premiumInfoAttributes(scopes)) {
    const value = premium[name];
    if (value === undefined) continue;
    if (name in VERIFIED_FLAGS) verified.set(VERIFIED_FLAGS[name]!, value === "true");
    else values.set(name as SharedName, value);
  }
  for (const [claim, value] of Object.entries(userinfoClaims(subscriber, scopes))) {
    if (claim in VERIFIED_FLAGS) verified.set(VERIFIED_FLAGS[claim]!, value === true);
    else if (claim === "address" && value && typeof value === "object") {
      for (const [part, v] of Object.entries(value)) {
        const name = ADDRESS_CLAIM_TO_ATTRIBUTE[part];
        if (name && typeof v === "string") values.set(name, v);
      }
    } else if (USERINFO_TO_ATTRIBUTE[claim] && typeof value === "string") {
      values.set(USERINFO_TO_ATTRIBUTE[claim], value);
    }
  }
  return ORDER.filter((name) => values.has(name)).map((name) => ({
    name, value: displayValue(name, values.get(name)!),
    ...(verified.has(name) ? { verified: verified.get(name) } : {}),
  }));
}

/**
 * The value as shown on the screen: as it leaves, except the two identifiers someone reading over the
 * subscriber's shoulder could misuse, which keep only their last four characters (the number is shown
 * the way the screens' header shows it).
 */
function displayValue(name: SharedName, value: string): string {
  if (name === "phone_number") return maskMsisdn(value.replace(/^\+/, ""));
  if (name === "national_identifier") {
    return value.length > 6 ? `${"•".repeat(value.length - 4)}${value.slice(-4)}` : "••••••";
  }
  return value;
}

/**
 * What the consent screen says about a request: one plain-language line per scope (the network APIs' included),
 * the network-API purpose in plain words (`purpose`, null without one), and (given what
 * sharedAttributes() found for the subscriber) the attributes that will be shared, grouped, in the
 * subscriber's language. Groups without an attribute are left out.
 */
export function describeConsent({ scopes, t, shared = [] }: {
  scopes: readonly string[]; t: Messages; shared?: readonly SharedAttribute[];
}) {
  // A network-API request's purpose scope (dpv:…) is not something the app may do: it is shown as its own line.
  const purposeScope = scopes.find(isPurposeScope);
  const scopeLines = scopes.filter((s) => !isPurposeScope(s)).map((scope) => ({ scope, text: t.scopes[scope] ?? scope }));
  const purpose = purposeScope ? { scope: purposeScope, text: t.purposes[purposeScope] ?? purposeScope } : null;
  const groups = (Object.keys(ATTRIBUTE_GROUPS) as AttributeGroup[]).map((group) => ({
    group,
    label: t.consent.groups[group],
    attributes: shared
      .filter((a) => (ATTRIBUTE_GROUPS[group] as readonly string[]).includes(a.name))
      .map((a) => ({ ...a, label: t.attributes[a.name] ?? a.name })),
  })).filter((g) => g.attributes.length > 0);
  return { scopeLines, groups, purpose };
}
