import { describe, expect, it } from "vitest";
import type { LiveSession } from "../../sessions/live-session";
import { chooseSession, sessionSatisfies } from "./choose-session";
import { consentAlwaysAsked, needsConsent } from "./needs-consent";
import { redirectError, redirectToClient } from "./redirect-to-client";

const T = 1_800_000_000; // request time, seconds
const at = (s: number) => new Date(s * 1000);
const session = (over: Partial<LiveSession> = {}): LiveSession => ({
  id: "s1", subscriberId: "alice", authTime: at(T - 60), acr: "2", amr: "otp sms", ...over,
});
const params = (over: Partial<{ prompt: string[]; maxAge: number; acr: "2" | "3"; hintedSubscriberId: string;
  freshCodeSignIn: true }> = {}) => ({
  prompt: [], acr: "2" as const, requestedAt: T, ...over,
});

describe("sessionSatisfies", () => {
  it("accepts a plain session", () => {
    expect(sessionSatisfies(session(), params())).toBe(true);
  });

  it("prompt=login only accepts the session signed in for this request, after it was made", () => {
    expect(sessionSatisfies(session(), params({ prompt: ["login"] }))).toBe(false);
    const own = session({ authTime: at(T + 5) });
    expect(sessionSatisfies(own, params({ prompt: ["login"] }), { id: "r", status: "authenticated", sessionId: "s1" })).toBe(true);
    // attached by account selection, but older than the request: still no
    expect(sessionSatisfies(session(), params({ prompt: ["login"] }), { id: "r", status: "authenticated", sessionId: "s1" }))
      .toBe(false);
  });

  it("a client that always needs a fresh code sign-in takes only this request's own text-message sign-in", () => {
    const own = { id: "r", status: "authenticated", sessionId: "s1" };
    const fresh = params({ freshCodeSignIn: true });
    // Even without prompt=login in the request: another app's session, older or newer, does not answer.
    expect(sessionSatisfies(session(), fresh)).toBe(false);
    expect(sessionSatisfies(session({ authTime: at(T + 5) }), fresh)).toBe(false);
    expect(sessionSatisfies(session({ authTime: at(T + 5) }), fresh, own)).toBe(true);
    expect(sessionSatisfies(session({ authTime: at(T + 5), amr: "otp sms pin", acr: "3" }), fresh, own)).toBe(true);
    // Its own session, but by the network or a handset approval: no.
    for (const amr of ["nba", "mca", "mca pin"]) {
      expect(sessionSatisfies(session({ authTime: at(T + 5), amr }), fresh, own), amr).toBe(false);
    }
  });

  it("max_age counts from the request time, so a sign-in for the request satisfies max_age=0", () => {
    expect(sessionSatisfies(session({ authTime: at(T - 60) }), params({ maxAge: 60 }))).toBe(true);
    expect(sessionSatisfies(session({ authTime: at(T - 61) }), params({ maxAge: 60 }))).toBe(false);
    expect(sessionSatisfies(session({ authTime: at(T - 1) }), params({ maxAge: 0 }))).toBe(false);
    expect(sessionSatisfies(session({ authTime: at(T + 30) }), params({ maxAge: 0 }))).toBe(true);
  });

  it("needs at least the requested level (step up otherwise)", () => {
    expect(sessionSatisfies(session({ acr: "2" }), params({ acr: "3" }))).toBe(false);
    expect(sessionSatisfies(session({ acr: "3" }), params({ acr: "2" }))).toBe(true);
  });

  it("ignores sessions of another subscriber than the hint names", () => {
    expect(sessionSatisfies(session(), params({ hintedSubscriberId: "bob" }))).toBe(false);
    expect(sessionSatisfies(session(), params({ hintedSubscriberId: "alice" }))).toBe(true);
  });
});

