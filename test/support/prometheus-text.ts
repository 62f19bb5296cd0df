/**
 * A strict parser of the Prometheus text exposition format 0.0.4 (what prom-client writes): `# HELP` and `# TYPE`
 * lines, then samples `name{label="value",...} value`. Throws on any line it does not understand, on a sample
 * without its family's TYPE, and on a duplicate series, so a malformed scrape fails the test.
 */
export interface PromSample { name: string; labels: Record<string, string>; value: number }
export interface PromFamily { name: string; type: string; help: string; samples: PromSample[] }

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)"(?:,|$)/;
const SUFFIXES = ["_bucket", "_sum", "_count", "_total", "_created"];

export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  for (const [i, line] of text.split("\n").entries()) {
    if (line === "") continue;
    const where = `line ${i + 1}: ${line.slice(0, 120)}`;
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line))) {
      family(families, m[1]!).help = m[2]!;
    } else if ((m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line))) {
      const f = family(families, m[1]!);
      if (f.type) throw new Error(`second TYPE at ${where}`);
      f.type = m[2]!;
    } else if (line.startsWith("#")) {
      throw new Error(`unknown comment at ${where}`);
    } else if ((m = SAMPLE.exec(line))) {
      const name = m[1]!;
      const labels = parseLabels(m[2] ?? "", where);
      // Values as Go's ParseFloat reads them (Prometheus's parser): NaN and ±Inf in any case (prom-client writes Nan).
      const raw = m[3]!.toLowerCase();
      const value = raw === "+inf" || raw === "inf" ? Infinity : raw === "-inf" ? -Infinity : raw === "nan" ? NaN
        : /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(raw) ? Number(raw) : NaN;
      if (Number.isNaN(value) && raw !== "nan") throw new Error(`bad value at ${where}`);
      const base = SUFFIXES.reduce((n, s) => (n.endsWith(s) && families.has(n.slice(0, -s.length)) ? n.slice(0, -s.length) : n),
        name);
      const owner = families.get(name) ?? families.get(base);
      if (!owner?.type) throw new Error(`sample without TYPE at ${where}`);
      const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
      if (seen.has(key)) throw new Error(`duplicate series at ${where}`);
      seen.add(key);
      owner.samples.push({ name, labels, value });
    } else throw new Error(`unparseable ${where}`);
  }
  return families;
}

function family(all: Map<string, PromFamily>, name: string): PromFamily {
  let f = all.get(name);
  if (!f) all.set(name, (f = { name, type: "", help: "", samples: [] }));
  return f;
}

function parseLabels(body: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = body;
  while (rest.length) {
    const m = LABEL.exec(rest);
    if (!m) throw new Error(`bad labels at ${where}`);
    if (m[1]! in labels) throw new Error(`duplicate label at ${where}`);
    labels[m[1]!] = m[2]!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    rest = rest.slice(m[0].length);
  }
  return labels;
}

/** The sum of a family's samples named `name` whose labels include `match`. */
export function sumOf(families: Map<string, PromFamily>, name: string, match: Record<string, string> = {}): number {
  let total = 0;
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)) total += s.value;
    }
  }
  return total;
}
