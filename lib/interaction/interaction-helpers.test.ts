import { describe, expect, it } from "vitest";
import { getMessages } from "../i18n/get-messages";
import { maskMsisdn } from "../messaging/mask-msisdn";
import { amrForAcr } from "./amr-for-acr";
import { describeConsent, sharedAttributes } from "./describe-consent";
import { checkInteractionCsrfToken, interactionCsrfToken } from "./interaction-csrf";
import { normaliseMsisdn } from "./normalise-msisdn";
import { hashOneTimeCode, isOneTimeCodeExpired, newOneTimeCode } from "./one-time-code";

describe("normaliseMsisdn", () => {
  it.each([
    ["+44 7700 900123", "447700900123"], ["0044 7700-900-123", "447700900123"], ["(44) 7700.900123", "447700900123"],
    ["447700900123", "447700900123"],
  ])("%s -> %s", (input, out) => expect(normaliseMsisdn(input)).toBe(out));
  it.each(["", "07700900123", "+44abc", "12345", "1234567890123456", "+".repeat(50)])("refuses %j", (input) => {
    expect(normaliseMsisdn(input)).toBeNull();
  });
  it("strict (the admin CLI) takes only the stored form, with or without one leading +", () => {
    expect(normaliseMsisdn("+447700900123", { strict: true })).toBe("447700900123");
    expect(normaliseMsisdn("447700900123", { strict: true })).toBe("447700900123");
    for (const typed of ["+44 7700 900123", "0044 7700900123", "00447700900123", "++447700900123", " 447700900123"]) {
      expect(normaliseMsisdn(typed, { strict: true })).toBeNull();
    }
  });
});

describe("maskMsisdn", () => {
  it("keeps the country code and the last four digits", () => {
    expect(maskMsisdn("447700900123")).toBe("+44••••••0123");
    expect(maskMsisdn("not a number")).toBe("+•••••••");
  });
});

describe("one-time code", () => {
  it("is six digits, salted by the request id", () => {
    expect(newOneTimeCode()).toMatch(/^\d{6}$/);
    expect(hashOneTimeCode({ requestId: "a", code: "123456" })).not.toBe(hashOneTimeCode({ requestId: "b", code: "123456" }));
  });
  it("expires after OTP_TTL", () => {
    expect(isOneTimeCodeExpired(new Date())).toBe(false);
    expect(isOneTimeCodeExpired(new Date(Date.now() - 3_600_000))).toBe(true);
  });
});

describe("interaction CSRF token", () => {
  it("is bound to the request and the browser", () => {
    const token = interactionCsrfToken({ id: "req1", browserIdHash: "h1" });
    expect(checkInteractionCsrfToken({ id: "req1", browserIdHash: "h1", token })).toBe(true);
    expect(checkInteractionCsrfToken({ id: "req2", browserIdHash: "h1", token })).toBe(false);
    expect(checkInteractionCsrfToken({ id: "req1", browserIdHash: "h2", token })).toBe(false);
    expect(checkInteractionCsrfToken({ id: "req1", browserIdHash: "h1", token: undefined })).toBe(false);
  });
});

describe("describeConsent", () => {
  it("lists the union of identity and standard scope attributes the subscriber has, each once", () => {
    const t = getMessages(["en"]);
    const scopes = ["openid", "mc_identity_phonenumber", "mc_identity_nationalid", "phone", "email"];
    const subscriber = {
      id: "s1", msisdn: "447700900123", status: "active", pinHash: null, failedPinAttempts: 0, lockoutCount: 0,
      lockedUntil: null, userCodeHash: null, title: null, givenName: "Ada", middleName: null, familyName: "Lovelace", preferredUsername: null,
      gender: null, birthDate: "1815-12-10", locale: null, picture: null, website: null, email: "ada@example.test",
      emailVerified: true, phoneNumberAlternative: null, streetAddress: null, city: null, state: null, postalCode: null,
      country: null, nationalIdentifier: "QQ123456C", createdAt: new Date(0), updatedAt: new Date(0),
    };
    const { scopeLines, groups } = describeConsent({ scopes, t, shared: sharedAttributes(subscriber, scopes) });
    const attributes = groups.flatMap((g) => g.attributes.map((a) => a.label));
    expect(scopeLines.map((s) => s.scope)).toEqual(["openid", "mc_identity_phonenumber", "mc_identity_nationalid", "phone", "email"]);
    expect(attributes).toContain("Mobile number");
    expect(attributes).toContain("National identity number");
    expect(attributes).toContain("Email address");
    expect(new Set(attributes).size).toBe(attributes.length);
  });
});

describe("getMessages", () => {
  it("picks the first supported language and never fails", () => {
    expect(getMessages(["de", "fr-CA", "en"]).lang).toBe("fr");
    expect(getMessages(["xx", "__proto__", "constructor"]).lang).toBe("en");
    expect(getMessages(undefined).lang).toBe("en");
  });
  it("has every English text in French", () => {
    const keys = (o: object, p = ""): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(getMessages(["fr"])).sort()).toEqual(keys(getMessages(["en"])).sort());
  });
});

describe("amrForAcr", () => {
  it("uses RFC 8176 values", () => {
    expect(amrForAcr("2")).toEqual(["otp", "sms"]);
    expect(amrForAcr("3")).toEqual(["otp", "sms", "pin"]);
  });
});
