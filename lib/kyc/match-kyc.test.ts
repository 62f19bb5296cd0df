import { describe, expect, it } from "vitest";
import { kycRecordOf, parseStreet, type KycRecord } from "./kyc-record";
import { coarseScore, matchKyc } from "./match-kyc";
import { normaliseText, similarity } from "./normalise";

const ROW = {
  nationalIdentifier: "66666666-Q", givenName: "Federica", middleName: "María", familyName: "Sánchez Arjona",
  streetAddress: "Calle Nicolás Salmerón 4", postalCode: "28460", state: "Madrid", city: "Los Molinos", country: "ES",
  birthDate: "1978-08-22", email: "Federica@Example.com", emailVerified: true, gender: "female",
};
const RECORD: KycRecord = kycRecordOf(ROW);
const EMPTY: KycRecord = kycRecordOf({ nationalIdentifier: null, givenName: null, middleName: null, familyName: null,
  streetAddress: null, postalCode: null, state: null, city: null, country: null, birthDate: null, email: null,
  emailVerified: false, gender: null });

describe("normaliseText", () => {
  it("folds case, accents, punctuation and whitespace", () => {
    expect(normaliseText("  SÁNCHEZ-Arjona,  O’Brien ")).toBe("sanchez arjona o brien");
    expect(normaliseText("Ｆｅｄｅｒｉｃａ")).toBe("federica");
    expect(normaliseText("Zoë\tÇelik")).toBe("zoe celik");
  });
});

describe("similarity", () => {
  it("is 100 for equal strings, at most 99 for different ones, 0 for nothing in common", () => {
    expect(similarity("federica", "federica")).toBe(100);
    expect(similarity("federica", "federico")).toBe(88);
    expect(similarity("a".repeat(250), "a".repeat(249) + "b")).toBe(99);
    expect(similarity("abc", "xyz")).toBe(0);
  });
});

