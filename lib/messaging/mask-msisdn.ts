/**
 * An MSISDN as the screens and logs may show it: `+`, the first two digits (country code), bullets,
 * the last four digits (`447700900123` -> `+44••••••0123`). Short or odd values are fully masked.
 */
export function maskMsisdn(msisdn: string): string {
  if (!/^\d{7,15}$/.test(msisdn)) return "+•••••••";
  return `+${msisdn.slice(0, 2)}${"•".repeat(msisdn.length - 6)}${msisdn.slice(-4)}`;
}
