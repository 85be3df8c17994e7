// The messages of the server (WebSocket `/ws/{game}` and the JSON API), as decoders whose
// types the client uses; they mirror crates/server/src (hub.rs, web.rs). The browser test
// decodes every message the server sent during the run strictly (unknown fields reported).
import { array, bool, literal, nullable, num, object, optional, record, str, tagged, unknownValue } from './decode';
import type { Decoded } from './decode';

export const side = literal('white', 'black');
export type Side = Decoded<typeof side>;

/** A turn as the server sends it: UCI token (parts joined by commas), notation, canonical form. */
export const turn = object({ uci: str, notation: str, canonical: str });
export type Turn = Decoded<typeof turn>;

/** A played turn, with the position after it. */
export const playedTurn = object({ uci: str, notation: str, canonical: str, fen: str });
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

export const stateMsg = object({
  t: literal('state'),
  id: str,
  variant: str,
  kind: str,
  setup: unknownValue,
  describe: str,
  start_fen: str,
  fen: str,
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
});
export type StateMsg = Decoded<typeof stateMsg>;

export const moveMsg = object({
  t: literal('move'),
  ply: num,
  move: turn,
  fen: str,
  side,
  legal: array(turn),
  clock: nullable(clock),
});
export type MoveMsg = Decoded<typeof moveMsg>;

export const presenceMsg = object({ t: literal('presence'), players });
export const errorMsg = object({ t: literal('error'), code: str, message: str });
export const pongMsg = object({ t: literal('pong'), ms: num });

export const serverMsg = tagged({ state: stateMsg, move: moveMsg, presence: presenceMsg, error: errorMsg, pong: pongMsg });
export type ServerMsg = Decoded<typeof serverMsg>;

export type OfferAction = 'offer' | 'accept' | 'decline';
/** What the client sends (hub.rs `ClientMsg`). */
export type ClientMsg =
  | { t: 'move'; ply: number; turn: string }
  | { t: 'join' | 'resign' | 'abort' | 'sync' | 'ping' }
  | { t: 'draw' | 'takeback' | 'rematch'; action: OfferAction };

// ---------- the JSON API ----------

export const me = object({ id: str, name: nullable(str) });
export const variantsInfo = object({
  variants: array(object({ name: str, start_fen: str })),
  conditions_available: bool,
  computer_available: optional(bool),
});
export const conditionsList = object({ conditions: array(object({ name: str, popeye: str, params: str })) });
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
export const lobby = object({ seeks: array(gameSummary), live: array(gameSummary) });
export const archive = object({ games: array(gameSummary) });
export const created = object({ id: str, url: str });
export const errorBody = object({ error: str, code: optional(str) });

/** Every decoder by name (for the protocol test). */
export const DECODERS = { serverMsg, stateMsg, me, variantsInfo, conditionsList, lobby, archive, created, record: record(unknownValue) };
