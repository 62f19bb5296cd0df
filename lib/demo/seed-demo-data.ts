import { db } from "../db";
import { getKeys } from "../keys/key-store";
import { SUPPORTED_SCOPES } from "../oauth/scopes";
import { createClient, type CreateClientInput } from "../clients/create-client";
import { createSubscriber, type CreateSubscriberInput } from "../subscribers/create-subscriber";
import { ensurePlaygroundClient } from "../playground/ensure-playground-client";
import { addNetworkRange, listNetworkRanges } from "../network/manage-ranges";
import { NETWORK_API_SCOPES } from "../network-apis/camara-scopes";
import { createStaff } from "../console/staff-accounts";

// Documented in the README ("Demo data"). Fixed on purpose so a newcomer can follow the quick start;
// the secrets say "change-me" because they are public.
const REDIRECTS = {
  redirectUris: ["http://localhost:3000/callback", "http://127.0.0.1:3000/callback", "http://localhost:3000/playground/callback"],
  postLogoutRedirectUris: ["http://localhost:3000/"],
  // The redirect URIs span two hosts; one sector keeps the demo PCRs stable across them.
  sectorIdentifier: "localhost:3000",
  scopes: [...SUPPORTED_SCOPES],
};

const DEMO_CLIENTS: CreateClientInput[] = [
  {
    // The interface's own dialect stays demonstrable: nonce and state required, expires_in an absolute time.
    ...REDIRECTS, name: "DemoApp", profile: "mobile-connect", expiresInFormat: "timestamp",
    fixedCredentials: { clientId: "demo-client", clientSecret: "demo-secret-change-me" },
  },
  {
    // Operator SDKs read `expires_in` as relative seconds (field notes, "What client SDKs check").
    // The SDKs send nonce and state; mobile-connect as before profiles existed, with seconds.
    ...REDIRECTS, name: "DemoSdkApp", profile: "mobile-connect", expiresInFormat: "seconds",
    fixedCredentials: { clientId: "demo-client-sdk", clientSecret: "demo-sdk-secret-change-me" },
  },
  {
    // A call centre's server: CIBA in poll mode (docs/ciba.md), RFC 6749 seconds, OpenID Connect rules.
    ...REDIRECTS, name: "DemoCallCentre", profile: "oidc", expiresInFormat: "seconds",
    grantTypes: ["authorization_code", "refresh_token", "urn:openid:params:grant-type:ciba"],
    backchannelTokenDeliveryMode: "poll",
    fixedCredentials: { clientId: "demo-client-ciba", clientSecret: "demo-ciba-secret-change-me" },
  },
  {
    // A network-API consumer (issue 21, docs/network-apis.md): every API scope with the fraud-prevention purpose
    // (and KYC Match for identity verification, on consent),
    // three-legged by code and CIBA poll, two-legged (client_credentials) for SIM Swap and KYC Match. JWT-bearer
    // needs the client's own public keys (`client set --jwks`), so it is not part of the demo.
    ...REDIRECTS, name: "DemoNetworkApis", profile: "oidc", expiresInFormat: "seconds",
    scopes: ["openid", ...NETWORK_API_SCOPES, "dpv:FraudPreventionAndDetection", "dpv:IdentityVerification"],
    grantTypes: ["authorization_code", "refresh_token", "urn:openid:params:grant-type:ciba", "client_credentials"],
    backchannelTokenDeliveryMode: "poll",
    clientCredentialsScopes: ["sim-swap:check", "sim-swap:retrieve-date", "kyc-match:match",
      "dpv:FraudPreventionAndDetection"],
    // It may name a data session (CIBA's ipport: login hint; docs/network-authentication.md): the operator's choice.
    networkHintsAllowed: true,
    fixedCredentials: { clientId: "demo-client-camara", clientSecret: "demo-camara-secret-change-me" },
  },
];

/**
 * The operator's demo legal-basis declarations (ApiPurpose): every API for fraud prevention on the operator's
 * legitimate interest (so two-legged SIM Swap and KYC Match calls work), and KYC Match for identity verification on
 * the subscriber's consent (the consent screen and the account page's withdrawal). Created when missing, never
 * changed (an operator's own `purpose set` wins).
 */
const DEMO_PURPOSES = [
  ...NETWORK_API_SCOPES.map((scope) => ({ scope, purpose: "dpv:FraudPreventionAndDetection",
    legalBasis: "legitimate_interest" })),
  { scope: "kyc-match:match", purpose: "dpv:IdentityVerification", legalBasis: "consent" },
];