describe("matchKyc", () => {
  it("answers only the attributes asked, in the document's order", () => {
    expect(matchKyc({ givenName: "Federica" }, RECORD)).toEqual({ givenNameMatch: "true" });
  });

  it("matches names regardless of case, accents and punctuation", () => {
    expect(matchKyc({ givenName: "FEDERICA", familyName: "sanchez-arjona", middleNames: "Maria" }, RECORD)).toEqual({
      givenNameMatch: "true", familyNameMatch: "true", middleNamesMatch: "true" });
  });

  it("scores a name that differs: a coarse score (80 or 90) when close, none when not", () => {
    // similarity 88 → 80; "garcia" against "sanchez arjona" is far below the threshold: no score.
    expect(matchKyc({ givenName: "Federico", familyName: "Garcia" }, RECORD)).toEqual({
      givenNameMatch: "false", givenNameMatchScore: 80, familyNameMatch: "false" });
  });

  it("coarseScore: nothing below 80, else rounded down to a multiple of 10", () => {
    expect([0, 50, 79, 80, 88, 89, 90, 99].map(coarseScore)).toEqual([undefined, undefined, undefined, 80, 80, 80,
      90, 90]);
  });

  it("compares the complete name with given (+ middle) + family in either order", () => {
    for (const name of ["Federica María Sánchez Arjona", "federica sanchez arjona", "Sánchez Arjona, Federica",
      "Sanchez Arjona Federica Maria"]) {
      expect(matchKyc({ name }, RECORD), name).toEqual({ nameMatch: "true" });
    }
    const wrong = matchKyc({ name: "Federica Sanches Arjona" }, RECORD);
    expect(wrong.nameMatch).toBe("false");
    expect(wrong.nameMatchScore).toBe(90); // similarity 96
  });

  it("answers not_available for the complete name unless both given and family names are held", () => {
    const half = kycRecordOf({ ...ROW, familyName: null });
    expect(matchKyc({ name: "Federica Sanchez", givenName: "Federica" }, half)).toEqual({
      nameMatch: "not_available", givenNameMatch: "true" });
  });

  it("answers not_available for every attribute the record does not hold", () => {
    const all = { idDocument: "1", name: "A B", givenName: "A", familyName: "B", nameKanaHankaku: "ｱ",
      nameKanaZenkaku: "ア", middleNames: "C", familyNameAtBirth: "D", address: "1 X Street", streetName: "X",
      streetNumber: "1", postalCode: "1", region: "R", locality: "L", country: "ES", houseNumberExtension: "2",
      birthdate: "2000-01-01", email: "a@b.example", gender: "OTHER" };
    const answer = matchKyc(all, EMPTY);
    expect(Object.keys(answer)).toHaveLength(19);
    expect(new Set(Object.values(answer))).toEqual(new Set(["not_available"]));
  });

  it("never answers the columns the record lacks (kana, family name at birth, house number extension)", () => {
    expect(matchKyc({ nameKanaHankaku: "ﾌｪﾃﾞﾘｶ", familyNameAtBirth: "Sánchez", houseNumberExtension: "2B" }, RECORD))
      .toEqual({ nameKanaHankakuMatch: "not_available", familyNameAtBirthMatch: "not_available",
        houseNumberExtensionMatch: "not_available" });
  });

  it("compares the document number and postal code without separators or case, exactly (no score)", () => {
    expect(matchKyc({ idDocument: "66666666q", postalCode: "28 460" }, RECORD)).toEqual({
      idDocumentMatch: "true", postalCodeMatch: "true" });
    expect(matchKyc({ idDocument: "66666667Q", postalCode: "28461" }, RECORD)).toEqual({
      idDocumentMatch: "false", postalCodeMatch: "false" });
  });

  it("compares birth dates exactly, and a partial record date is not_available", () => {
    expect(matchKyc({ birthdate: "1978-08-22" }, RECORD)).toEqual({ birthdateMatch: "true" });
    expect(matchKyc({ birthdate: "1978-08-23" }, RECORD)).toEqual({ birthdateMatch: "false" });
    expect(matchKyc({ birthdate: "1978-08-22" }, kycRecordOf({ ...ROW, birthDate: "0000-08-22" })))
      .toEqual({ birthdateMatch: "not_available" });
    expect(matchKyc({ birthdate: "1978-08-22" }, kycRecordOf({ ...ROW, birthDate: "1978" })))
      .toEqual({ birthdateMatch: "not_available" });
  });

  it("compares e-mail case-insensitively, never scores a near miss, ignores an unverified address", () => {
    expect(matchKyc({ email: "FEDERICA@example.COM" }, RECORD)).toEqual({ emailMatch: "true" });
    expect(matchKyc({ email: "federico@example.com" }, RECORD)).toEqual({ emailMatch: "false" });
    expect(matchKyc({ email: "federica@example.com" }, kycRecordOf({ ...ROW, emailVerified: false })))
      .toEqual({ emailMatch: "not_available" });
  });

  it("maps gender: MALE / FEMALE to the record's male / female, OTHER to anything else", () => {
    expect(matchKyc({ gender: "FEMALE" }, RECORD)).toEqual({ genderMatch: "true" });
    expect(matchKyc({ gender: "MALE" }, RECORD)).toEqual({ genderMatch: "false" });
    expect(matchKyc({ gender: "OTHER" }, kycRecordOf({ ...ROW, gender: "non-binary" }))).toEqual({ genderMatch: "true" });
  });

  it("compares the address, its street name and number, region, locality and country", () => {
    expect(matchKyc({ address: "calle nicolas salmeron 4", streetName: "Calle Nicolás Salmerón", streetNumber: "4",
      region: "MADRID", locality: "los molinos", country: "es" }, RECORD)).toEqual({ addressMatch: "true",
      streetNameMatch: "true", streetNumberMatch: "true", regionMatch: "true", localityMatch: "true",
      countryMatch: "true" });
    expect(matchKyc({ address: "Calle Nicolás Salmerón 4, 28460 Los Molinos" }, RECORD)).toEqual({ addressMatch: "true" });
    const answer = matchKyc({ streetName: "Nicolas Salmeron", streetNumber: "5", country: "PT" }, RECORD);
    expect(answer).toMatchObject({ streetNameMatch: "false", streetNumberMatch: "false", countryMatch: "false" });
    expect(answer).not.toHaveProperty("streetNumberMatchScore"); // similarity 0: below the threshold
    expect(similarity("nicolas salmeron", "calle nicolas salmeron")).toBe(73);
    expect(answer).not.toHaveProperty("streetNameMatchScore"); // 73: below the threshold
    expect(answer).not.toHaveProperty("countryMatchScore");
    expect(matchKyc({ country: "ES" }, kycRecordOf({ ...ROW, country: "Spain" }))).toEqual({ countryMatch: "not_available" });
  });

  it("never returns any of the record's values", () => {
    const answer = JSON.stringify(matchKyc({ name: "X Y", givenName: "X", familyName: "Y", email: "x@y.example",
      idDocument: "1", address: "2 Z Road", birthdate: "2000-01-01" }, RECORD));
    for (const value of Object.values(ROW)) {
      if (typeof value === "string" && value.length > 4) expect(answer.toLowerCase()).not.toContain(value.toLowerCase());
    }
  });
});

describe("parseStreet", () => {
  it("reads a house number first or last on the first line", () => {
    expect(parseStreet("1 High Street")).toEqual({ number: "1", name: "high street" });
    expect(parseStreet("Calle Mayor 12B, izquierda")).toEqual({ number: "12b", name: "calle mayor" });
  });

  it("gives up when the number is ambiguous or absent", () => {
    expect(parseStreet("Flat 3, 12 High Street")).toBeNull();
    expect(parseStreet("Calle Mayor 12B, 2º izq.")).toBeNull();
    expect(parseStreet("12 Route 66")).toBeNull();
    expect(parseStreet("Rose Cottage")).toBeNull();
    expect(parseStreet("12")).toBeNull();
  });
});
