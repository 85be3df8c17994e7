// The analysis board's move tree: each node a turn (as the rules wrote it) with its
// comment; the first child is the main line, the others variations. PGN out (variations in
// parentheses, comments in braces, the variant and the start position as tags) and in
// (ours and lichess's: tags, move numbers, NAGs and results are read and skipped; turns are
// read by the rules, in any form they accept).
import { WasmGame, variants as registered } from '../../../crates/server/assets/wasm/chimere_wasm.js';
import type { Turn } from '../protocol';
import type { Options } from './wasm-types';

export type TreeNode = { id: number; ply: number; turn?: Turn; comment: string; children: TreeNode[]; parent?: TreeNode };

export class Tree {
  private next = 1;
  readonly root: TreeNode = { id: 0, ply: 0, comment: '', children: [] };
  /** The root position (empty: the variant's start). */
  constructor(readonly fen: string) {}

  /** The child of `node` playing `turn` (the existing one if that turn is there). */
  add(node: TreeNode, turn: Turn): TreeNode {
    const old = node.children.find(c => c.turn?.uci === turn.uci);
    if (old) return old;
    const n: TreeNode = { id: this.next++, ply: node.ply + 1, turn, comment: '', children: [], parent: node };
    node.children.push(n);
    return n;
  }

  /** The turns from the root to `node`. */
  path(node: TreeNode): Turn[] {
    const out: Turn[] = [];
    for (let n: TreeNode | undefined = node; n && n.turn; n = n.parent) out.push(n.turn);
    return out.reverse();
  }

  /** Makes the variation holding `node` the main line at every branching above it. */
  promote(node: TreeNode) {
    for (let n: TreeNode | undefined = node; n && n.parent; n = n.parent) {
      const sibs = n.parent.children;
      const i = sibs.indexOf(n);
      if (i > 0) { sibs.splice(i, 1); sibs.unshift(n); }
    }
  }

  /** Deletes `node` and what follows it. */
  remove(node: TreeNode) {
    const p = node.parent;
    if (p) p.children = p.children.filter(c => c !== node);
  }
}

const escapeComment = (c: string) => c.replace(/[{}]/g, '');

export function exportPgn(tree: Tree, variant: string): string {
  const tags = [`[Event "Analysis"]`, `[Variant "${variant}"]`];
  if (tree.fen) tags.push(`[SetUp "1"]`, `[FEN "${tree.fen}"]`);
  const out: string[] = [];
  if (tree.root.comment) out.push(`{${escapeComment(tree.root.comment)}}`);
  // Move numbers count from the root's ply parity: the root's side is read from its moves.
  const line = (start: TreeNode | undefined, words: string[]) => {
    let n = start;
    let number = true;
    while (n && n.turn) {
      const white = n.ply % 2 === 1;
      if (white) words.push(`${Math.ceil(n.ply / 2)}.`);
      else if (number) words.push(`${Math.ceil(n.ply / 2)}...`);
      words.push(n.turn.notation);
      if (n.comment) words.push(`{${escapeComment(n.comment)}}`);
      number = !!n.comment;
      const parent = n.parent;
      if (parent && parent.children[0] === n && parent.children.length > 1) {
        for (const alt of parent.children.slice(1)) {
          const v: string[] = [];
          line(alt, v);
          words.push(`(${v.join(' ')})`);
        }
        number = true;
      }
      n = n.children[0];
    }
  };
  line(tree.root.children[0], out);
  out.push('*');
  return `${tags.join('\n')}\n\n${out.join(' ')}\n`;
}

type Token = { t: 'move'; text: string } | { t: 'open' } | { t: 'close' } | { t: 'comment'; text: string };

function tokens(movetext: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < movetext.length) {
    const c = movetext[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '{') { const j = movetext.indexOf('}', i); const end = j < 0 ? movetext.length : j; out.push({ t: 'comment', text: movetext.slice(i + 1, end).trim() }); i = end + 1; continue; }
    if (c === ';') { const j = movetext.indexOf('\n', i); i = j < 0 ? movetext.length : j; continue; }
    if (c === '(') { out.push({ t: 'open' }); i++; continue; }
    if (c === ')') { out.push({ t: 'close' }); i++; continue; }
    let j = i;
    while (j < movetext.length && !/[\s(){};]/.test(movetext[j])) j++;
    const word = movetext.slice(i, j);
    i = j;
    if (/^\$\d+$/.test(word) || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(word)) continue;
    const bare = word.replace(/^\d+\.+/, '').replace(/[!?]+$/, '');
    if (!bare || /^\d+\.*$/.test(bare)) continue;
    out.push({ t: 'move', text: bare });
  }
  return out;
}

/** A PGN's tree; the variant from its `Variant` tag (else `variant`). Throws a one-line
 * reason (the move the rules refuse, and where). */
export function parsePgn(text: string, variant: string, options: Options): { variant: string; tree: Tree } {
  const tags = new Map<string, string>();
  for (const m of text.matchAll(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/gm)) tags.set(m[1], m[2]);
  const v = (tags.get('Variant') || '').toLowerCase();
  // The registry's names (the first is the default game); lichess's own names for chess.
  const known = JSON.parse(registered()) as string[];
  const chosen = known.includes(v) ? v : v === 'standard' || v === 'from position' || v === '' ? (variant || known[0]) : variant;
  const fen = tags.get('FEN') || '';
  const tree = new Tree(fen);
  const movetext = text.replace(/^\s*\[.*\]\s*$/gm, '');
  const game = () => new WasmGame(chosen, JSON.stringify(options), fen);
  // A stack of (node the next move follows, node before the last move): '(' starts a
  // variation from the position before the last move.
  type Frame = { at: TreeNode; before: TreeNode };
  const stack: Frame[] = [];
  let frame: Frame = { at: tree.root, before: tree.root };
  for (const tok of tokens(movetext)) {
    if (tok.t === 'comment') { frame.at.comment = frame.at.comment ? `${frame.at.comment} ${tok.text}` : tok.text; continue; }
    if (tok.t === 'open') { stack.push(frame); frame = { at: frame.before, before: frame.before }; continue; }
    if (tok.t === 'close') { const f = stack.pop(); if (f) frame = f; continue; }
    const g = game();
    try {
      for (const t of tree.path(frame.at)) g.play(t.uci);
      const turn = JSON.parse(g.play(tok.text)) as Turn;
      const node = tree.add(frame.at, turn);
      frame = { at: node, before: frame.at };
    } catch (e) {
      throw new Error(`move ${Math.ceil((frame.at.ply + 1) / 2)} "${tok.text}" is not legal here (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      g.free();
    }
  }
  return { variant: chosen, tree };
}
