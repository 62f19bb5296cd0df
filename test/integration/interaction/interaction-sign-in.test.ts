import { beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { maskMsisdn } from "@/lib/messaging/mask-msisdn";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { flowPoster, latestCode } from "@/test/support/sign-in-http";
import { beginAuthorization, csrfOf, getInteraction } from "@/e2e/fixtures/interaction-http";

const baseUrl = inject("baseUrl");
let client: Awaited<ReturnType<typeof createTestClient>>;

beforeAll(async () => {
  client = await createTestClient();
});

const post = flowPoster(baseUrl);
const errorOf = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("e");

describe("sign-in by one-time code", () => {
  it("stores only a salted hash of the code and sends it to the handset", async () => {
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: `+${s.msisdn.slice(0, 2)} ${s.msisdn.slice(2)}` });
    const code = await latestCode(s.msisdn);
    expect(code).toMatch(/^\d{6}$/);
    const row = await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } });
    expect(row.subscriberId).toBe(s.id);
    expect(row.otpHash).toBeTruthy();
    expect(row.otpHash).not.toContain(code!);
    const ok = await post(f, "code", { code: code! });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    const done = await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } });
    expect(done).toMatchObject({ status: "authenticated", subscriberId: s.id, otpHash: null });
    const session = await db.session.findUniqueOrThrow({ where: { id: done.sessionId! } });
    expect(session).toMatchObject({ subscriberId: s.id, acr: "2", amr: "otp sms" });
  });

  it("refuses a malformed number without sending anything", async () => {
    const f = await beginAuthorization(baseUrl, client);
    for (const msisdn of ["0770O 900123", "07700 900123 4567", "+44 7700 900123 ext"]) {
      const res = await post(f, "msisdn", { msisdn });
      expect(errorOf(res)).toBe("msisdn_invalid");
      expect(res.headers.get("location")).not.toContain("7700");
    }
  });

  it("accepts the national format of DEFAULT_COUNTRY (GB) and signs in", async () => {
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    const national = `0${s.msisdn.slice(2, 6)} ${s.msisdn.slice(6)}`;
    const res = await post(f, "msisdn", { msisdn: national });
    expect(errorOf(res)).toBeNull();
    const code = await latestCode(s.msisdn);
    expect(code).toMatch(/^\d{6}$/);
    const row = await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } });
    expect(row.subscriberId).toBe(s.id);
    const ok = await post(f, "code", { code: code! });
    expect(ok.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
  });

  it("treats an unknown or suspended number exactly like a known one, and fails at the code", async () => {
    const suspended = await createTestSubscriber({ status: "suspended" });
    for (const msisdn of ["999000111222", suspended.msisdn]) {
      const f = await beginAuthorization(baseUrl, client);
      const res = await post(f, "msisdn", { msisdn });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`${baseUrl}/interaction/${f.id}`);
      expect(await db.message.count({ where: { msisdn } })).toBe(0);
      const page = await getInteraction(baseUrl, f.id, f.cookie);
      expect(page.html).toContain('name="code"');
      // Issue 17: the typed number is shown back masked, known or not; never more of it.
      expect(page.html).toContain(maskMsisdn(msisdn));
      expect(page.html).not.toContain(msisdn);
      expect(errorOf(await post(f, "code", { code: "123456" }))).toBe("code_invalid");
    }
  });

  it("burns the code after three wrong attempts; a new code works", async () => {
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: s.msisdn });
    const code = (await latestCode(s.msisdn))!;
    const wrong = code === "000000" ? "111111" : "000000";
    expect(errorOf(await post(f, "code", { code: wrong }))).toBe("code_invalid");
    expect(errorOf(await post(f, "code", { code: wrong }))).toBe("code_invalid");
    expect(errorOf(await post(f, "code", { code: wrong }))).toBe("code_burnt");
    expect(errorOf(await post(f, "code", { code }))).toBe("code_burnt");
    const page = await getInteraction(baseUrl, f.id, f.cookie);
    expect(page.html).not.toContain('name="code"');
    expect(page.html).toContain("Request a new code");
    await post(f, "resend");
    const fresh = (await latestCode(s.msisdn))!;
    const res = await post(f, "code", { code: fresh });
    expect(res.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
  });

  it("refuses an expired code", async () => {
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: s.msisdn });
    await db.authorizationRequest.update({ where: { id: f.id }, data: { otpSentAt: new Date(Date.now() - 3_600_000) } });
    expect(errorOf(await post(f, "code", { code: (await latestCode(s.msisdn))! }))).toBe("code_expired");
  });

  it("at level 3 checks the PIN, counts failures on the subscriber and resets them on success", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const f = await beginAuthorization(baseUrl, client, { acr_values: "3" });
    await post(f, "msisdn", { msisdn: s.msisdn });
    const code = (await latestCode(s.msisdn))!;
    expect(errorOf(await post(f, "code", { code }))).toBe("pin_missing");
    expect(errorOf(await post(f, "code", { code, pin: "0000" }))).toBe("pin_invalid");
    expect((await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).failedPinAttempts).toBe(1);
    const ok = await post(f, "code", { code, pin: "8642" });
    expect(ok.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    expect((await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).failedPinAttempts).toBe(0);
    const row = await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } });
    const session = await db.session.findUniqueOrThrow({ where: { id: row.sessionId! } });
    expect(session).toMatchObject({ acr: "3", amr: "otp sms pin" });
  });

  it("cancel denies the request", async () => {
    const f = await beginAuthorization(baseUrl, client);
    const res = await post(f, "cancel");
    expect(res.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("denied");
    const resume = await fetch(res.headers.get("location")!, { headers: { cookie: f.cookie }, redirect: "manual" });
    const back = new URL(resume.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("st-123");
  });
});

