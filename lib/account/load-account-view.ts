import { listSubscriberSignIns } from "../audit/list-subscriber-sign-ins";
import { ACCOUNT_CLIENT_ID } from "../clients/account-client-id";
import { findClientNames } from "../clients/find-client-names";
import { listDevices } from "../devices/list-devices";
import { listSubscriberGrants } from "../grants/list-subscriber-grants";
import type { Messages } from "../i18n/get-messages";
import { describeConsent } from "../interaction/describe-consent";
import { readUserCodeState, type UserCodeProofKind } from "../ciba/user-code-proof";
import { listApiConsents } from "../api-consent/consents";

/** Everything the account page shows, in the subscriber's language. */
export interface AccountView {
  apps: Array<{ clientId: string; name: string; reads: string[]; since: Date }>;
  /** Network-API consents in force, per app and purpose (docs/network-apis.md): the purpose and APIs in words. */
  apiConsents: Array<{ clientId: string; name: string; purpose: string; purposeText: string; apis: string[];
    since: Date }>;
  handsets: Array<{ id: string; name: string; enrolledAt: Date; lastSeenAt: Date | null }>;
  signIns: Array<{ at: Date; app: string; level: string }>;
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
  const appName = (clientId: string | null) =>
    clientId === ACCOUNT_CLIENT_ID ? t.account.thisPage : (clientId && names.get(clientId)) || t.account.unknownApp;
  return {
    apps: grants.map((g) => ({ clientId: g.clientId, name: appName(g.clientId),
      reads: describeConsent({ scopes: g.scopes, t }).scopeLines.map((l) => l.text), since: g.createdAt })),
    handsets: devices.filter((d) => !d.revokedAt)
      .map((d) => ({ id: d.id, name: d.name, enrolledAt: d.createdAt, lastSeenAt: d.lastSeenAt })),
    signIns: signIns.map((s) => ({ at: s.at, app: appName(s.clientId), level: s.acr ?? "?" })),
    hasUserCode: userCode.hasUserCode,
    userCodeProof: userCode.proof,
    apiConsents: apiConsents.map((c) => ({ clientId: c.clientId, name: appName(c.clientId), purpose: c.purpose,
      purposeText: t.purposes[c.purpose] ?? c.purpose, apis: c.scopes.map((s) => t.scopes[s] ?? s), since: c.since })),
  };
}