const FULL_IDENTITY = [
  "title=Ms", "given_name=Alice", "middle_name=Jane", "family_name=Example", "preferred_username=alice",
  "gender=female", "birth_date=1990-04-01", "locale=en-GB", "picture=https://example.com/alice.png",
  "website=https://alice.example.com", "email=alice@example.com", "email_verified=true",
  "phone_number_alternative=447700900999", "street_address=1 High Street", "city=London", "state=Greater London",
  "postal_code=SW1A 1AA", "country=GB", "national_identifier=QQ123456C",
];

const DEMO_SUBSCRIBERS: CreateSubscriberInput[] = [
  { msisdn: "447700900001", pin: "2580", attributes: FULL_IDENTITY },
  { msisdn: "447700900002", pin: "1357" },
  { msisdn: "447700900003", pin: "9753", status: "suspended", attributes: ["given_name=Sam", "family_name=Suspended"] },
  { msisdn: "447700900004", pin: "8642", attributes: ["given_name=Bob", "family_name=Partial", "email=bob@example.com"] },
];

/**
 * Seeds the demo data idempotently (run by `npm start` through prisma/seed.ts): signing and
 * encryption keys, the demo clients and subscribers. Rows that exist are left exactly as they are, except
 * the playground client, which follows this ISSUER (see ensurePlaygroundClient).
 */
/**
 * The console's demo staff (docs/console.md), one per role, with the published password and TOTP secret (base32,
 * the authenticator apps' example secret): only with DEMO_DATA, like every published demo credential.
 */
const DEMO_STAFF = [
  { username: "demo-admin", role: "admin" }, { username: "demo-care", role: "care" }, { username: "demo-viewer", role: "viewer" },
];
const DEMO_STAFF_CREDENTIALS = { password: "demo-console-change-me", totpSecret: "JBSWY3DPEHPK3PXP" };

/** The demo subscriber 447700900001's data session. */
const DEMO_NETWORK_RANGE = { cidr: "127.0.0.2/32", msisdn: "447700900001" };

export async function seedDemoData(): Promise<string> {
  const keys = await getKeys();
  const [clientIds, msisdns] = await Promise.all([
    db.client.findMany({ where: { id: { in: DEMO_CLIENTS.map((c) => c.fixedCredentials!.clientId) } }, select: { id: true } }),
    db.subscriber.findMany({ where: { msisdn: { in: DEMO_SUBSCRIBERS.map((s) => s.msisdn) } }, select: { msisdn: true } }),
  ]);
  const haveClient = new Set(clientIds.map((c) => c.id));
  const haveSubscriber = new Set(msisdns.map((s) => s.msisdn));
  let clients = 0;
  let subscribers = 0;
  for (const c of DEMO_CLIENTS) {
    if (haveClient.has(c.fixedCredentials!.clientId)) continue;
    await createClient(c);
    clients++;
  }
  for (const s of DEMO_SUBSCRIBERS) {
    if (haveSubscriber.has(s.msisdn)) continue;
    await createSubscriber(s);
    subscribers++;
  }
  for (const d of DEMO_PURPOSES) {
    await db.apiPurpose.upsert({ where: { scope_purpose: { scope: d.scope, purpose: d.purpose } }, create: d,
      update: {} });
  }
  // The demo's mobile data session (docs/network-authentication.md): requests from 127.0.0.2 come from the first
  // demo subscriber's handset, so network-based authentication can be tried with `curl --interface 127.0.0.2`.
  if (!(await listNetworkRanges({ msisdn: DEMO_NETWORK_RANGE.msisdn })).some((r) => r.cidr === DEMO_NETWORK_RANGE.cidr)) {
    await addNetworkRange(DEMO_NETWORK_RANGE);
  }
  await ensurePlaygroundClient();
  const haveStaff = new Set((await db.staff.findMany({ where: { username: { in: DEMO_STAFF.map((m) => m.username) } },
    select: { username: true } })).map((m) => m.username));
  let staff = 0;
  for (const m of DEMO_STAFF) {
    if (haveStaff.has(m.username)) continue;
    await createStaff({ ...m, fixed: DEMO_STAFF_CREDENTIALS });
    staff++;
  }
  return `Demo data: ${keys.length} published keys; playground client ready; ` +
    `clients ${clients} created, ${DEMO_CLIENTS.length - clients} kept; ` +
    `subscribers ${subscribers} created, ${DEMO_SUBSCRIBERS.length - subscribers} kept; ` +
    `console staff ${staff} created, ${DEMO_STAFF.length - staff} kept`;
}
