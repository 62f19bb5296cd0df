/**
 * Where an approval request came from, coarsely, for the handset to show (never the full address:
 * the handset may be someone else's and the address is personal data): the network prefix (IPv4
 * /24, IPv6 /48) and the browser family and platform from the User-Agent. Truncated to 80
 * characters; only recognised names are echoed, so a client cannot write text of its own here.
 */
export function describeOrigin({ ip, userAgent }: { ip: string; userAgent: string | null }): string {
  return [networkOf(ip), browserOf(userAgent ?? "")].filter(Boolean).join(" · ").slice(0, 80);
}

function networkOf(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `network ${v4[1]}.${v4[2]}.${v4[3]}.x`;
  if (ip.includes(":")) {
    const groups = ip.split(":").filter((g) => /^[0-9a-f]{1,4}$/i.test(g)).slice(0, 3);
    return groups.length === 3 ? `network ${groups.join(":").toLowerCase()}::/48` : "network (IPv6)";
  }
  return "";
}

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\//, "Edge"], [/OPR\//, "Opera"], [/SamsungBrowser\//, "Samsung Internet"], [/Firefox\//, "Firefox"],
  [/Chrom(e|ium)\//, "Chrome"], [/Version\/[\d.]+.*Safari\//, "Safari"], [/Opera Mini/, "Opera Mini"],
];
const PLATFORMS: Array<[RegExp, string]> = [
  [/Android/, "Android"], [/iPhone|iPad|iPod/, "iOS"], [/Windows/, "Windows"], [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"], [/KaiOS/, "KaiOS"], [/Linux/, "Linux"],
];

function browserOf(ua: string): string {
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const platform = PLATFORMS.find(([re]) => re.test(ua))?.[1];
  if (browser && platform) return `${browser} on ${platform}`;
  return browser ?? platform ?? (ua ? "unknown browser" : "");
}
