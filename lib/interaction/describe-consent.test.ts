import { describe, expect, it } from "vitest";
import { getMessages } from "../i18n/get-messages";
import { premiumInfoAttributes, USERINFO_CLAIMS } from "../oauth/claims";
import type { Subscriber } from "../subscribers/subscriber-row";
import { SUBSCRIBER_ATTRIBUTES } from "../subscribers/subscriber-attributes";
import { ATTRIBUTE_GROUPS, describeConsent, sharedAttributes, VERIFIED_FLAGS } from "./describe-consent";

/** A subscriber row with no attribute on file but those given. */
function subscriber(attributes: Partial<Subscriber> = {}): Subscriber {
  return {
    id: "s1", msisdn: "447700900123", status: "active", pinHash: "scrypt$secret", failedPinAttempts: 0, lockoutCount: 0,
    lockedUntil: null, userCodeHash: null, title: null, givenName: null, middleName: null, familyName: null, preferredUsername: null,
    gender: null, birthDate: null, locale: null, picture: null, website: null, email: null, emailVerified: false,
    phoneNumberAlternative: null, streetAddress: null, city: null, state: null, postalCode: null, country: null,
    nationalIdentifier: null, createdAt: new Date(0), updatedAt: new Date(0), ...attributes,
  };
}

const SIX = subscriber({
  givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10", email: "ada@example.test", emailVerified: true,
  city: "London", country: "GB",
});
const WIDE = ["openid", "mc_identity_signup", "profile", "email", "address"];

describe("sharedAttributes + describeConsent: only what would be shared", () => {
  it("a subscriber with 6 attributes sees exactly those 6, grouped, not the 20 the scopes could return", () => {
    const t = getMessages(["en"]);
    // What the scopes could return (the old screen listed all of it).
    expect(new Set([...premiumInfoAttributes(WIDE), ...WIDE.flatMap((s) => USERINFO_CLAIMS[s] ?? [])]).size)
      .toBeGreaterThanOrEqual(20);
    const { groups } = describeConsent({ scopes: WIDE, t, shared: sharedAttributes(SIX, WIDE) });
    expect(groups.map((g) => [g.label, g.attributes.map((a) => [a.label, a.value])])).toEqual([
      ["Identity", [["First name", "Ada"], ["Last name", "Lovelace"], ["Date of birth", "1815-12-10"]]],
      ["Contact", [["Email address", "ada@example.test"]]],
      ["Address", [["City", "London"], ["Country", "GB"]]],
    ]);
    expect(groups.flatMap((g) => g.attributes).find((a) => a.name === "email")?.verified).toBe(true);
  });

  it("is what premium info and userinfo release: nothing for scopes that release nothing, the number for phone", () => {
    expect(sharedAttributes(SIX, ["openid"])).toEqual([]);
    expect(sharedAttributes(SIX, ["openid", "mc_authz"])).toEqual([]);
    // mc_identity_phonenumber (premium info) and phone (userinfo): the number, once, masked on screen, verified.
    expect(sharedAttributes(SIX, ["openid", "mc_identity_phonenumber", "phone"]))
      .toEqual([{ name: "phone_number", value: "+44••••••0123", verified: true }]);
    // email only: the address, not the name or the city the subscriber also has.
    expect(sharedAttributes(SIX, ["openid", "email"]).map((a) => a.name)).toEqual(["email"]);
    // The verified flag says nothing without an email address: not listed.
    expect(sharedAttributes(subscriber(), ["openid", "email", "profile", "address"])).toEqual([]);
  });

  it("the national identity number is shown with its last four characters only; each attribute once", () => {
    const all = subscriber({
      title: "Dr", givenName: "Ada", middleName: "King", familyName: "Lovelace", preferredUsername: "ada",
      gender: "female", birthDate: "1815-12-10", locale: "en-GB", picture: "https://example.test/a.png",
      website: "https://example.test", email: "ada@example.test", phoneNumberAlternative: "447700900999",
      streetAddress: "1 High Street", city: "London", state: "Greater London", postalCode: "SW1A 1AA", country: "GB",
      nationalIdentifier: "QQ123456C",
    });
    const scopes = ["openid", "mc_identity_signup", "mc_identity_nationalid", "mc_identity_phonenumber",
      "profile", "email", "address", "phone"];
    const shared = sharedAttributes(all, scopes);
    expect(shared.map((a) => a.name)).toEqual([
      "title", "given_name", "middle_name", "family_name", "preferred_username", "gender", "birth_date",
      "national_identifier", "picture", "website", "locale", "phone_number", "phone_number_alternative", "email",
      "street_address", "city", "state", "postal_code", "country",
    ]);
    expect(shared.find((a) => a.name === "national_identifier")?.value).toBe("•••••456C");
    expect(shared.find((a) => a.name === "email")?.verified).toBe(false);
  });

  it("every attribute the claims can release has a group (or is a verified flag): none is left off the screen", () => {
    const placed = [...Object.values(ATTRIBUTE_GROUPS).flat(), ...Object.keys(VERIFIED_FLAGS)];
    expect([...placed].sort()).toEqual(Object.keys(SUBSCRIBER_ATTRIBUTES).sort());
  });

  it("names the groups and attributes in French", () => {
    const t = getMessages(["fr"]);
    const { groups } = describeConsent({ scopes: WIDE, t, shared: sharedAttributes(SIX, WIDE) });
    expect(groups.map((g) => g.label)).toEqual(["Identité", "Coordonnées", "Adresse postale"]);
    expect(t.consent.groupLabel("Adresse")).toBe("Adresse\u00a0:");
    expect(t.consent.valueLine("Ville", "Paris")).toBe("Ville\u00a0: Paris");
  });
});
