// Small runtime decoders for the JSON the server sends: each decoder checks a value's
// shape and gives it its TypeScript type, so the types of protocol.ts are written once
// (as decoders) and checked at every boundary. Unknown object fields are ignored (the
// server may add fields), unless `strictness.strict` is set (the protocol test sets it to
// catch fields the client does not know about).

export class DecodeError extends Error {}

export type Decoder<T> = (v: unknown, path: string) => T;
export type Decoded<D> = D extends Decoder<infer T> ? T : never;

export const strictness = { strict: false, unknown: [] as string[] };

const fail = (path: string, what: string, v: unknown): never => {
  throw new DecodeError(`${path || 'message'}: expected ${what}, got ${JSON.stringify(v)?.slice(0, 80)}`);
};

export const str: Decoder<string> = (v, p) => (typeof v === 'string' ? v : fail(p, 'a string', v));
export const num: Decoder<number> = (v, p) => (typeof v === 'number' && Number.isFinite(v) ? v : fail(p, 'a number', v));
export const bool: Decoder<boolean> = (v, p) => (typeof v === 'boolean' ? v : fail(p, 'a boolean', v));
export const unknownValue: Decoder<unknown> = v => v;

export function literal<T extends string>(...values: T[]): Decoder<T> {
  return (v, p) => ((values as unknown[]).includes(v) ? (v as T) : fail(p, values.map(x => `"${x}"`).join(' or '), v));
}

export function nullable<T>(d: Decoder<T>): Decoder<T | null> {
  return (v, p) => (v === null || v === undefined ? null : d(v, p));
}

/** A field that may be missing (decoded as undefined). */
export function optional<T>(d: Decoder<T>): Decoder<T | undefined> {
  return (v, p) => (v === undefined ? undefined : d(v, p));
}

export function array<T>(d: Decoder<T>): Decoder<T[]> {
  return (v, p) => (Array.isArray(v) ? v.map((x, i) => d(x, `${p}[${i}]`)) : fail(p, 'an array', v));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function record<T>(d: Decoder<T>): Decoder<Record<string, T>> {
  return (v, p) => {
    if (!isRecord(v)) return fail(p, 'an object', v);
    const out: Record<string, T> = {};
    for (const [k, x] of Object.entries(v)) out[k] = d(x, `${p}.${k}`);
    return out;
  };
}

type Shape = Record<string, Decoder<unknown>>;
type FromShape<S extends Shape> = { [K in keyof S]: Decoded<S[K]> };

export function object<S extends Shape>(shape: S): Decoder<FromShape<S>> {
  return (v, p) => {
    if (!isRecord(v)) return fail(p, 'an object', v);
    const out: Record<string, unknown> = {};
    for (const [k, d] of Object.entries(shape)) out[k] = d(v[k], p ? `${p}.${k}` : k);
    if (strictness.strict) for (const k of Object.keys(v)) if (!(k in shape)) strictness.unknown.push(p ? `${p}.${k}` : k);
    return out as FromShape<S>;
  };
}

/** A union tagged by the field `field` (`t` for messages). */
export function tagged<M extends Record<string, Decoder<unknown>>>(cases: M, field = 't'): Decoder<Decoded<M[keyof M]>> {
  return (v, p) => {
    if (!isRecord(v)) return fail(p, `an object with a tag \`${field}\``, v);
    const tag = v[field];
    const d = typeof tag === 'string' ? cases[tag] : undefined;
    if (!d) return fail(p, `one of the tags ${Object.keys(cases).join(', ')}`, tag);
    return d(v, p) as Decoded<M[keyof M]>;
  };
}
