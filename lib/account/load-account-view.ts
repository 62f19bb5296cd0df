import { listSubscriberSignIns } from "../audit/list-subscriber-sign-ins";
import { ACCOUNT_CLIENT_ID } from "../clients/account-client-id";
import { findClientNames } from "../clients/find-client-names";
import type { ClientProvenance } from "../clients/client-provenance";
import { findClientProvenances } from "../clients/find-client-provenances";
import { listDevices } from "../devices/list-devices";
import { listSubscriberGrants } from "../grants/list-subscriber-grants";
import type { Messages } from "../i18n/get-messages";
import { describeConsent } from "../interaction/describe-consent";
import { readUserCodeState, type UserCodeProofKind } from "../ciba/user-code-proof";
import { listApiConsents } from "../api-consent/consents";

/** Everything the account page shows, in the subscriber's language. */
export interface AccountView {
  /** `mark`: a self-registered app's (lib/clients/client-provenance.ts), null for the operator's own. */
  apps: Array<{ clientId: string; name: string; mark: ClientProvenance | null; reads: string[]; since: Date }>;
  /** Network-API consents in force, per app and purpose (docs/network-apis.md): the purpose and APIs in words. */
  apiConsents: Array<{ clientId: string; name: string; mark: ClientProvenance | null; purpose: string;
    purposeText: string; apis: string[];
    since: Date }>;
  handsets: Array<{ id: string; name: string; enrolledAt: Date; lastSeenAt: Date | null }>;
  signIns: Array<{ at: Date; app: string; mark: ClientProvenance | null; level: string }>;
  /** Whether the subscriber set a CIBA user code (docs/ciba.md "User code"). */
  hasUserCode: boolean;
  /** What changing it asks for: the current code and/or the PIN, or nothing (lib/ciba/user-code-proof.ts). */
  userCodeProof: UserCodeProofKind;
}

/**
 * The signed-in subscriber's own data, and nothing else (every read is by their subscriber id): the
 * apps they allowed with what each may read (the consent screen's plain-language scope lines) and
 * since when, their handsets still enrolled, their ten latest sign-ins.
 */
export async function loadAccountView({ subscriberId, t }: { subscriberId: string; t: Messages }): Promise<AccountView> {
  const [grants, devices, signIns, userCode, apiConsents] = await Promise.all([
    listSubscriberGrants({ subscriberId }), listDevices({ subscriberId }), listSubscriberSignIns({ subscriberId }),
    readUserCodeState({ subscriberId }), listApiConsents({ subscriberId }),
  ]);
  const names = await findClientNames({ clientIds: [...grants.map((g) => g.clientId),
    ...apiConsents.map((c) => c.clientId),
    ...signIns.flatMap((s) => (s.clientId ? [s.clientId] : []))] });
  const marks = await findClientProvenances({ clientIds: [...grants.map((g) => g.clientId),
    ...apiConsents.map((c) => c.clientId), ...signIns.map((s) => s.clientId)] });
  const markOf = (clientId: string | null) => (clientId && marks.get(clientId)) || null;
  const appName = (clientId: string | null) =>
    clientId === ACCOUNT_CLIENT_ID ? t.account.thisPage : (clientId && names.get(clientId)) || t.account.unknownApp;
  return {
    apps: grants.map((g) => ({ clientId: g.clientId, name: appName(g.clientId), mark: markOf(g.clientId),
      reads: describeConsent({ scopes: g.scopes, t }).scopeLines.map((l) => l.text), since: g.createdAt })),
    handsets: devices.filter((d) => !d.revokedAt)
      .map((d) => ({ id: d.id, name: d.name, enrolledAt: d.createdAt, lastSeenAt: d.lastSeenAt })),
    signIns: signIns.map((s) => ({ at: s.at, app: appName(s.clientId), mark: markOf(s.clientId),
      level: s.acr ?? "?" })),
    hasUserCode: userCode.hasUserCode,
    userCodeProof: userCode.proof,
    apiConsents: apiConsents.map((c) => ({ clientId: c.clientId, name: appName(c.clientId), mark: markOf(c.clientId),
      purpose: c.purpose,
      purposeText: t.purposes[c.purpose] ?? c.purpose, apis: c.scopes.map((s) => t.scopes[s] ?? s), since: c.since })),
  };
}
