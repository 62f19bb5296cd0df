import { config } from "../config";
import { addressSubject } from "../http/address-subject";
import { clientIp } from "../http/client-ip";
import { issuerBase } from "../http/issuer-base";
import { mediaType } from "../http/media-type";
import { readBodyText } from "../http/params";
import { json } from "../http/respond";
import { hitRateLimit } from "../security/hit-rate-limit";
import type { Limit } from "../security/limits";
import { isInitialAccessTokenUsable } from "./initial-access-tokens";
import { deleteRegistration, readRegistration, registerClient, updateRegistration } from "./register-client";
import { InvalidClientMetadata, RegistrationThrottled, RegistrationTokenRefused } from "./registration-errors";
import { readRegistrationMetadata } from "./registration-metadata";

/**
 * The registration endpoint (RFC 7591 §3) and the client configuration endpoint (RFC 7592 §2), as
 * handlers for app/register/route.ts and app/register/[clientId]/route.ts (docs/registration.md).
 */

/** Requests to the registration endpoints per client address (an IPv6 /64), per 15 minutes. */
export const registrationRequestsPerIp = (): Limit =>
  ({ name: "registration-ip", limit: config().REGISTRATION_LIMIT_PER_IP, windowSeconds: 15 * 60 });

async function throttle(req: Request): Promise<string> {
  const ip = clientIp(req.headers);
  const verdict = await hitRateLimit({ limit: registrationRequestsPerIp(), subject: addressSubject(ip) });
  if (!verdict.allowed) throw new RegistrationThrottled(verdict.retryAfter);
  return ip;
}

/** The Bearer token of the Authorization header (RFC 6750 §2.1): null when there is no header. */
function bearer(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (header === null) return null;
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!m) throw new RegistrationTokenRefused("the Authorization header must be Bearer <token>");
  return m[1]!;
}

async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  if (mediaType(req) !== "application/json") {
    throw new InvalidClientMetadata("the request body must be client metadata as application/json");
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBodyText(req));
  } catch (err) {
    if (err instanceof SyntaxError) throw new InvalidClientMetadata("the request body is not valid JSON");
    throw err;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidClientMetadata("the request body must be a JSON object of client metadata");
  }
  return body as Record<string, unknown>;
}

const clientUri = (clientId: string) => `${issuerBase()}/register/${encodeURIComponent(clientId)}`;
const allowPrivate = () => ({ allowLoopback: config().ALLOW_LOOPBACK_CLIENT_URLS });

/** POST /register: a new client (RFC 7591 §3.1), 201 with its information (§3.2.1). */
export async function handleRegistration(req: Request): Promise<Response> {
  const ip = await throttle(req);
  const token = bearer(req);
  if (token === null && !config().REGISTRATION_OPEN) {
    throw new RegistrationTokenRefused("an initial access token is required (Authorization: Bearer)");
  }
  // Checked before the body, so a wrong token learns nothing about validation; spent only once the body is valid.
  if (token !== null && !(await isInitialAccessTokenUsable(token))) {
    throw new RegistrationTokenRefused("the initial access token is unknown, used up or expired");
  }
  const body = await jsonBody(req);
  for (const field of ["client_id", "client_secret"]) {
    if (body[field] !== undefined) throw new InvalidClientMetadata(`${field} is issued by the server, not chosen by the client`);
  }
  const metadata = await readRegistrationMetadata(body, allowPrivate());
  const info = await registerClient({ metadata, initialAccessToken: token, clientUri, ip });
  return json(info, { status: 201, noStore: true });
}

/** The client_id of /register/{client_id}: the last path segment. */
function clientIdOf(req: Request): string {
  const segment = new URL(req.url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

async function configurationToken(req: Request): Promise<string> {
  const token = bearer(req);
  if (token === null) throw new RegistrationTokenRefused("the registration access token is required (Authorization: Bearer)");
  return token;
}

/** GET /register/{client_id} (RFC 7592 §2.1). */
export async function handleReadRegistration(req: Request): Promise<Response> {
  await throttle(req);
  const clientId = clientIdOf(req);
  const info = await readRegistration({ clientId, token: await configurationToken(req), clientUri: clientUri(clientId) });
  return json(info, { noStore: true });
}

/** PUT /register/{client_id} (RFC 7592 §2.2): the token is checked before the body is read. */
export async function handleUpdateRegistration(req: Request): Promise<Response> {
  await throttle(req);
  const clientId = clientIdOf(req);
  const token = await configurationToken(req);
  await readRegistration({ clientId, token, clientUri: "" });
  const body = await jsonBody(req);
  const metadata = await readRegistrationMetadata(body, allowPrivate());
  const info = await updateRegistration({ clientId, token, body, metadata, clientUri: clientUri(clientId) });
  return json(info, { noStore: true });
}

/** DELETE /register/{client_id} (RFC 7592 §2.3): 204. */
export async function handleDeleteRegistration(req: Request): Promise<Response> {
  const ip = await throttle(req);
  const clientId = clientIdOf(req);
  await deleteRegistration({ clientId, token: await configurationToken(req), ip });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
