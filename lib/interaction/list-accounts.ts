import { maskMsisdn } from "../messaging/mask-msisdn";
import { listBrowserSessions, type BrowserAccount } from "../sessions/list-browser-sessions";

export interface Account {
  session: BrowserAccount;
  maskedMsisdn: string;
}

/**
 * The accounts signed in in this browser for the selection screen (OIDC Core §3.1.2.1
 * `select_account`): the newest live session per subscriber, newest first, number masked.
 */
export async function listAccounts({ browserId }: { browserId: string }): Promise<Account[]> {
  const seen = new Set<string>();
  const accounts: Account[] = [];
  for (const session of await listBrowserSessions({ browserId })) {
    if (seen.has(session.subscriberId)) continue;
    seen.add(session.subscriberId);
    accounts.push({ session, maskedMsisdn: maskMsisdn(session.msisdn) });
  }
  return accounts;
}
