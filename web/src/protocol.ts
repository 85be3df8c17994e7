// The messages of the server (WebSocket `/ws/{game}` and the JSON API), as decoders whose
// types the client uses; they mirror crates/server/src (hub.rs, web.rs). The browser test
// decodes every message the server sent during the run strictly (unknown fields reported).
import { array, bool, literal, nullable, num, object, optional, record, str, tagged, unknownValue } from './decode';
import type { Decoded } from './decode';

export const side = literal('white', 'black');
export type Side = Decoded<typeof side>;

/** One part of a turn, with its real squares (rules' `TurnPart`). */
export const turnPart = tagged({
  move: object({ kind: literal('move'), from: str, to: str, promotion: optional(str) }),
  exit: object({ kind: literal('exit'), from: str }),
  act: object({ kind: literal('act'), from: str, target: str, both: bool }),
  empty: object({ kind: literal('empty'), switch: bool }),
}, 'kind');
export type TurnPart = Decoded<typeof turnPart>;

/** A turn's structure (rules' `TurnShape`): parts, captured squares, appearing units, words. */
export const turnShape = object({ parts: array(turnPart), captures: array(str), appears: array(str), label: str });
export type TurnShape = Decoded<typeof turnShape>;

/** A turn as the server sends it: the UCI token to send back (parts joined by commas;
 * never shown), the notation, the canonical form (never shown) and its structure. */
export const turn = object({ uci: str, notation: str, canonical: str, shape: turnShape });
export type Turn = Decoded<typeof turn>;

/** A played turn, with the position after it, its side and move number. */
export const playedTurn = object({
  uci: str,
  notation: str,
  canonical: str,
  fen: str,
  copy_fen: str,
  shape: turnShape,
  side,
  number: num,
});
export type PlayedTurn = Decoded<typeof playedTurn>;

export const clock = object({
  initial_ms: num,
  increment_ms: num,
  white_ms: num,
  black_ms: num,
  running: nullable(side),
});
export type Clock = Decoded<typeof clock>;

export const player = object({ name: str, bot: bool, online: optional(bool) });
export type Player = Decoded<typeof player>;

export const players = object({ white: nullable(player), black: nullable(player) });
export type Players = Decoded<typeof players>;

export const gameStatus = literal('waiting', 'playing', 'finished', 'aborted');
export type GameStatus = Decoded<typeof gameStatus>;

export const offers = object({ draw: nullable(side), takeback: nullable(side), rematch: nullable(side) });
export type Offers = Decoded<typeof offers>;

/** An action a player may take now (protocol.rs `Action`): the client shows exactly these. */
export const action = literal(
  'join', 'resign', 'abort',
  'offer-draw', 'accept-draw', 'decline-draw', 'withdraw-draw',
  'ask-takeback', 'accept-takeback', 'decline-takeback', 'withdraw-takeback',
  'offer-rematch', 'accept-rematch', 'decline-rematch', 'withdraw-rematch',
);
export type Action = Decoded<typeof action>;
export const actionsBySide = object({ white: array(action), black: array(action) });

export const stateMsg = object({
  t: literal('state'),
  id: str,
  variant: str,
  kind: str,
  setup: unknownValue,
  describe: str,
  start_fen: str,
  fen: str,
  copy_fen: str,
  ply: num,
  side,
  moves: array(playedTurn),
  legal: array(turn),
  players,
  you: nullable(side),
  status: gameStatus,
  result: str,
  reason: str,
  clock: nullable(clock),
  offers,
  rematch: nullable(str),
  result_text: str,
  actions: array(action),
  actions_by_side: actionsBySide,
  watchers: num,
  check: bool,
});
export type StateMsg = Decoded<typeof stateMsg>;

export const moveMsg = object({
  t: literal('move'),
  ply: num,
  move: playedTurn,
  fen: str,
  side,
  legal: array(turn),
  clock: nullable(clock),
  actions_by_side: actionsBySide,
  check: bool,
});
export type MoveMsg = Decoded<typeof moveMsg>;

