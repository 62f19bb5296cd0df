/**
 * The statuses of a stored request that can still go on (lifecycle in lib/oauth/authorize/types.ts):
 * the screens may work on it, the browser moves it along at sign-in, and a code can complete it.
 * `completed` and `denied` are final.
 */
export const OPEN_STATUSES: string[] = ["pending", "authenticated", "consented"];

export function isOpenStatus(status: string): boolean {
  return OPEN_STATUSES.includes(status);
}
