/** An instant as the console shows it: UTC to the minute (`2026-11-26 14:05 UTC`), the same in every language. */
export function consoleTime(at: Date | null | undefined): string {
  return at ? `${at.toISOString().slice(0, 16).replace("T", " ")} UTC` : "";
}
