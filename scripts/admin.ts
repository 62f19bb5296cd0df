// Operator administration CLI: `npm run admin -- <command> [--json]` (docs/operations.md, "Operator administration").
//
// Output contract (scripts rely on it):
// - success: human text on stdout, or with --json exactly one JSON object on stdout; exit 0.
// - failure: without --json one line on stderr; with --json one `{"error": "..."}` object on stdout
//   (stdout, so a script reads one stream whatever happens); exit 1. Bad input changes nothing.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command, CommanderError, Option } from "commander";

// Same local set-up as `npm start` (scripts/start.mjs), before anything reads the configuration.
// Imported by URL: env.mjs is plain JavaScript without type declarations.
const env = (await import(new URL("./env.mjs", import.meta.url).href)) as {
  ensureLocalSecrets(): void;
  projectRoot: string;
};
const jsonMode = process.argv.includes("--json");
if (!process.env.KEY_ENCRYPTION_SECRET || !process.env.SUBJECT_SECRET) {
  // Its first-run notice goes to stderr so stdout keeps to the output contract.
  const log = console.log;
  console.log = console.error;
  env.ensureLocalSecrets();
  console.log = log;
}
process.env.DATABASE_URL ||= `file:${path.join(env.projectRoot, "prisma", "dev.db")}`;

// Loaded only now, after the environment is complete.
const { AdminError } = await import("../lib/admin/admin-error");
const { createClient } = await import("../lib/clients/create-client");
const { listClients } = await import("../lib/clients/list-clients");
const { getClientOrThrow } = await import("../lib/clients/get-client-or-throw");
const { deleteClient } = await import("../lib/clients/delete-client");
const { rotateClientSecret } = await import("../lib/clients/rotate-client-secret");
const { updateClient } = await import("../lib/clients/update-client");
const { disableClient, enableClient } = await import("../lib/clients/set-client-disabled"); // console (issue 22)
const { createSubscriber } = await import("../lib/subscribers/create-subscriber");
const { listSubscribers } = await import("../lib/subscribers/list-subscribers");
const { getSubscriberByMsisdn } = await import("../lib/subscribers/get-subscriber-by-msisdn");
const { getSubscriberByMsisdnOrThrow } = await import("../lib/subscribers/get-subscriber-by-msisdn-or-throw");
const { setSubscriberPin } = await import("../lib/subscribers/set-subscriber-pin");
const { suspendSubscriber } = await import("../lib/subscribers/suspend-subscriber");
const { activateSubscriber } = await import("../lib/subscribers/activate-subscriber");
const { unlockSubscriber } = await import("../lib/subscribers/unlock-subscriber");
const { toSubscriberRecord } = await import("../lib/subscribers/subscriber-record");
const { normaliseMsisdnOrThrow } = await import("../lib/subscribers/normalise-msisdn-or-throw");
const { listKeys } = await import("../lib/keys/list-keys");
const { rotateKeys } = await import("../lib/keys/rotate-keys");
const { unpublishKey } = await import("../lib/keys/unpublish-key"); // console (issue 22)
const { getActiveKey, SIGNING_ALGS } = await import("../lib/keys/key-store");
type SigningAlg = import("../lib/keys/key-store").SigningAlg;
const { encryptMsisdn } = await import("../lib/oauth/hints/encr-msisdn");
const { rememberPairwiseSubject } = await import("../lib/subjects/pairwise-subject");
const { recordAuditEvent } = await import("../lib/audit/record-audit-event");
const { listAuditEvents } = await import("../lib/audit/list-audit-events");
const { pseudonymiseSubscriber } = await import("../lib/audit/pseudonymise-subscriber");
const { withdrawConsent } = await import("../lib/subscribers/withdraw-consent");
const { listDevices } = await import("../lib/devices/list-devices");
const { revokeDevice } = await import("../lib/devices/revoke-device");
const { purgeExpired } = await import("../lib/maintenance/purge-expired");
const { setClientLogout, checkLogoutUri } = await import("../lib/logout/set-client-logout"); // logout (issue 18)
const registrationTokens = await import("../lib/registration/initial-access-tokens"); // registration (issue 18)
const userCodes = await import("../lib/ciba/set-user-code"); // CIBA user code (issue 20)
const { CLIENT_KEY_ALGS } = await import("../lib/clients/client-security"); // CIBA (issue 20)

