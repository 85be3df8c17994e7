// "Set up as problem": the problems page opened on a position and its fairy conditions.
// One link for every page that offers it (the analysis board, a game's page); the
// problems page reads it back with `fromProblemLink`. Which games can be set up is the
// server's word: a variant whose descriptor takes fairy conditions (the solver composes
// chess problems with conditions).
import type { VariantDescriptor } from '../protocol';

/** The problems page on the position of `fen` (its board part is read) with `conditions`
 * (`--condition` names, as a game's set-up holds them); null when the variant's
 * descriptor says the solver cannot express it. */
export function problemLink(variant: VariantDescriptor | undefined, fen: string, conditions: readonly string[]): string | null {
  if (!variant?.conditions) return null;
  const q = new URLSearchParams({ fen });
  for (const c of conditions) q.append('condition', c);
  return `/problems#${q}`;
}

/** What a problems link carries (null: none). */
export function fromProblemLink(hash: string): { fen: string; conditions: string[] } | null {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const fen = q.get('fen');
  return fen ? { fen, conditions: q.getAll('condition') } : null;
}

/** The conditions of a game's set-up (the server's `setup`, unchecked JSON). */
export function setupConditions(setup: unknown): string[] {
  const c = (setup as { conditions?: unknown } | null)?.conditions;
  return Array.isArray(c) ? c.filter((x): x is string => typeof x === 'string') : [];
}
