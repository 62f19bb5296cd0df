import { AdminError } from "../admin/admin-error";
import { checkPlainHost } from "../clients/client-fields";
import { ClientDocumentError, fetchClientDocument } from "../clients/fetch-client-document";

/**
 * The redirect URIs listed at a `sector_identifier_uri` (OpenID Connect Registration §5, Core §8.1): a
 * JSON array of strings, fetched once at registration with the rules of every URL a client gives us
 * (lib/clients/fetch-client-document.ts: https, public addresses checked when connecting, 5 s, no
 * redirects), at most 50 KiB.
 */
export async function fetchSectorIdentifier(uri: string, allowLoopback: boolean): Promise<{ host: string; uris: string[] }> {
  const label = "sector_identifier_uri";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new AdminError(`${label} ${uri} is not an absolute URI`);
  }
  if (url.hash || uri.length > 2000) throw new AdminError(`${label} must be an https URL without credentials or fragment`);
  checkPlainHost(url, label, uri);
  let body: string;
  try {
    ({ body } = await fetchClientDocument(uri, { maxBytes: 50 * 1024, allowLoopback }));
  } catch (err) {
    if (err instanceof ClientDocumentError) throw new AdminError(`${label} ${uri} could not be read: ${err.message}`);
    throw err;
  }
  let list: unknown;
  try {
    list = JSON.parse(body);
  } catch {
    throw new AdminError(`${label} ${uri} must answer a JSON array of redirect URIs`);
  }
  if (!Array.isArray(list) || !list.every((u) => typeof u === "string")) {
    throw new AdminError(`${label} ${uri} must answer a JSON array of redirect URIs`);
  }
  // Its entries have the registered URIs' host rule too (one not shaped so is refused, not skipped).
  for (const listed of list as string[]) {
    let entry: URL;
    try {
      entry = new URL(listed);
    } catch {
      throw new AdminError(`${label} ${uri} lists ${listed.slice(0, 200)}, which is not an absolute URI`);
    }
    checkPlainHost(entry, `${label} ${uri} lists`, listed.slice(0, 200));
  }
  return { host: url.host.toLowerCase(), uris: list as string[] };
}