type ClientRecord = Awaited<ReturnType<typeof listClients>>[number];
type SubscriberRecord = Awaited<ReturnType<typeof listSubscribers>>[number];
type KeyRecord = Awaited<ReturnType<typeof listKeys>>[number];
type Output = import("./admin/kit").Output;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// Wire (snake_case) views: the secret and PIN hashes are not part of any record.
const clientView = (c: ClientRecord) => ({
  client_id: c.id, client_name: c.name, status: c.status, public: c.isPublic, has_secret: c.hasSecret,
  redirect_uris: c.redirectUris, post_logout_redirect_uris: c.postLogoutRedirectUris, scopes: c.allowedScopes,
  sector_identifier: c.sectorIdentifier, profile: c.profile, expires_in_format: c.expiresInFormat,
  // Strong client authentication and signed requests (issue 19, docs/client-authentication.md)
  token_endpoint_auth_method: c.authMethod ?? (c.isPublic ? "none" : "client_secret_basic client_secret_post"),
  jwks_keys: (c.jwks?.keys ?? []).map((k) => `${k.kid ?? "(no kid)"} ${k.kty}${k.alg ? ` ${k.alg}` : ""}`),
  jwks_uri: c.jwksUri, require_signed_request_object: c.requireSignedRequestObject,
  require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
  dpop_bound_access_tokens: c.dpopBoundAccessTokens, grant_types: c.grantTypes,
  client_credentials_scopes: c.clientCredentialsScopes, consent_free_scopes: c.consentFreeScopes,
  registered_by: c.registeredBy,
  // OpenID Connect CIBA (issue 20, docs/ciba.md)
  backchannel_token_delivery_mode: c.backchannelTokenDeliveryMode,
  backchannel_client_notification_endpoint: c.backchannelClientNotificationEndpoint,
  backchannel_authentication_request_signing_alg: c.backchannelAuthRequestSigningAlg,
  backchannel_user_code_parameter: c.backchannelUserCodeParameter,
  network_hints_allowed: c.networkHintsAllowed, // network-based authentication (issue 21)
  id_token_signed_response_alg: c.idTokenSignedResponseAlg, // issue 23, docs/keys.md
  created_at: iso(c.createdAt), updated_at: iso(c.updatedAt),
});
const subscriberView = (s: SubscriberRecord) => ({
  msisdn: s.msisdn, status: s.status, has_pin: s.hasPin, failed_pin_attempts: s.failedPinAttempts,
  lockout_count: s.lockoutCount, locked_until: iso(s.lockedUntil), attributes: s.attributes,
  created_at: iso(s.createdAt), updated_at: iso(s.updatedAt),
});
const keyView = (k: KeyRecord) => ({
  kid: k.kid, use: k.use, alg: k.alg, status: k.status, published: k.published, created_at: iso(k.createdAt),
  activated_at: iso(k.activatedAt), retired_at: iso(k.retiredAt), remove_after: iso(k.removeAfter),
});

/** `key: value` lines for one record; arrays joined, nested objects indented. */
function describe(view: Record<string, unknown>, indent = ""): string[] {
  return Object.entries(view).flatMap(([k, v]) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const inner = describe(v as Record<string, unknown>, `${indent}  `);
      return [`${indent}${k}:${inner.length ? "" : " -"}`, ...inner];
    }
    return [`${indent}${k}: ${Array.isArray(v) ? v.join(" ") : v === null ? "-" : String(v)}`];
  });
}

const SECRET_NOTE = "The client secret is not stored (only its hash) and cannot be shown again: copy it now.";

function secretLines(clientId: string, secret: string | null): string[] {
  if (secret === null) return [`client_id:     ${clientId}`, "public client: no secret; PKCE (S256) is required."];
  return [`client_id:     ${clientId}`, `client_secret: ${secret}`, SECRET_NOTE];
}

const program = new Command("admin")
  .description("Operator administration of the identity service")
  .option("--json", "print exactly one JSON object on stdout (errors as {\"error\": ...})")
  .exitOverride()
  .configureOutput({ outputError: (message, write) => (jsonMode ? undefined : write(message)) });

/** Registers an action whose output is printed by the one printer below. */
function act<A extends unknown[]>(fn: (...args: A) => Promise<Output>) {
  return async (...args: A) => {
    const out = await fn(...args);
    process.stdout.write(jsonMode ? `${JSON.stringify(out.json)}\n` : `${out.text.join("\n")}\n`);
  };
}

/**
 * Commands that change something are written to the audit log after they succeed (type
 * `admin_<group>_<command>`, e.g. admin_subscriber_unlock), with the subscriber pseudonymised and
 * the operating-system user as the actor. Read-only commands are not logged.
 */
const AUDITED = new Set([
  "client create", "client delete", "client rotate-secret", "client set", "client disable", "client enable", "subscriber create", "subscriber set-pin",
  "subscriber suspend", "subscriber activate", "subscriber unlock", "subscriber withdraw-consent", "device revoke",
  "purge-expired", "keys rotate", "keys unpublish",
]);
program.hook("postAction", async (_program, command) => {
  const group = command.parent && command.parent !== program ? command.parent.name() : "";
  const name = group ? `${group} ${command.name()}` : command.name();
  if (!AUDITED.has(name)) return;
  const opts = command.opts() as { msisdn?: string; client?: string };
  const first = command.args[0];
  const msisdn = group === "subscriber" ? (opts.msisdn ?? first) : undefined;
  const subscriber = msisdn ? await getSubscriberByMsisdn({ msisdn: normaliseMsisdnOrThrow(msisdn) }) : null;
  const clientId = group === "client" ? first : opts.client;
  await recordAuditEvent({
    type: `admin_${name.replace(/[ -]/g, "_")}`, outcome: "success", subscriberId: subscriber?.id, clientId,
    detail: { command: name, actor: operatorName(), ...(group === "device" && first ? { device_id: first } : {}) },
  });
});

function operatorName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return "unknown";
  }
}

const expiresIn = () =>
  new Option("--expires-in <format>", "token response expires_in: timestamp (interface) or seconds (RFC 6749); default: the profile's (seconds "
    + "for oidc, timestamp for mobile-connect)")
    .choices(["timestamp", "seconds"]);
const idTokenAlgOption = () => // issue 23 (docs/keys.md): the service signs with its own key of this algorithm
  new Option("--id-token-alg <alg>", "id_token_signed_response_alg: the algorithm of its id tokens and logout tokens")
    .choices([...SIGNING_ALGS]);