export const presenceMsg = object({ t: literal('presence'), players, watchers: num });
export const errorMsg = object({ t: literal('error'), code: str, message: str });
export const pongMsg = object({ t: literal('pong'), ms: num });
/** The server is stopping; the client reconnects by itself. */
export const closingMsg = object({ t: literal('closing'), message: str });

export const serverMsg = tagged({ state: stateMsg, move: moveMsg, presence: presenceMsg, error: errorMsg, pong: pongMsg, closing: closingMsg });
export type ServerMsg = Decoded<typeof serverMsg>;

export type OfferAction = 'offer' | 'accept' | 'decline';
/** What the client sends (hub.rs `ClientMsg`). */
export type ClientMsg =
  | { t: 'move'; ply: number; turn: string }
  | { t: 'join' | 'resign' | 'abort' | 'sync' | 'ping' }
  | { t: 'draw' | 'takeback' | 'rematch'; action: OfferAction };

// ---------- the JSON API ----------

export const me = object({ id: str, name: nullable(str) });
/** A piece kind of a variant (rules' `PieceSpec`). */
export const pieceSpec = object({ letter: str, name: str, shared: nullable(str) });
export type PieceSpec = Decoded<typeof pieceSpec>;

/** A state field of a position set up by hand (rules' `setup::FieldSpec`): its form control. */
export const fieldSpec = tagged({
  bool: object({ type: literal('bool'), key: str, label: str }),
  square: object({ type: literal('square'), key: str, label: str }),
  files: object({ type: literal('files'), key: str, label: str }),
  choice: object({ type: literal('choice'), key: str, label: str, choices: array(array(str)) }),
  number: object({ type: literal('number'), key: str, label: str, min: num, max: num }),
}, 'type');
export type FieldSpec = Decoded<typeof fieldSpec>;

/** A game option of a variant (rules' `OptionSpec`). */
export const optionSpec = tagged({
  bool: object({ type: literal('bool'), key: str, label: str, default: bool }),
  choice: object({ type: literal('choice'), key: str, label: str, default: num, choices: array(array(unknownValue)) }),
}, 'type');
export type OptionSpec = Decoded<typeof optionSpec>;

/** A variant as the server describes it (rules' `Descriptor`, with its start position). */
/** A section of a variant's rules page, with its diagrams (arrows green, circles red). */
export const rulesSection = object({
  heading: str,
  text: array(str),
  diagrams: array(object({ fen: str, caption: str, arrows: array(str), circles: array(str) })),
});
export type RulesSection = Decoded<typeof rulesSection>;

export const variantDescriptor = object({
  name: str,
  start_fen: str,
  kind: str,
  label: str,
  aliases: array(str),
  summary: str,
  pgn_variant: str,
  options: array(optionSpec),
  conditions: bool,
  pieces: array(pieceSpec),
  notation: str,
  interactions: array(str),
  multi_part: bool,
  setup: array(fieldSpec),
  rules: array(rulesSection),
});
export type VariantDescriptor = Decoded<typeof variantDescriptor>;

export const variantsInfo = object({
  variants: array(variantDescriptor),
  condition_interactions: array(str),
  conditions_available: bool,
  computer_available: bool,
  /** The computer's levels, weakest first, with their measured strength in Elo ("≈ 1550"), if measured. */
  levels: array(object({ level: num, strength: nullable(str) })),
});
export const conditionsList = object({ conditions: array(object({ name: str, popeye: str, params: str, summary: str })) });
export const gameSummary = object({
  id: str,
  variant: str,
  describe: str,
  white: str,
  black: str,
  open: str,
  time: nullable(str),
  status: str,
  result: str,
  reason: str,
  ply: num,
  updated_ms: num,
});
export type GameSummary = Decoded<typeof gameSummary>;
/** The lobby: open seeks, games being played, and the asker's own games not yet over. */
export const lobby = object({ seeks: array(gameSummary), live: array(gameSummary), mine: array(gameSummary) });
export const archive = object({ games: array(gameSummary) });
export const created = object({ id: str, url: str });
export const errorBody = object({ error: str, code: optional(str) });

/** Every decoder by name (for the protocol test). */
export const DECODERS = { serverMsg, stateMsg, me, variantsInfo, conditionsList, lobby, archive, created, record: record(unknownValue) };
export { strictness } from './decode';
