// Validates the configuration before start-up; exits non-zero with one line naming the bad variable.
import { parseConfig } from "../lib/config";

try {
  parseConfig(process.env);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
