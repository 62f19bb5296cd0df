// Shared by the start and test scripts: fills in the local defaults (SQLite file, generated secrets).
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Loads `.data/secrets.env` (creating it with fresh random secrets on first run) into process.env. */
export function ensureLocalSecrets() {
  const file = path.join(root, ".data", "secrets.env");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const gen = () => randomBytes(32).toString("base64url");
    writeFileSync(file, `KEY_ENCRYPTION_SECRET=${gen()}\nSUBJECT_SECRET=${gen()}\n`, { mode: 0o600 });
    console.log(`Generated local secrets in ${path.relative(root, file)} (set the variables yourself in production).`);
  }
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m && !process.env[m[1]]) process.env[m[1]] = m[2];
  }
}

export const projectRoot = root;
