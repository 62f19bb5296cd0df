/**
 * The confusable skeleton of a client name (after Unicode TS #39 §4's skeleton, for the characters a handset's
 * narrow sans-serif font shows alike): two names with one skeleton look the same on a screen. NFKC, case folded;
 * `i`, `l`, `1` and `|` one letter, `o` and `0` one letter; anything not a letter or digit (space, `_`, `.`, `-`)
 * removed; then `rn` read as `m` and `vv` as `w`. So `DemoCaIlCentre`, `Demo Call Centre` and `dem0-caii-centre` are
 * all `democallcentre`. Client names are ASCII by rule (client-fields.ts), so no other script's homoglyphs can be
 * registered at all; NFKC is kept for rows named before the rule.
 *
 * The migration `20261129010000_client_name_skeleton` computes the same value in SQL for the names that exist
 * (client-name-skeleton.test.ts checks the two agree); change both together.
 */
export function clientNameSkeleton(name: string): string {
  return name.normalize("NFKC").toLowerCase()
    .replace(/[i1|]/g, "l")
    .replace(/0/g, "o")
    .replace(/[^a-z0-9]/g, "")
    .replaceAll("rn", "m")
    .replaceAll("vv", "w");
}
