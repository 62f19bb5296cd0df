/**
 * The attributes of a KYC Match request (CAMARA KYC Match 0.3.0, lib/network-apis/openapi/kyc-match.yaml,
 * KYC_MatchRequestBody), in the document's order, and which of them the response may give a similarity score
 * (`<attr>MatchScore`, KYC_MatchResponse). `phoneNumber` is the subject, not an attribute.
 */
export const KYC_ATTRIBUTES = [
  "idDocument", "name", "givenName", "familyName", "nameKanaHankaku", "nameKanaZenkaku", "middleNames",
  "familyNameAtBirth", "address", "streetName", "streetNumber", "postalCode", "region", "locality", "country",
  "houseNumberExtension", "birthdate", "email", "gender",
] as const;

export type KycAttribute = (typeof KYC_ATTRIBUTES)[number];

/** The attributes whose response defines `<attr>MatchScore` (the others answer true / false / not_available only). */
export const SCORED_ATTRIBUTES: ReadonlySet<KycAttribute> = new Set<KycAttribute>([
  "name", "givenName", "familyName", "nameKanaHankaku", "nameKanaZenkaku", "middleNames", "familyNameAtBirth",
  "address", "streetName", "streetNumber", "region", "locality", "email",
]);

/** What the relying party sent: each attribute optional, already validated as a non-empty string. */
export type KycClaims = Partial<Record<KycAttribute, string>>;

/** MatchResult of the document: strings, not booleans. */
export type MatchResult = "true" | "false" | "not_available";

/** KYC_MatchResponse: `<attr>Match` for every attribute asked, `<attr>MatchScore` (0–100) beside some `false`s. */
export type KycMatchResponse = Record<string, MatchResult | number>;

/** The gender enum of the request. */
export const KYC_GENDERS = ["MALE", "FEMALE", "OTHER"] as const;
