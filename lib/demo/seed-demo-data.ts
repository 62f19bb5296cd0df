import { getKeys } from "../keys/key-store";

/** Seeds the demo data idempotently (keys; client and subscribers are added by the admin domain). */
export async function seedDemoData(): Promise<string> {
  const keys = await getKeys();
  return `keys: ${keys.length}`;
}
