import { describe, expect, it } from "vitest";
import { CamaraError } from "../camara-error";
import { MAX_ATTRIBUTE_LENGTH, parseKycMatchBody } from "./body";

const codeOf = (json: unknown) => {
  try {
    parseKycMatchBody(json);
    return "accepted";
  } catch (err) {
    return err instanceof CamaraError ? `${err.status} ${err.code}` : "thrown";
  }
};

describe("parseKycMatchBody", () => {
  it("keeps the document's attributes, the phone number apart, and ignores other members", () => {
    expect(parseKycMatchBody({ phoneNumber: "+34629255833", givenName: "Federica", gender: "OTHER", extra: 1,
      birthdate: "2000-02-29", email: "a@b.example" })).toEqual({ phoneNumber: "+34629255833",
      claims: { givenName: "Federica", birthdate: "2000-02-29", email: "a@b.example", gender: "OTHER" } });
  });

  it("needs at least one attribute besides the phone number", () => {
    for (const body of [{}, { phoneNumber: "+34629255833" }, { other: "x" }]) {
      expect(codeOf(body)).toBe("400 KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION");
    }
  });

  it("refuses every malformed attribute with 400 INVALID_ARGUMENT", () => {
    for (const body of [{ givenName: 1 }, { givenName: "" }, { givenName: " " }, { givenName: null },
      { givenName: "x".repeat(MAX_ATTRIBUTE_LENGTH + 1) }, { birthdate: "2001-02-29" }, { birthdate: "2001-2-3" },
      { email: "a@b" }, { email: "a b@c.example" }, { gender: "Male" }]) {
      expect(codeOf(body), JSON.stringify(body)).toBe("400 INVALID_ARGUMENT");
    }
    expect(codeOf({ givenName: "x".repeat(MAX_ATTRIBUTE_LENGTH) })).toBe("accepted");
  });
});