const profileOption = () =>
  new Option("--profile <profile>", "rules the client is held to: oidc (OpenID Connect Core: nonce optional, state "
    + "optional with PKCE S256, expires_in in seconds) or mobile-connect (the interface as written: nonce and state "
    + "required, expires_in an absolute time)").choices(["oidc", "mobile-connect"]);

// ---- client logout registration (issue 18: Back-Channel / Front-Channel Logout 1.0, docs/logout.md) ----
type LogoutOptions = {
  backchannelLogoutUri?: string; backchannelLogoutSessionRequired?: "yes" | "no";
  frontchannelLogoutUri?: string; frontchannelLogoutSessionRequired?: "yes" | "no";
};
const yesNo = (flag: string, what: string) => new Option(flag, what).choices(["yes", "no"]);
const logoutOptions = {
  backchannelUri: () => new Option("--backchannel-logout-uri <uri>", "back-channel logout URI (\"none\" clears it)"),
  backchannelSession: () => yesNo("--backchannel-logout-session-required <yes|no>", "logout tokens must carry sid"),
  frontchannelUri: () => new Option("--frontchannel-logout-uri <uri>", "front-channel logout URI (\"none\" clears it)"),
  frontchannelSession: () => yesNo("--frontchannel-logout-session-required <yes|no>", "iframes get iss and sid"),
};
/** The options as setClientLogout's changes; the URIs are checked here so a bad one changes nothing. */
function logoutChanges(o: LogoutOptions) {
  const uri = (v: string | undefined, label: string) =>
    v === undefined ? undefined : v === "none" ? null : checkLogoutUri(v, label);
  const bool = (v: "yes" | "no" | undefined) => (v === undefined ? undefined : v === "yes");
  return {
    backchannel_logout_uri: uri(o.backchannelLogoutUri, "back-channel logout URI"),
    backchannel_logout_session_required: bool(o.backchannelLogoutSessionRequired),
    frontchannel_logout_uri: uri(o.frontchannelLogoutUri, "front-channel logout URI"),
    frontchannel_logout_session_required: bool(o.frontchannelLogoutSessionRequired),
  };
}

