import { AdminError } from "../admin/admin-error";
import { checkPlainHost } from "../clients/client-fields";
import { invalidateClient } from "../clients/get-client";
import { db } from "../db";

/** A client's Back-Channel / Front-Channel Logout 1.0 registration (OIDC Dynamic Registration names). */
export interface ClientLogoutSettings {
  backchannel_logout_uri: string | null;
  backchannel_logout_session_required: boolean;
  frontchannel_logout_uri: string | null;
  frontchannel_logout_session_required: boolean;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A logout URI (Back-Channel Logout §2.2, Front-Channel Logout §2): absolute, no fragment, no
 * credentials; https, or http on a loopback host (development, as for redirect URIs). The server
 * POSTs to the back-channel one and browsers frame the front-channel one, so nothing else is accepted.
 */
export function checkLogoutUri(uri: string, label: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new AdminError(`${label} ${uri} is not an absolute URI`);
  }
  if (uri.length > 2000 || /\s/.test(uri)) throw new AdminError(`${label} must be at most 2000 characters, no spaces`);
  if (uri.includes("#")) throw new AdminError(`${label} ${uri} must not contain a fragment`);
  if (url.username || url.password) throw new AdminError(`${label} ${uri} must not contain credentials`);
  checkPlainHost(url, label, uri);
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) return uri;
  throw new AdminError(`${label} ${uri} must use https (http is allowed only for localhost, 127.0.0.1 and [::1])`);
}

/**
 * Changes a client's logout registration (admin CLI; each field optional, `null` clears a URI) and
 * returns it. The client's cached record in this process is dropped.
 */
export async function setClientLogout({ clientId, changes }: {
  clientId: string; changes: Partial<ClientLogoutSettings>;
}): Promise<ClientLogoutSettings> {
  const data = {
    ...(changes.backchannel_logout_uri !== undefined ? { backchannelLogoutUri: changes.backchannel_logout_uri === null
      ? null : checkLogoutUri(changes.backchannel_logout_uri, "back-channel logout URI") } : {}),
    ...(changes.frontchannel_logout_uri !== undefined ? { frontchannelLogoutUri: changes.frontchannel_logout_uri === null
      ? null : checkLogoutUri(changes.frontchannel_logout_uri, "front-channel logout URI") } : {}),
    ...(changes.backchannel_logout_session_required !== undefined
      ? { backchannelLogoutSessionRequired: changes.backchannel_logout_session_required } : {}),
    ...(changes.frontchannel_logout_session_required !== undefined
      ? { frontchannelLogoutSessionRequired: changes.frontchannel_logout_session_required } : {}),
  };
  const found = await db.client.findUnique({ where: { id: clientId }, select: { id: true } });
  if (!found) throw new AdminError(`no client ${clientId}`);
  const row = await db.client.update({ where: { id: clientId }, data });
  invalidateClient({ clientId });
  return {
    backchannel_logout_uri: row.backchannelLogoutUri, backchannel_logout_session_required: row.backchannelLogoutSessionRequired,
    frontchannel_logout_uri: row.frontchannelLogoutUri, frontchannel_logout_session_required: row.frontchannelLogoutSessionRequired,
  };
}