describe("chooseSession", () => {
  const a = session({ id: "a", subscriberId: "alice", authTime: at(T - 100) });
  const b = session({ id: "b", subscriberId: "bob", authTime: at(T - 10) });

  it("no session -> login", () => {
    expect(chooseSession({ params: params(), sessions: [] })).toEqual({ step: "login" });
  });

  it("several sessions of one subscriber -> the most recent sign-in", () => {
    const a2 = session({ id: "a2", subscriberId: "alice", authTime: at(T - 5) });
    expect(chooseSession({ params: params(), sessions: [a, a2] })).toEqual({ step: "session", session: a2 });
  });

  it("sessions of several subscribers -> never picks one silently: account selection (issue 15, login CSRF)", () => {
    expect(chooseSession({ params: params(), sessions: [a, b] })).toEqual({ step: "select_account" });
    expect(chooseSession({ params: params({ prompt: ["none"] }), sessions: [a, b] })).toEqual({ step: "select_account" });
  });

  it("several sessions and select_account -> account selection; one -> that one", () => {
    expect(chooseSession({ params: params({ prompt: ["select_account"] }), sessions: [a, b] })).toEqual({ step: "select_account" });
    expect(chooseSession({ params: params({ prompt: ["select_account"] }), sessions: [a] })).toEqual({ step: "session", session: a });
  });

  it("only sessions satisfying the request count", () => {
    const strong = session({ id: "c", acr: "3", authTime: at(T - 500) });
    expect(chooseSession({ params: params({ acr: "3" }), sessions: [a, b, strong] })).toEqual({ step: "session", session: strong });
    expect(chooseSession({ params: params({ acr: "3" }), sessions: [a, b] })).toEqual({ step: "login" });
  });

  it("a request the screens signed in uses its own session, or signs in again when it no longer qualifies", () => {
    const request = { id: "r", status: "authenticated", sessionId: "a" };
    expect(chooseSession({ params: params(), sessions: [a, b], request })).toEqual({ step: "session", session: a });
    expect(chooseSession({ params: params(), sessions: [b], request })).toEqual({ step: "login" });
    expect(chooseSession({ params: params({ acr: "3" }), sessions: [a], request })).toEqual({ step: "login" });
  });
});

describe("needsConsent", () => {
  const p = (scopes: string[], prompt: string[] = []) => ({ scopes, prompt });

  it("remembered consent covering every scope suffices; more scopes ask again", () => {
    expect(needsConsent({ params: p(["openid"]), grantedScopes: ["openid", "mc_authn"], sessionId: "s" })).toBe(false);
    expect(needsConsent({ params: p(["openid", "mc_identity_phonenumber"]), grantedScopes: ["openid"], sessionId: "s" })).toBe(true);
    expect(needsConsent({ params: p(["openid"]), grantedScopes: null, sessionId: "s" })).toBe(true);
  });

  it("a network-API request asking only openid and API scopes whose basis needs no consent asks nothing", () => {
    const nv = ["openid", "number-verification:verify", "dpv:FraudPreventionAndDetection"];
    expect(needsConsent({ params: p(nv), grantedScopes: null, sessionId: "s" })).toBe(false);
    expect(needsConsent({ params: p(nv), grantedScopes: null, sessionId: "s", apiConsentMissing: true })).toBe(true);
    expect(needsConsent({ params: p([...nv, "profile"]), grantedScopes: null, sessionId: "s" })).toBe(true);
    expect(needsConsent({ params: p(nv, ["consent"]), grantedScopes: null, sessionId: "s" })).toBe(true);
  });

  it("prompt=consent and mc_authz are never remembered", () => {
    expect(consentAlwaysAsked(p(["openid"], ["consent"]))).toBe(true);
    expect(consentAlwaysAsked(p(["openid", "mc_authz"]))).toBe(true);
    expect(needsConsent({ params: p(["openid", "mc_authz"]), grantedScopes: ["openid", "mc_authz"], sessionId: "s" })).toBe(true);
  });

  it("this request's consent suffices, for the session it was given with", () => {
    const request = { id: "r", status: "consented", sessionId: "s" };
    expect(needsConsent({ params: p(["openid", "mc_authz"], ["consent"]), grantedScopes: null, request, sessionId: "s" })).toBe(false);
    expect(needsConsent({ params: p(["openid"]), grantedScopes: null, request, sessionId: "other" })).toBe(true);
  });
});

describe("redirectToClient", () => {
  it("keeps the registered query byte for byte and adds state and iss", () => {
    const res = redirectToClient({ redirectUri: "https://rp.example/cb?x=a%20b&y", state: "s t&", status: 302 }, { code: "c" });
    const location = res.headers.get("location")!;
    expect(location.startsWith("https://rp.example/cb?x=a%20b&y&code=c&state=s%20t%26&iss=")).toBe(true);
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("limits error_description to the RFC 6749 character set", () => {
    const res = redirectError({ redirectUri: "https://rp.example/cb", status: 303 }, "invalid_request", "bad \"x\" \\ é\n");
    const url = new URL(res.headers.get("location")!);
    expect(url.searchParams.get("error_description")).toBe("bad x  ");
    expect(url.searchParams.has("state")).toBe(false);
    expect(res.status).toBe(303);
  });
});