// ---- client keys, signed requests, PAR, DPoP, grants (issue 19, docs/client-authentication.md) ----
type SecurityOptions = {
  authMethod?: string; jwks?: string; jwksUri?: string; requireSignedRequest?: boolean; requirePar?: boolean;
  requireDpop?: boolean; grantTypes?: string[]; clientCredentialsScopes?: string[]; consentFreeScopes?: string[];
};
const securityOptions = (cmd: Command, set: boolean) => {
  cmd.addOption(new Option("--auth-method <method>", "how the client authenticates at the token, revocation and "
    + "introspection endpoints (default: a secret, Basic or post; none for public clients)")
    .choices(["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]))
    .option("--jwks <file-or-json>", `the client's public keys: a JWK Set file or JSON text${set ? " (\"none\" clears it)" : ""}`)
    .option("--jwks-uri <uri>", `https URL of the client's JWK Set${set ? " (\"none\" clears it)" : ""}`)
    .option("--require-signed-request", "authorization requests must be signed request objects (RFC 9101)")
    .option("--require-par", "authorization requests must be pushed first (RFC 9126)")
    .option("--require-dpop", "tokens must be DPoP-bound (RFC 9449)")
    .option("--grant-types <type...>", "allowed grant types (default: authorization_code refresh_token)")
    .option("--client-credentials-scopes <scope...>", "scopes the client_credentials grant may give"
      + `${set ? " (\"none\": no scope)" : ""}`)
    .option("--consent-free-scopes <scope...>", "scopes the JWT-bearer grant gives without the subscriber's consent "
      + `(operator policy)${set ? " (\"none\": no scope)" : ""}`);
  if (set) cmd.option("--no-require-signed-request", "plain authorization requests are accepted again")
    .option("--no-require-par", "authorization requests need not be pushed")
    .option("--no-require-dpop", "bearer tokens are accepted again");
  return cmd;
};
/** A JWK Set given as JSON text (starting with "{") or as the path of a file (at most 64 KiB). */
function readJwks(value: string): string {
  if (value.trimStart().startsWith("{")) return value;
  try {
    const text = readFileSync(value, { encoding: "utf8" });
    if (text.length > 64 * 1024) throw new AdminError("jwks file must be at most 64 KiB");
    return text;
  } catch (err) {
    if (err instanceof AdminError) throw err;
    throw new AdminError(`cannot read the jwks file ${value}`);
  }
}
/** The options as ClientSecurityInput (lib/clients/client-security.ts checks them). */
function securityChanges(o: SecurityOptions) {
  const clear = <T>(v: string | undefined, f: (v: string) => T) => (v === undefined ? undefined : v === "none" ? null : f(v));
  const list = (v: string[] | undefined) => (v === undefined ? undefined : v.length === 1 && v[0] === "none" ? [] : v);
  return {
    authMethod: o.authMethod as "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none" | undefined,
    jwks: clear(o.jwks, readJwks), jwksUri: clear(o.jwksUri, (v) => v),
    requireSignedRequestObject: o.requireSignedRequest, requirePushedAuthorizationRequests: o.requirePar,
    dpopBoundAccessTokens: o.requireDpop, grantTypes: o.grantTypes,
    clientCredentialsScopes: list(o.clientCredentialsScopes), consentFreeScopes: list(o.consentFreeScopes),
  };
}

// ---- client CIBA options (issue 20: OpenID Connect CIBA Core §4, docs/ciba.md) ----
type CibaOptions = { cibaMode?: string; notificationEndpoint?: string; bcSigningAlg?: string; userCodeParameter?: boolean;
  networkHints?: boolean };
const cibaOptions = (cmd: Command, set: boolean) => {
  cmd.addOption(new Option("--ciba-mode <mode>", "how CIBA results reach the client (with --grant-types "
    + "... urn:openid:params:grant-type:ciba; default poll)").choices(["poll", "ping", "push"]))
    .option("--notification-endpoint <uri>", "https URL for CIBA ping and push notifications"
      + `${set ? " (\"none\" clears it)" : ""}`)
    .addOption(new Option("--bc-signing-alg <alg>", "CIBA requests must be signed request objects with this algorithm "
      + "(needs --jwks or --jwks-uri)").choices([...CLIENT_KEY_ALGS, ...(set ? ["none"] : [])]))
    .option("--user-code-parameter", "the client can send the subscriber's user_code (backchannel_user_code_parameter)");
  if (set) cmd.option("--no-user-code-parameter", "the client does not send user_code");
  // Network-based authentication (issue 21, docs/network-authentication.md): the operator's permission only.
  cmd.option("--network-hints", "the client may name a data session (ipport: login hint in CIBA, sub in JWT-bearer)")
    .option("--no-network-hints", "the client may not name a data session (the default)");
  return cmd;
};
/** The options as ClientSecurityInput's CIBA fields (lib/clients/client-security.ts checks them). */
function cibaChanges(o: CibaOptions) {
  const clear = (v: string | undefined) => (v === undefined ? undefined : v === "none" ? null : v);
  return {
    backchannelTokenDeliveryMode: o.cibaMode, backchannelClientNotificationEndpoint: clear(o.notificationEndpoint),
    backchannelAuthRequestSigningAlg: clear(o.bcSigningAlg), backchannelUserCodeParameter: o.userCodeParameter,
    networkHintsAllowed: o.networkHints,
  };
}

// ---- clients ----
const clientGroup = program.command("client").description("relying parties");

cibaOptions(securityOptions(clientGroup.command("create"), false), false) // issue 19, CIBA (issue 20)
  .description("register a client; prints its client_id and secret once")
  .requiredOption("--name <name>", "short name the client sends as client_name")
  .requiredOption("--redirect-uri <uri...>", "exact redirect URI (repeatable)")
  .requiredOption("--scope <scope...>", "allowed scope (repeatable; must include openid)")
  .addOption(profileOption().default("oidc"))
  .addOption(expiresIn())
  .addOption(idTokenAlgOption().default("RS256"))
  .option("--public", "public client: no secret, PKCE S256 required")
  .option("--post-logout-redirect-uri <uri...>", "post-logout redirect URI (repeatable)")
  .option("--sector-identifier <host>", "pairwise sector (default: host of the redirect URIs)")
  .addOption(logoutOptions.backchannelUri()).addOption(logoutOptions.backchannelSession()) // logout (issue 18)
  .addOption(logoutOptions.frontchannelUri()).addOption(logoutOptions.frontchannelSession()) // logout (issue 18)
  .action(act(async (o: {
    name: string; redirectUri: string[]; scope: string[]; profile: "oidc" | "mobile-connect";
    expiresIn?: "timestamp" | "seconds"; public?: boolean; postLogoutRedirectUri?: string[]; sectorIdentifier?: string;
    idTokenAlg: SigningAlg;
  } & LogoutOptions & SecurityOptions & CibaOptions) => {
    logoutChanges(o); // logout (issue 18): refused before the client exists
    const { client: c, clientSecret } = await createClient({
      name: o.name, redirectUris: o.redirectUri, scopes: o.scope, profile: o.profile, expiresInFormat: o.expiresIn,
      isPublic: o.public ?? false, postLogoutRedirectUris: o.postLogoutRedirectUri, sectorIdentifier: o.sectorIdentifier,
      idTokenSignedResponseAlg: o.idTokenAlg, // issue 23
      ...securityChanges(o), // issue 19
      ...cibaChanges(o), // CIBA (issue 20)
    });
    const logout = await setClientLogout({ clientId: c.id, changes: logoutChanges(o) }); // logout (issue 18)
    return {
      json: { client_id: c.id, client_secret: clientSecret, secret_stored: false, client: { ...clientView(c), ...logout } },
      text: [`Client "${c.name}" created.`, ...(c.authMethod === "private_key_jwt" // issue 19
        ? [`client_id:     ${c.id}`, "private_key_jwt client: no secret; it authenticates with its registered keys."]
        : secretLines(c.id, clientSecret))],
    };
  }));

clientGroup.command("list").description("list clients").action(act(async () => {
  const all = await listClients();
  return {
    json: { clients: all.map(clientView) },
    text: all.length
      ? all.map((c) => `${c.id}  ${c.name}  ${c.status}${c.isPublic ? " public" : ""}  ${c.profile}  ${c.expiresInFormat}  `
        + `${c.idTokenSignedResponseAlg}  ${c.allowedScopes.join(" ")}`)
      : ["No clients."],
  };
}));

clientGroup.command("show <client_id>").description("show one client").action(act(async (clientId: string) => {
  const view = clientView(await getClientOrThrow({ clientId }));
  return { json: { client: view }, text: describe(view) };
}));

clientGroup.command("delete <client_id>").description("delete a client and revoke its tokens").action(act(async (clientId: string) => {
  const { revokedTokens } = await deleteClient({ clientId });
  return {
    json: { deleted: clientId, revoked_tokens: revokedTokens },
    text: [`Client ${clientId} deleted; ${revokedTokens} token(s) revoked.`],
  };
}));

clientGroup.command("rotate-secret <client_id>").description("issue a new client secret (printed once)")
  .action(act(async (clientId: string) => {
    const { clientSecret } = await rotateClientSecret({ clientId });
    return {
      json: { client_id: clientId, client_secret: clientSecret, secret_stored: false },
      text: ["Client secret replaced; the old one no longer works.", ...secretLines(clientId, clientSecret)],
    };
  }));

// Disabling (issue 22, docs/operations.md): unknown to every endpoint, tokens revoked; enabling brings it back.
clientGroup.command("disable <client_id>")
  .description("disable a client: unknown to every endpoint, its tokens revoked (enable brings it back)")
  .action(act(async (clientId: string) => {
    const { revokedTokens, alreadyDisabled } = await disableClient({ clientId });
    return {
      json: { disabled: clientId, already_disabled: alreadyDisabled, revoked_tokens: revokedTokens },
      text: [alreadyDisabled
        ? `Client ${clientId} was already disabled; ${revokedTokens} token(s) issued since revoked.`
        : `Client ${clientId} disabled; ${revokedTokens} token(s) revoked. Other instances refuse it within 30 s: `
          + "run this again after that to revoke what they issued meanwhile."],
    };
  }));

clientGroup.command("enable <client_id>").description("enable a disabled client (its revoked tokens stay revoked)")
  .action(act(async (clientId: string) => {
    await enableClient({ clientId });
    return { json: { enabled: clientId }, text: [`Client ${clientId} enabled.`] };
  }));

cibaOptions(securityOptions(clientGroup.command("set <client_id>"), true), true) // issue 19, CIBA (issue 20)
  .description("change a client's options")
  .option("--name <name>", "rename the client (the client_name it sends); refused if it looks like another client's")
  .addOption(profileOption())
  .addOption(expiresIn())
  .addOption(idTokenAlgOption())
  .addOption(new Option("--status <status>", "active or disabled").choices(["active", "disabled"]))
  .addOption(logoutOptions.backchannelUri()).addOption(logoutOptions.backchannelSession()) // logout (issue 18)
  .addOption(logoutOptions.frontchannelUri()).addOption(logoutOptions.frontchannelSession()) // logout (issue 18)
  .action(act(async (clientId: string, o: {
    name?: string; profile?: "oidc" | "mobile-connect"; expiresIn?: "timestamp" | "seconds";
    status?: "active" | "disabled";
    idTokenAlg?: SigningAlg;
  } & LogoutOptions & SecurityOptions & CibaOptions) => {
    const changes = { name: o.name, // a rename: refused if it looks like another client's name (issue 33)
      profile: o.profile, expiresInFormat: o.expiresIn, idTokenSignedResponseAlg: o.idTokenAlg, ...securityChanges(o),
      ...cibaChanges(o) }; // CIBA (issue 20)
    const logoutOnly = (Object.values(logoutChanges(o)).some((v) => v !== undefined) || o.status !== undefined)
      && Object.values(changes).every((v) => v === undefined);
    let view = clientView(logoutOnly ? await getClientOrThrow({ clientId }) : await updateClient({ clientId, changes }));
    const logout = await setClientLogout({ clientId, changes: logoutChanges(o) }); // logout (issue 18)
    // --status is `client disable|enable` (one home: lib/clients/set-client-disabled.ts, which revokes the tokens),
    // applied once the other changes were accepted.
    if (o.status && view.status !== o.status) {
      await (o.status === "disabled" ? disableClient({ clientId }) : enableClient({ clientId }));
      view = clientView(await getClientOrThrow({ clientId }));
    }
    return { json: { client: { ...view, ...logout } }, text: [`Client ${clientId} updated.`, ...describe({ ...view, ...logout })] };
  }));

// ---- subscribers ----
const subscriberGroup = program.command("subscriber").description("mobile subscribers");
const one = (s: SubscriberRecord, message: string): Output => {
  const view = subscriberView(s);
  return { json: { subscriber: view }, text: [message, ...describe(view)] };
};

subscriberGroup.command("create")
  .description("register a subscriber")
  .requiredOption("--msisdn <msisdn>", "E.164 number, digits only (a leading + is dropped)")
  .requiredOption("--pin <pin>", "4-8 digit PIN (weak PINs are refused)")
  .option("--attribute <key=value...>", "identity attribute, premium info names (repeatable)")
  .action(act(async (o: { msisdn: string; pin: string; attribute?: string[] }) => {
    const s = await createSubscriber({ msisdn: o.msisdn, pin: o.pin, attributes: o.attribute ?? [] });
    return one(s, `Subscriber ${s.msisdn} created.`);
  }));

subscriberGroup.command("list").description("list subscribers").action(act(async () => {
  const all = await listSubscribers();
  return {
    json: { subscribers: all.map(subscriberView) },
    text: all.length
      ? all.map((s) => `${s.msisdn}  ${s.status}${s.lockedUntil && s.lockedUntil > new Date() ? " locked" : ""}  ` +
          `${Object.keys(s.attributes).length} attribute(s)`)
      : ["No subscribers."],
  };
}));

subscriberGroup.command("show <msisdn>").description("show one subscriber").action(act(async (msisdn: string) => {
  const view = subscriberView(toSubscriberRecord(await getSubscriberByMsisdnOrThrow({ msisdn })));
  return { json: { subscriber: view }, text: describe(view) };
}));

subscriberGroup.command("set-pin <msisdn>").description("set a new PIN (also lifts a lockout)")
  .requiredOption("--pin <pin>", "4-8 digit PIN")
  .action(act(async (msisdn: string, o: { pin: string }) =>
    one(await setSubscriberPin({ msisdn, pin: o.pin }), "PIN changed; lockout cleared.")));

subscriberGroup.command("suspend <msisdn>").description("suspend: refuse sign-in, end sessions, revoke tokens")
  .action(act(async (msisdn: string) => one(await suspendSubscriber({ msisdn }), "Subscriber suspended.")));

subscriberGroup.command("activate <msisdn>").description("re-activate a suspended subscriber")
  .action(act(async (msisdn: string) => one(await activateSubscriber({ msisdn }), "Subscriber active.")));

subscriberGroup.command("unlock <msisdn>").description("clear a PIN lockout")
  .action(act(async (msisdn: string) => one(await unlockSubscriber({ msisdn }), "Lockout cleared.")));

subscriberGroup.command("withdraw-consent <msisdn>")
  .description("withdraw the subscriber's remembered consent for a client and revoke that client's tokens")
  .requiredOption("--client <client_id>", "the client")
  .action(act(async (msisdn: string, o: { client: string }) => {
    const r = await withdrawConsent({ msisdn, clientId: o.client });
    return {
      json: { msisdn: normaliseMsisdnOrThrow(msisdn), client_id: o.client, withdrawn: true, revoked_tokens: r.revokedTokens },
      text: [`Consent withdrawn; ${r.revokedTokens} token(s) revoked. The next sign-in to ${o.client} asks again.`],
    };
  }));

subscriberGroup.command("encr-msisdn <msisdn>").description("ENCR_MSISDN value for login_hint=ENCR_MSISDN:<hex>")
  .action(act(async (raw: string) => {
    const msisdn = normaliseMsisdnOrThrow(raw);
    const [key, known] = await Promise.all([getActiveKey("enc"), getSubscriberByMsisdn({ msisdn })]);
    const value = encryptMsisdn({ msisdn, publicJwk: key.publicJwk });
    return {
      json: { msisdn, kid: key.kid, encr_msisdn: value, login_hint: `ENCR_MSISDN:${value}`, registered: known !== null },
      text: [value, `(login_hint=ENCR_MSISDN:<value above>; enc key ${key.kid}${known ? "" : "; note: no such subscriber"})`],
    };
  }));

subscriberGroup.command("pcr <msisdn>").description("the subscriber's PCR (pairwise sub) for a client; enables login_hint=PCR:")
  .requiredOption("--client <client_id>", "client whose sector the PCR belongs to")
  .action(act(async (msisdn: string, o: { client: string }) => {
    const [s, c] = await Promise.all([getSubscriberByMsisdnOrThrow({ msisdn }), getClientOrThrow({ clientId: o.client })]);
    const pcr = await rememberPairwiseSubject({ subscriberId: s.id, sectorIdentifier: c.sectorIdentifier });
    return {
      json: { msisdn: s.msisdn, client_id: c.id, sector_identifier: c.sectorIdentifier, pcr, login_hint: `PCR:${pcr}` },
      text: [pcr, `(login_hint=PCR:${pcr}; sector ${c.sectorIdentifier})`],
    };
  }));

// ---- the subscriber's CIBA user code (issue 20, docs/ciba.md "User code") ----
/**
 * The user code, never on the command line (shell history, the process list): the first line of standard
 * input, or typed at a prompt without echo when standard input is a terminal.
 */
async function readUserCode(): Promise<string> {
  if (process.stdin.isTTY) {
    const { createInterface } = await import("node:readline");
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const muted = rl as unknown as { _writeToOutput: (s: string) => void };
    process.stderr.write("User code (4-8 digits): ");
    muted._writeToOutput = () => {};
    const line = await new Promise<string>((resolve) => rl.once("line", resolve));
    rl.close();
    process.stderr.write("\n");
    return line.trim();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > 1024) break;
  }
  return (Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "").trim();
}

const userCodeGroup = subscriberGroup.command("user-code")
  .description("the subscriber's CIBA user code: relying parties must send it with every backchannel request");

userCodeGroup.command("set <msisdn>")
  .description("set or replace the user code (read from standard input, or a prompt; 4-8 digits, not the PIN)")
  .action(act(async (msisdn: string) => {
    const s = await getSubscriberByMsisdnOrThrow({ msisdn });
    const code = await readUserCode();
    if (!code) throw new AdminError("no user code given on standard input");
    await userCodes.setUserCode({ subscriberId: s.id, code, who: { by: "operator", actor: operatorName() } });
    return { json: { msisdn: s.msisdn, user_code_set: true },
      text: [`User code set for ${s.msisdn}; backchannel requests for this subscriber must now carry it.`] };
  }));

userCodeGroup.command("clear <msisdn>").description("remove the user code (backchannel requests no longer need one)")
  .action(act(async (msisdn: string) => {
    const s = await getSubscriberByMsisdnOrThrow({ msisdn });
    const cleared = await userCodes.clearUserCode({ subscriberId: s.id, who: { by: "operator", actor: operatorName() } });
    return { json: { msisdn: s.msisdn, user_code_set: false, cleared },
      text: [cleared ? `User code removed for ${s.msisdn}.` : `${s.msisdn} had no user code; nothing changed.`] };
  }));

// ---- handsets (issue 5) and maintenance ----
const deviceGroup = program.command("device").description("subscribers' enrolled handsets (authorization devices)");
const deviceView = (d: Awaited<ReturnType<typeof listDevices>>[number]) => ({
  device_id: d.id, name: d.name, status: d.revokedAt ? "revoked" : "active", created_at: iso(d.createdAt),
  last_seen_at: iso(d.lastSeenAt), revoked_at: iso(d.revokedAt),
});

deviceGroup.command("list <msisdn>").description("list a subscriber's handsets, revoked ones included")
  .action(act(async (msisdn: string) => {
    const s = await getSubscriberByMsisdnOrThrow({ msisdn });
    const all = (await listDevices({ subscriberId: s.id })).map(deviceView);
    return {
      json: { msisdn: s.msisdn, devices: all },
      text: all.length
        ? all.map((d) => `${d.device_id}  ${d.status}  "${d.name}"  enrolled ${d.created_at}  last seen ${d.last_seen_at ?? "-"}`)
        : [`No handsets for ${s.msisdn}.`],
    };
  }));

deviceGroup.command("revoke <device_id>").description("revoke a handset: it gets nothing further and must enrol again")
  .action(act(async (deviceId: string) => {
    if (!(await revokeDevice({ deviceId }))) throw new AdminError(`unknown or already revoked device ${deviceId}`);
    return { json: { revoked: deviceId }, text: [`Handset ${deviceId} revoked.`] };
  }));

program.command("purge-expired").description("delete expired requests, codes, messages, limits and long-expired tokens")
  .action(act(async () => {
    const counts = await purgeExpired();
    return {
      json: { purged: counts },
      text: Object.entries(counts).map(([table, n]) => `${table}: ${n} row(s) deleted`),
    };
  }));

// ---- audit log ----
/** `--since`: an ISO 8601 time, or a duration back from now (`30m`, `2h`, `7d`). */
function parseSince(value: string): Date {
  const m = /^(\d+)([smhd])$/.exec(value);
  if (m) return new Date(Date.now() - Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as "s"] * 1000);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new AdminError(`--since must be an ISO 8601 time or a duration like 30m, 2h, 7d`);
  return d;
}

program.command("audit").description("list the audit log, newest first (subscribers appear pseudonymised)")
  .option("--type <type>", "event type, e.g. sign_in, pin_lockout, consent_given, token_issued, admin_subscriber_unlock")
  .option("--subscriber <msisdn>", "only this subscriber's events")
  .option("--client <client_id>", "only this client's events")
  .option("--since <time>", "ISO 8601 time or duration back from now (30m, 2h, 7d)")
  .option("--limit <n>", "at most n events (1-10000)", "100")
  .action(act(async (o: { type?: string; subscriber?: string; client?: string; since?: string; limit: string }) => {
    const limit = Number(o.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new AdminError("--limit must be an integer from 1 to 10000");
    const subscriberRef = o.subscriber
      ? pseudonymiseSubscriber((await getSubscriberByMsisdnOrThrow({ msisdn: o.subscriber })).id)
      : undefined;
    const events = await listAuditEvents({
      type: o.type, subscriberRef, clientId: o.client, since: o.since ? parseSince(o.since) : undefined, limit,
    });
    const view = events.map((e) => ({
      id: e.id, at: e.at.toISOString(), type: e.type, outcome: e.outcome, subscriber_ref: e.subscriberRef,
      client_id: e.clientId, ip: e.ip, detail: e.detail, staff_id: e.staffId,
    }));
    return {
      json: { events: view },
      text: view.length
        ? view.map((e) => [e.at, e.type, e.outcome, e.subscriber_ref ? `subscriber=${e.subscriber_ref.slice(0, 12)}` : "",
            e.client_id ? `client=${e.client_id}` : "", e.ip ? `ip=${e.ip}` : "", e.detail ? JSON.stringify(e.detail) : ""]
            .filter(Boolean).join("  "))
        : ["No audit events match."],
    };
  }));

// ---- keys ----
const keyGroup = program.command("keys").description("signing and encryption keys");

keyGroup.command("list").description("list keys (public facts only)").action(act(async () => {
  const all = await listKeys();
  const day = (d: Date | null) => (d ? d.toISOString().replace(/\.\d+Z$/, "Z") : "-");
  return {
    json: { keys: all.map(keyView) },
    text: all.length
      ? all.map((k) => `${k.kid}  ${k.use}  ${k.alg}  ${k.status}${k.published ? " (published)" : ""}  ` +
          `created ${day(k.createdAt)}  activated ${day(k.activatedAt)}  retired ${day(k.retiredAt)}  remove-after ${day(k.removeAfter)}`)
      : ["No keys (they are created on first start)."],
  };
}));

keyGroup.command("rotate")
  .description("activate the published next key, retire the active one, publish a new next (every sig alg, or --alg)")
  .addOption(new Option("--use <use>", "which key").choices(["sig", "enc"]).default("sig"))
  .addOption(new Option("--alg <alg>", "only this signing algorithm's key (sig; default: all of them)").choices([...SIGNING_ALGS]))
  .action(act(async (o: { use: "sig" | "enc"; alg?: SigningAlg }) => {
    const { rotated } = await rotateKeys({ use: o.use, alg: o.alg });
    return {
      json: { use: o.use, rotated: rotated.map(({ alg, activated, retired, next }) => ({ alg, activated, retired, next })) },
      text: rotated.map((r) => `Rotated ${o.use === "sig" ? `sig ${r.alg}` : "enc"} key: ${r.activated} active, ${r.retired} retired `
        + `(still published until tokens expire), ${r.next} next.`),
    };
  }));

keyGroup.command("unpublish <kid>")
  .description("remove a retired key from the JWKS before its remove-after time (tokens it signed stop verifying)")
  .option("--confirm", "required: id tokens and logout tokens it signed no longer verify at relying parties")
  .action(act(async (kid: string, o: { confirm?: boolean }) => {
    if (!o.confirm) throw new AdminError("add --confirm: tokens signed by this key will no longer verify at relying parties");
    const r = await unpublishKey({ kid });
    return { json: { unpublished: r.kid, use: r.use }, text: [`Key ${r.kid} (${r.use}) removed from the JWKS.`] };
  }));

// ---- dynamic client registration (issue 18: RFC 7591 initial access tokens, docs/registration.md) ----
const registrationGroup = program.command("registration").description("dynamic client registration (RFC 7591)");
const registrationTokenGroup = registrationGroup.command("token").description("initial access tokens for /register");
type TokenRecord = Awaited<ReturnType<typeof registrationTokens.listInitialAccessTokens>>[number];
const tokenView = (t: TokenRecord) => ({
  id: t.id, label: t.label, status: t.status, uses_left: t.usesLeft, expires_at: iso(t.expiresAt), created_at: iso(t.createdAt),
});
const auditRegistration = (command: string, detail: Record<string, string | number>) => recordAuditEvent({
  type: `admin_registration_token_${command}`, outcome: "success",
  detail: { command: `registration token ${command}`, actor: operatorName(), ...detail },
});

registrationTokenGroup.command("create")
  .description("issue an initial access token (printed once; only its SHA-256 is stored)")
  .option("--uses <n>", "registrations it allows", "1")
  .option("--ttl <duration>", "lifetime: 30m, 12h, 7d (at most 365d)", "1d")
  .option("--label <text>", "a note for `registration token list` (who it is for)", "")
  .action(act(async (o: { uses: string; ttl: string; label: string }) => {
    const uses = /^\d{1,7}$/.test(o.uses) ? Number(o.uses) : NaN;
    const { token, record } = await registrationTokens.createInitialAccessToken({
      uses, ttlSeconds: registrationTokens.parseDuration(o.ttl), label: o.label,
    });
    await auditRegistration("create", { id: record.id, uses: record.usesLeft });
    return {
      json: { initial_access_token: token, token_stored: false, token: tokenView(record) },
      text: [`initial_access_token: ${token}`, `id:         ${record.id}`,
        `uses:       ${record.usesLeft}`, `expires_at: ${iso(record.expiresAt)}`,
        "The token is not stored (only its SHA-256) and cannot be shown again: copy it now. The relying party sends it",
        "as `Authorization: Bearer <token>` to the registration endpoint (docs/registration.md)."],
    };
  }));

registrationTokenGroup.command("list").description("list initial access tokens (never the tokens themselves)")
  .action(act(async () => {
    const all = (await registrationTokens.listInitialAccessTokens()).map(tokenView);
    return {
      json: { tokens: all },
      text: all.length
        ? all.map((t) => `${t.id}  ${t.status}  uses left ${t.uses_left}  expires ${t.expires_at}${t.label ? `  "${t.label}"` : ""}`)
        : ["No initial access tokens."],
    };
  }));

registrationTokenGroup.command("revoke <id>").description("revoke an initial access token by its id (from list)")
  .action(act(async (id: string) => {
    await registrationTokens.revokeInitialAccessToken({ id });
    await auditRegistration("revoke", { id });
    return { json: { revoked: id }, text: [`Initial access token ${id} revoked.`] };
  }));

// The network APIs' groups (issue 21, docs/network-apis.md), each in a file of its own.
for (const group of [await import("./admin/network"), await import("./admin/sim-swap"), await import("./admin/purposes"),
  await import("./admin/staff")]) {
  group.register(program, { act, audited: AUDITED });
}

/** One line describing a failure; unexpected errors are named as such, without a stack trace. */
function failureMessage(err: unknown): string {
  const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (err instanceof AdminError) return oneLine(err.message);
  if (err instanceof CommanderError) return oneLine(err.message.replace(/^error: /, ""));
  const message = err instanceof Error ? err.message : String(err);
  return `unexpected error: ${oneLine(message.split("\n").find((l) => l.trim()) ?? "unknown")}`;
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Help and version are "errors" for commander's exitOverride but succeed.
  if (err instanceof CommanderError && err.exitCode === 0) {
    process.exitCode = 0;
  } else {
    process.exitCode = 1;
    // Commander already printed its own one-line usage errors (human mode).
    const message = failureMessage(err);
    if (jsonMode) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else if (!(err instanceof CommanderError)) process.stderr.write(`error: ${message}\n`);
  }
} finally {
  // Only disconnect a client that was created (creating one would read the configuration).
  await (globalThis as { prisma?: { $disconnect(): Promise<void> } }).prisma?.$disconnect();
}
