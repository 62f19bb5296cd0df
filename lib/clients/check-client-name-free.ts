import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { isUniqueViolation } from "../store/is-unique-violation";
import { PLAYGROUND_CLIENT_ID, PLAYGROUND_CLIENT_NAME } from "../playground/playground-settings";
import { ACCOUNT_CLIENT_ID, ACCOUNT_CLIENT_NAME } from "./account-client-id";
import { clientNameSkeleton } from "./client-name-skeleton";

/**
 * A client name taken, exactly (`sameName`) or by a lookalike (client-name-skeleton.ts): the other client is named
 * for the operator (admin CLI, console); the registration endpoint says less (lib/registration/register-client.ts).
 */
export class ClientNameTaken extends AdminError {
  constructor(readonly asked: string, readonly holder: { id: string; name: string }) {
    super(asked === holder.name
      ? `a client named "${asked}" already exists`
      : `client name "${asked}" looks like the name of client ${holder.id} ("${holder.name}"): ${LOOKALIKE_RULE}`);
  }

  get sameName(): boolean {
    return this.asked === this.holder.name;
  }
}

/** What the refusal of a lookalike says (the registration endpoint's error_description too). */
export const LOOKALIKE_RULE = "names are compared without case, spaces or punctuation, with I, l, 1 and | alike, "
  + "O and 0 alike, rn as m and vv as w; choose another name";

/**
 * The service's own clients, written on first use (ensure-account-client.ts, lib/playground), possibly after a
 * registration: their names are reserved here rather than by the unique skeleton.
 */
const BUILT_IN_CLIENTS = [
  { id: ACCOUNT_CLIENT_ID, name: ACCOUNT_CLIENT_NAME }, { id: PLAYGROUND_CLIENT_ID, name: PLAYGROUND_CLIENT_NAME },
] as const;

/**
 * The one check of a new or changed client name against the others (createClient, updateClient's rename, the
 * registration endpoint's replacement): throws ClientNameTaken when another client's name has the same skeleton.
 * Returns the skeleton to store in `nameSkeleton`, whose unique index settles two writes racing past this check.
 */
export async function checkClientNameFree({ name, exceptId }: { name: string; exceptId?: string }): Promise<string> {
  const skeleton = clientNameSkeleton(name);
  const builtIn = BUILT_IN_CLIENTS.find((c) => clientNameSkeleton(c.name) === skeleton && c.id !== exceptId);
  if (builtIn) throw new ClientNameTaken(name, builtIn);
  const holder = await db.client.findUnique({ where: { nameSkeleton: skeleton }, select: { id: true, name: true } });
  if (holder && holder.id !== exceptId) throw new ClientNameTaken(name, holder);
  return skeleton;
}

/**
 * Runs a write that sets `nameSkeleton`; a unique violation on it (a lookalike written meanwhile by another request
 * or instance) becomes ClientNameTaken. Another unique violation is rethrown as it was.
 */
export async function withClientNameHeld<T>({ name, exceptId }: { name: string; exceptId?: string },
  write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) await checkClientNameFree({ name, exceptId });
    throw err;
  }
}
