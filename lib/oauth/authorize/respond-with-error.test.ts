import { describe, expect, it, vi } from "vitest";
import { logger } from "../../log";
import { DatabaseUnavailableError } from "../../http/is-database-unavailable";
import { AccessDenied, AuthorizePageError, InvalidRequest, OAuthError, RequestTooLarge, ServerError } from "../errors";
import * as errorsModule from "../errors";
import { respondWithError } from "./respond-with-error";
import type { RedirectTarget } from "./redirect-to-client";

// The one error model (lib/oauth/errors.ts): every error says whether it may be redirected; the
// authorization endpoint asks it (RFC 6749 §4.1.2.1) instead of testing classes.
const target: RedirectTarget = { redirectUri: "https://rp.example/cb", state: "xyz", status: 302 };
const query = (res: Response) => Object.fromEntries(new URL(res.headers.get("location")!).searchParams);

describe("the OAuthError hierarchy", () => {
  it("has AuthorizePageError as its one member that is never redirected, with its status", () => {
    const err = new AuthorizePageError("invalid_request", "Unknown client.", 405);
    expect(err).toBeInstanceOf(OAuthError);
    expect([err.error, err.description, err.status, err.redirectable]).toEqual(["invalid_request", "Unknown client.",
      405, false]);
    expect(new AuthorizePageError("invalid_request", "x").status).toBe(400);
    expect(err.message).toBe("invalid_request: Unknown client.");
  });

  it("lets every other exported error be redirected", () => {
    for (const [name, value] of Object.entries(errorsModule)) {
      if (typeof value !== "function" || name === "AuthorizePageError" || name === "ClientAuthThrottled") continue;
      const Ctor = value as new (d: string) => OAuthError;
      const err = name === "OAuthError" ? new OAuthError("x", "d") : new Ctor("d");
      expect(err.redirectable, name).toBe(true);
    }
    expect(new errorsModule.ClientAuthThrottled(3).redirectable).toBe(true);
  });
});

describe("respondWithError", () => {
  it("redirects a redirectable error once the target is verified", () => {
    const res = respondWithError(new AccessDenied("no"), target, "r1");
    expect(res.status).toBe(302);
    expect(query(res)).toMatchObject({ error: "access_denied", error_description: "no", state: "xyz" });
  });

  it("shows a redirectable error without a target on a 400 page, whatever its own status", async () => {
    for (const err of [new InvalidRequest("bad"), new AccessDenied("no"), new RequestTooLarge("big")]) {
      const res = respondWithError(err, undefined, "r1");
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      const html = await res.text();
      expect(html).toContain(`Error code: ${err.error}`);
      expect(html).toContain("This sign-in request cannot be processed");
    }
  });

  it("never redirects an AuthorizePageError, and answers with its status", async () => {
    const res = respondWithError(new AuthorizePageError("invalid_request", "Too large.", 413), target, "r2");
    expect(res.status).toBe(413);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain("Too large.");
    expect(html).toContain("Reference: r2");
  });

  it("answers an unavailable database with temporarily_unavailable: redirected, else the 503 page", async () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const redirected = respondWithError(new DatabaseUnavailableError(), target, "r3");
    expect(redirected.status).toBe(302);
    expect(query(redirected)).toMatchObject({ error: "temporarily_unavailable",
      error_description: "The service is temporarily unavailable." });
    const page = respondWithError(new DatabaseUnavailableError(), undefined, "r4");
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect(await page.text()).toContain("Reference: r4");
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]![0]).toMatchObject({ requestId: "r4" });
    warn.mockRestore();
  });

  it("answers anything else with server_error: redirected, else a 500 page", () => {
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    expect(query(respondWithError(new Error("boom"), target, "r5"))).toMatchObject({ error: "server_error" });
    expect(respondWithError(new TypeError("boom"), undefined, "r6").status).toBe(500);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
    expect(new ServerError("x").redirectable).toBe(true);
  });
});

describe("the authorization error page's language and words", () => {
  const req = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

  it("speaks the language of ui_locales, keeping the status and the error code for the developer", async () => {
    const res = respondWithError(new AuthorizePageError("invalid_request", "redirect_uri is not registered"), target,
      "r7", req("https://op.example/authorize?client_id=x&ui_locales=de%20fr-CA"));
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Cette demande de connexion ne peut pas être traitée");
    expect(html).toContain("Code d&#39;erreur: invalid_request");
    expect(html).toContain("redirect_uri is not registered");
    expect(html).toContain("Référence: r7");
  });

  it("falls back to Accept-Language (q-values honoured), then English", async () => {
    const fr = await respondWithError(new InvalidRequest("bad"), undefined, "r8",
      req("https://op.example/authorize", { "accept-language": "de;q=0.9, fr-FR;q=0.95, en;q=0.1" })).text();
    expect(fr).toContain('<html lang="fr">');
    const en = await respondWithError(new InvalidRequest("bad"), undefined, "r9",
      req("https://op.example/authorize?ui_locales=%3Cscript%3E", { "accept-language": "fr;q=0" })).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("You are not signed in.");
    expect(en).toContain("Details for the app&#39;s developer");
    expect(en).not.toContain("<script>");
  });

  it("escapes a reflected description", async () => {
    const html = await respondWithError(new InvalidRequest("<img src=x onerror=alert(1)>"), undefined, "r10").text();
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;img");
  });
});
