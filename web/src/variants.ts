// What the client knows of a variant comes from the server (`GET /api/variants`): its
// label, piece names and the interactions its turns need. Nothing here names a variant.
import { api } from './dom';
import { variantsInfo } from './protocol';
import type { VariantDescriptor } from './protocol';

let cache: Promise<VariantDescriptor[]> | null = null;

/** Every variant's descriptor (fetched once a page). */
export function variants(): Promise<VariantDescriptor[]> {
  cache = cache || api('/api/variants', variantsInfo).then(v => v.variants);
  return cache;
}

export async function descriptor(name: string): Promise<VariantDescriptor | undefined> {
  return (await variants()).find(v => v.name === name);
}

/** A variant's name for a person (its label; else the name with a capital). */
export function variantTitle(name: string, d?: VariantDescriptor): string {
  if (d?.label) return d.label;
  return name ? name[0].toUpperCase() + name.slice(1) : name;
}

/** The name of the piece of FEN letter `letter` in the variant (a letter when unknown). */
export function pieceName(d: VariantDescriptor | undefined, letter: string): string {
  const p = d?.pieces.find(x => x.letter === letter.toLowerCase());
  return p ? p.name : letter.toUpperCase();
}