describe("consent", () => {
  async function signedIn(params: Record<string, string>) {
    const s = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client, params);
    await post(f, "msisdn", { msisdn: s.msisdn });
    await post(f, "code", { code: (await latestCode(s.msisdn))! });
    const resume = await fetch(`${baseUrl}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    expect(resume.headers.get("location")).toBe(`${baseUrl}/interaction/${f.id}`);
    const page = await getInteraction(baseUrl, f.id, f.cookie);
    return { s, f: { ...f, csrf: csrfOf(page.html) }, html: page.html };
  }

  it("shows mc_authz context and binding message escaped, and never remembers them", async () => {
    const { s, f, html } = await signedIn({
      scope: "openid mc_authz", context: "<b>Pay</b> £10 & \"more\"", binding_message: "<script>x</script>",
    });
    expect(html).toContain("&lt;b&gt;Pay&lt;/b&gt; £10 &amp; &quot;more&quot;");
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).not.toContain("<script>x</script>");
    const res = await post(f, "consent", { decision: "allow" });
    expect(res.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    expect(await db.grant.count({ where: { subscriberId: s.id } })).toBe(0);
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("consented");
  });

  it("remembers an allowed scope set as a union", async () => {
    const { s, f } = await signedIn({ scope: "openid mc_identity_phonenumber" });
    await db.grant.create({ data: { id: `g-${s.id}`, subscriberId: s.id, clientId: client.id, scope: "openid email" } });
    await post(f, "consent", { decision: "allow" });
    const grant = await db.grant.findUniqueOrThrow({ where: { subscriberId_clientId: { subscriberId: s.id, clientId: client.id } } });
    expect(grant.scope.split(" ").sort()).toEqual(["email", "mc_identity_phonenumber", "openid"]);
    expect(await db.pairwiseSubject.count({ where: { subscriberId: s.id } })).toBe(1);
  });

  it("deny sets denied; an unknown decision changes nothing", async () => {
    const { f } = await signedIn({ scope: "openid mc_authn" });
    expect((await post(f, "consent", { decision: "maybe" })).headers.get("location")).toBe(`${baseUrl}/interaction/${f.id}`);
    await post(f, "consent", { decision: "deny" });
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("denied");
  });
});
