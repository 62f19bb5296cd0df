import { describe, expect, it } from "vitest";
import { openApiErrors } from "@/test/support/openapi-validate";
import { openApiDocumentText } from "./openapi-document";

/** The served documents are the published ones, and the validator the API tests use does reject what it should. */
describe("network APIs' OpenAPI documents", () => {
  it("serves each API's published definition, with its version path", async () => {
    expect(await openApiDocumentText("number-verification")).toContain("url: '{apiRoot}/number-verification/v2'");
    expect(await openApiDocumentText("sim-swap")).toContain('url: "{apiRoot}/sim-swap/v2"');
    expect(await openApiDocumentText("kyc-match")).toContain("url: '{apiRoot}/kyc-match/v0.3'");
  });

  it("accepts a documented answer and rejects a wrong shape or an undocumented status", () => {
    expect(openApiErrors("number-verification", "/verify", "POST",
      { status: 200, body: { devicePhoneNumberVerified: true } })).toEqual([]);
    expect(openApiErrors("number-verification", "/verify", "POST",
      { status: 200, body: { devicePhoneNumberVerified: "yes" } })).not.toEqual([]);
    expect(openApiErrors("number-verification", "/verify", "POST",
      { status: 403, body: { status: 403, code: "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK",
        message: "x" } })).toEqual([]);
    expect(openApiErrors("number-verification", "/verify", "POST",
      { status: 403, body: { status: 403, code: "SOMETHING_ELSE", message: "x" } })).not.toEqual([]);
    expect(openApiErrors("sim-swap", "/check", "POST", { status: 200, body: { swapped: false } })).toEqual([]);
    expect(openApiErrors("sim-swap", "/retrieve-date", "POST",
      { status: 200, body: { latestSimChange: "2026-11-25T10:00:00Z" } })).toEqual([]);
    expect(openApiErrors("sim-swap", "/check", "POST", { status: 418, body: {} })).not.toEqual([]);
  });
});
