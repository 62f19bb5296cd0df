import type { z } from "zod";
import { AUTHORIZE_PARAMETERS, PROTOCOL_PARAMETERS, parameterMeta } from "./parameter-schema";

/**
 * A parameter schema compiled once into plain maps, so that reading a request is a loop over Maps
 * (no zod parse on the hot paths /authorize and /token). Maps, so names like `__proto__` are inert.
 */
export interface ParameterTable {
  /** Longest value of each known parameter, by canonical name, in the schema's order. */
  readonly limits: ReadonlyMap<string, number>;
  /** Wire name → canonical name, for the names a parameter also arrives under. */
  readonly aliases: ReadonlyMap<string, string>;
  /** The tighter limits in characters (code points) the validation applies where a value is used. */
  readonly characters: ReadonlyMap<string, number>;
  /** Longest value of a name not in `limits`; undefined when such names are ignored. */
  readonly otherLimit: number | undefined;
}

type ParameterField = z.ZodOptional<z.ZodString>;

/** The table of an object schema: its fields are the known parameters, other names are ignored. */
export function compileObject(schema: z.ZodObject<Record<string, ParameterField>>): ParameterTable {
  const limits = new Map<string, number>();
  const aliases = new Map<string, string>();
  const characters = new Map<string, number>();
  for (const [name, field] of Object.entries(schema.shape)) {
    limits.set(name, maxLength(field.unwrap(), name));
    const meta = parameterMeta.get(field) ?? {};
    for (const alias of meta.aliases ?? []) aliases.set(alias, name);
    if (meta.characters !== undefined) characters.set(name, meta.characters);
  }
  return { limits, aliases, characters, otherLimit: undefined };
}

/** The table of a record schema: every name is accepted, each value within the record's limit. */
export function compileRecord(schema: z.ZodRecord<z.ZodString, z.ZodString>): ParameterTable {
  return { limits: new Map(), aliases: new Map(), characters: new Map(), otherLimit: maxLength(schema.valueType, "*") };
}

function maxLength(field: z.ZodString, name: string): number {
  if (field.maxLength === null) throw new Error(`parameter ${name} has no maximum length in the schema`);
  return field.maxLength;
}

export const AUTHORIZE_TABLE = compileObject(AUTHORIZE_PARAMETERS);
export const PROTOCOL_TABLE = compileRecord(PROTOCOL_PARAMETERS);
