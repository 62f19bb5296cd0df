import type { Client } from "@prisma/client";
import { toRegisteredClient, type RegisteredClient } from "./get-client";

/** What the operator may see of a client: everything except the secret's hash and sealed copy. */
export type ClientRecord = Omit<RegisteredClient, "secretHash" | "secretSealed"> & {
  hasSecret: boolean;
  status: string;
  createdAt: Date;
  updatedAt: Date;
};

/** Maps a client row to its operator view (the secret hash never leaves the database layer). */
export function toClientRecord(row: Client): ClientRecord {
  const { secretHash, secretSealed: _sealed, ...rest } = toRegisteredClient(row);
  return { ...rest, hasSecret: secretHash !== null, status: row.status, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
