import { db } from "../db";
import type { Subscriber } from "./subscriber-row";

/** The subscriber row with this id (PIN hash and failure state included), or null. One read. */
export async function findSubscriber({ id }: { id: string }): Promise<Subscriber | null> {
  return db.subscriber.findUnique({ where: { id } });
}
