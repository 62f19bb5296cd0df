/**
 * What a subscriber screen says about who registered an app (issue 33): nothing for the operator's own clients;
 * for a self-registered (dynamic, RFC 7591) one, that the operator did not check it, and the host its sign-ins go
 * back to, so a name that imitates another app's still shows where it leads. Its free text (binding message,
 * context) is shown as unverified.
 */
export interface ClientProvenance {
  /** The redirect host (with port), or hosts; an app's private-use scheme for a native app. */
  host: string;
}

/**
 * The provenance of `client` (null for an operator-registered client): the host of `redirectUri` when the screen
 * serves one request, else the distinct hosts of its registered redirect URIs (at most three, then "…").
 */
export function clientProvenance(client: { registeredBy: string; redirectUris: readonly string[] },
  redirectUri?: string): ClientProvenance | null {
  if (client.registeredBy !== "dynamic") return null;
  const hosts = [...new Set((redirectUri ? [redirectUri] : client.redirectUris).map(hostOf).filter(Boolean))];
  return { host: hosts.length > 3 ? `${hosts.slice(0, 3).join(", ")}, …` : hosts.join(", ") };
}

function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host || url.protocol.slice(0, -1);
  } catch {
    return "";
  }
}
