import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { AdminKit, Output } from "./kit";

// Loaded when a command runs (the configuration is complete by then: scripts/admin.ts sets it up first).
const ranges = () => import("../../lib/network/manage-ranges");

type RangeRecord = Awaited<ReturnType<Awaited<ReturnType<typeof ranges>>["listNetworkRanges"]>>[number];

const view = (r: RangeRecord) => ({ id: r.id, cidr: r.cidr, ports: `${r.portFrom}-${r.portTo}`, msisdn: r.msisdn,
  created_at: r.createdAt.toISOString() });
const line = (r: RangeRecord) => `${r.id}  ${r.cidr}  ports ${r.portFrom}-${r.portTo}  +${r.msisdn}`;

/**
 * `network …`: the NetworkRange table the `table` resolver answers from (docs/network-authentication.md): address
 * ranges (and port ranges behind carrier-grade NAT) of data sessions → the subscriber's number. In production the
 * packet gateway's records feed it (`network import`) or replace it (a resolver of its own, lib/network).
 */
export function register(program: Command, kit: AdminKit): void {
  const group = program.command("network").description("network-based authentication: address ranges → numbers");
  for (const name of ["add", "remove", "import"]) kit.audited.add(`network ${name}`);

  group.command("add <cidr> <msisdn>")
    .description("map an address range (IPv4 or IPv6 CIDR, or one address) to a number")
    .option("--ports <range>", "only these source ports (A-B), e.g. behind carrier-grade NAT")
    .action(kit.act(async (cidr: string, msisdn: string, o: { ports?: string }): Promise<Output> => {
      const r = await (await ranges()).addNetworkRange({ cidr, msisdn, ports: o.ports });
      return { json: view(r), text: [`Network range added: ${line(r)}`] };
    }));

  group.command("list").description("list address ranges, most specific first")
    .option("--msisdn <msisdn>", "only this number's ranges")
    .action(kit.act(async (o: { msisdn?: string }): Promise<Output> => {
      const rows = await (await ranges()).listNetworkRanges({ msisdn: o.msisdn });
      return { json: { ranges: rows.map(view) }, text: rows.length ? rows.map(line) : ["No network ranges."] };
    }));

  group.command("remove <id>").description("remove an address range by its id (from list)")
    .action(kit.act(async (id: string): Promise<Output> => {
      await (await ranges()).removeNetworkRange({ id });
      return { json: { removed: id }, text: [`Network range ${id} removed.`] };
    }));

  group.command("resolve <address> [port]").description("the number the configured resolver gives an address")
    .action(kit.act(async (address: string, port?: string): Promise<Output> => {
      const msisdn = await (await ranges()).resolveNetworkEndpoint({ address, port });
      return { json: { address, port: port === undefined ? null : Number(port), msisdn },
        text: [msisdn ? `+${msisdn}` : "Unknown to the network."] };
    }));

  group.command("import <file>").description("import ranges from a CSV file: cidr,msisdn[,ports] per line")
    .action(kit.act(async (file: string): Promise<Output> => {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        const { AdminError } = await import("../../lib/admin/admin-error");
        throw new AdminError(`cannot read ${file.slice(0, 200)}`);
      }
      const { added } = await (await ranges()).importNetworkRanges(text);
      return { json: { added }, text: [`${added} network range(s) imported.`] };
    }));
}
