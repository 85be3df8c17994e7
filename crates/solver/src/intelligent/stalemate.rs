//! The intelligent mode for orthodox stalemate goals (`h=n`; the pictures also `ser-h=n`): the last-ply
//! filter of a stalemate, proved below, used by the parent module's search and by the
//! pictures (`super::pictures`), whose stalemate pictures are described there.
//!
//! **Zones.** Let the stalemated side S have its king on K, and let `s` be a legal move of
//! S (S to move) from `x` to `y`, neither castling nor en passant. Its *zone* Z(s) is:
//! for a king move (x = K), K, `y`, every square on the eight lines from `y` and every
//! knight square of `y`; for any other move, K, `x`, `y`, the squares between `x` and `y`,
//! and, when `x` is on a line (rank, file, diagonal) with K, the squares between K and
//! `x` and those beyond `x` on the ray from K to the edge. A castling or en passant move
//! has the whole board as zone.
//!
//! **Lemma.** If a sequence of moves (of either side) never changes the content of a
//! square of Z(s) (a move changes its departure and arrival squares, the captured unit's
//! square, the castling rook's two squares), and S is not in check at its end F, then `s`
//! is legal in F (S to move). Proof: the unit on `x`, the squares between `x` and `y` and
//! `y` itself are as before, so `s` is a move in F as it was (a pawn's double step and a
//! promotion depend only on the squares). Suppose `s` leaves S's king attacked in F.
//! For a move of another unit, S is not in check in F and `s` only empties `x` (and
//! fills `y`), so the attack on K runs through `x`: from a line piece beyond `x` on the
//! ray from K through `x`, the squares between K and it empty. All these squares are in
//! Z(s), hence as before the sequence, where `s` was then illegal too: a contradiction.
//! For a king move to `y`, the attacker stands on a knight square of `y`, next to `y` or
//! on a line from `y` with the squares between empty (K's own square left empty by the
//! move in both cases): all in Z(s), so `y` was attacked after `s` before the sequence,
//! again a contradiction. ∎
//!
//! Hence the last move W of a stalemate (S to move after it, not in check) must change a
//! square of every zone of S's legal moves in the position before it (the board as it
//! is, S to move): [`filter_last`] keeps only such moves of the side to move. The zones
//! of the moves are reduced to the minimal ones (a move touching a zone touches every
//! zone containing it), and keeping only some of them only weakens the filter.
//!
//! **Immobility.** [`immobility`] says how a unit of the stalemated side can have no
//! legal move at the end, from its side's final squares alone (blocked by them, or held
//! by the other side: pinned, a pawn's front square taken), proved at the function; the
//! pictures use it to commit the stalemated side's every unit.
//!
//! Used only for the rules it is proved for (the parent module's `applies`): orthodox
//! units and dummies (which have no move, so no zone, and attack nothing), no condition
//! but holes (`Condition Hole`: a hole never changes, so the lemma holds as it stands;
//! for the immobility rule a hole counts as a square of the stalemated side).

use super::on_board;
use chimere_fairy::rules::Notes;
use chimere_fairy::walk::KING;
use chimere_fairy::{Game, Move};
use std::sync::OnceLock;

/// Squares on lines: `between[a][b]` (strictly between, when aligned) and
/// `beyond[a][b]` (after `b` on the ray from `a` through `b`, to the edge).
struct Geo {
    between: Vec<u64>,
    beyond: Vec<u64>,
    /// The eight lines from a square, and its knight squares.
    around: [u64; 64],
}

fn geo() -> &'static Geo {
    static G: OnceLock<Geo> = OnceLock::new();
    G.get_or_init(|| {
        let mut between = vec![0u64; 64 * 64];
        let mut beyond = vec![0u64; 64 * 64];
        let mut around = [0u64; 64];
        let dirs = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
        let knight = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        for a in 0..64 {
            let (f, r) = ((a % 8) as i32, (a / 8) as i32);
            for &(df, dr) in &dirs {
                // Walk the ray: each square b met gets the squares passed as `between`,
                // and the rest of the ray as `beyond`.
                let mut ray = Vec::new();
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(s) = on_board(x, y) {
                    ray.push(s);
                    x += df;
                    y += dr;
                }
                for (i, &b) in ray.iter().enumerate() {
                    between[a * 64 + b] = ray[..i].iter().fold(0, |m, &s| m | 1 << s);
                    beyond[a * 64 + b] = ray[i + 1..].iter().fold(0, |m, &s| m | 1 << s);
                    around[a] |= 1 << b;
                }
            }
            for &(df, dr) in &knight {
                if let Some(s) = on_board(f + df, r + dr) {
                    around[a] |= 1 << s;
                }
            }
        }
        Geo { between, beyond, around }
    })
}

/// The squares whose content the move changes.
pub(super) fn changed(m: &Move) -> u64 {
    let mut c = 1u64 << m.from.index() | 1u64 << m.to.index();
    if let Some(cs) = m.capture {
        c |= 1 << cs.index();
    }
    if let Some((a, b)) = m.castle {
        c |= 1 << a.index() | 1 << b.index();
    }
    c
}

/// The zone of the move `s` of the side whose king is on `k` (see the module doc).
pub(super) fn zone(k: usize, s: &Move) -> u64 {
    if s.castle.is_some() || s.ep || s.capture.is_some_and(|c| c != s.to) {
        return !0;
    }
    let g = geo();
    let (x, y) = (s.from.index(), s.to.index());
    if x == k {
        return 1 << k | 1 << y | g.around[y];
    }
    // (Both line tables are empty when the squares are not aligned.)
    1 << k | 1 << x | 1 << y | g.between[x * 64 + y] | g.between[k * 64 + x] | g.beyond[k * 64 + x]
}

/// How a unit of the stalemated side may be immobile at the end (see [`immobility`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Immobile {
    /// Every first step may still be blocked by its own side (or the unit is a pawn).
    Blocked,
    /// Only as a pinned unit: a unit of the other side that can move along the line must
    /// stand on one of these squares at the end (the pinner), nonempty.
    Pinned(u64),
    /// A pawn whose front square `sq` is not its side's: a unit of the other side must
    /// stand on `sq`, or pin the pawn from one of the squares `pin` (empty: it cannot be
    /// pinned immobile).
    Front { sq: u8, pin: u64 },
    /// Neither.
    Never,
}

/// How a unit of the stalemated side S standing on `t` as `kind` at the end may have no
/// legal move there, S's king on `kq`, judged by S's final squares alone: `occ` (a
/// subset of the squares S occupies at the end, its king's included; at most `rem`
/// more are added later; holes, `Condition Hole`, may be given in it too: no unit stands
/// on a hole or crosses it, so a hole blocks a step, a line and a pin as a unit of S
/// does, and the proof below holds with "in O" read as "in O or a hole"), `foreign`
/// (squares S does not occupy at the end: the other side's committed final squares). A
/// pawn is always `Blocked` (its front square may hold a unit of the other side). A
/// unit that never moves (a dummy) is `Blocked`.
///
/// **Proof.** Let the unit u (not a pawn, not the king) stand on `t` in a stalemate F
/// (S to move, not in check, no legal move), O ⊇ `occ` the squares S occupies in F.
/// Suppose u has a pseudo-legal move. It is illegal, so it leaves S's king on `kq`
/// attacked while S was not in check before: u's leaving `t` opens a line onto `kq`, so
/// `t` is on a line (rank, file, diagonal) with `kq`, the squares strictly between are
/// empty (none in O) and on the ray from `kq` beyond `t` the first occupied square holds
/// the attacker P, a unit of the other side moving along that line (a queen, or a rook
/// on a rank or file, a bishop on a diagonal), the squares between `t` and P empty
/// (none in O, and no committed unit of the other side stands on them). Moreover no
/// pseudo-legal move of u keeps to the line (it would keep it shut, hence be legal): a
/// knight never moves along a line, a bishop never along a rank or file, a rook never
/// along a diagonal; a unit moving along it (a queen always, a rook on a rank or file,
/// a bishop on a diagonal) can step to the first square beyond `t` (empty) or take P
/// there. So either u is such a *pinned* unit and P stands on a square of the returned
/// set (the squares beyond `t` up to the first one in `occ`, excluded, or in `foreign`,
/// included), or u has no pseudo-legal move at all: the first square of each of its
/// directions (a rider's), each of its leaps (a knight's) is off the board or in O (an
/// empty one is a move, one of the other side's a capture). The squares of the pinned
/// case only shrink as O grows; the blocked case needs the first-step squares outside
/// `occ` among the at most `rem` squares added later, none in `foreign`.
pub(super) fn immobility(kind: usize, t: usize, kq: usize, occ: u64, foreign: u64, rem: u32, down: bool) -> Immobile {
    use chimere_fairy::walk::{BISHOP, KNIGHT, PAWN, ROOK};
    let tb = super::tables();
    let near = tb.att(0, KING.index(), t);
    if kind == PAWN.index() {
        let front = if down { t - 8 } else { t + 8 };
        if (occ | foreign) >> front & 1 == 1 || rem > 0 {
            return Immobile::Blocked;
        }
        // Pinned on a rank or a diagonal (a pin on the file lets it push); on a
        // diagonal going forward, not by a pinner next to it (the pawn would take it).
        let pin = if kq % 8 == t % 8 || g_line_blocked(kq, t, occ) {
            0
        } else {
            let seg = pin_squares(kq, t, occ, foreign);
            let forward = (t / 8 < kq / 8) == down;
            if kq / 8 != t / 8 && forward { seg & !near } else { seg }
        };
        return Immobile::Front { sq: front as u8, pin };
    }
    let Some(first) = first_steps(kind, t) else {
        return Immobile::Blocked;
    };
    let missing = first & !occ;
    if missing & foreign == 0 && missing.count_ones() <= rem {
        return Immobile::Blocked;
    }
    let orth = kq % 8 == t % 8 || kq / 8 == t / 8;
    let pinnable = kind == KNIGHT.index() || (kind == BISHOP.index() && orth) || (kind == ROOK.index() && !orth);
    if !pinnable || g_line_blocked(kq, t, occ) {
        return Immobile::Never;
    }
    let seg = pin_squares(kq, t, occ, foreign);
    if seg == 0 { Immobile::Never } else { Immobile::Pinned(seg) }
}

/// The first squares of a piece's moves (each direction's first step, a rider's; each
/// leap, a knight's) of kind `kind` on `t` on an empty board; `None` for a kind that
/// [`immobility`] judges `Blocked` at once (a pawn, the king, a dummy).
fn first_steps(kind: usize, t: usize) -> Option<u64> {
    use chimere_fairy::walk::{BISHOP, KNIGHT, QUEEN, ROOK};
    let tb = super::tables();
    let near = tb.att(0, KING.index(), t);
    if kind == KNIGHT.index() {
        Some(tb.att(0, kind, t))
    } else if kind == BISHOP.index() || kind == ROOK.index() {
        Some(near & tb.att(0, kind, t))
    } else if kind == QUEEN.index() {
        Some(near)
    } else {
        None
    }
}

/// The squares that must hold a unit of the stalemated side S at the end for the piece
/// of kind `kind` on `t` (not a pawn) to have no legal move, when it cannot be pinned:
/// its first-step squares ([`first_steps`]) outside `occ`; none when it may be pinned
/// (as [`immobility`] judges a pin: its kind across the line to `kq`, nothing of `occ`
/// between, some pinner square). Arguments as [`immobility`].
///
/// **Proof.** By the proof of [`immobility`], such a piece in a stalemate F is either
/// pinned (its kind across the line, no square of O between it and `kq`, the pinner on
/// a square beyond up to the first of O) or all its first-step squares are in O. As O
/// contains `occ`, a piece that cannot be pinned with `occ` (line shut, or no pinner
/// square) cannot be pinned in F either; so the squares returned are all in O.
pub(super) fn open_unpinnable(kind: usize, t: usize, kq: usize, occ: u64, foreign: u64) -> u64 {
    use chimere_fairy::walk::{BISHOP, KNIGHT, ROOK};
    let Some(first) = first_steps(kind, t) else {
        return 0;
    };
    let missing = first & !occ;
    if missing == 0 {
        return 0;
    }
    let orth = kq % 8 == t % 8 || kq / 8 == t / 8;
    let pinnable = kind == KNIGHT.index() || (kind == BISHOP.index() && orth) || (kind == ROOK.index() && !orth);
    if pinnable && !g_line_blocked(kq, t, occ) && pin_squares(kq, t, occ, foreign) != 0 { 0 } else { missing }
}

/// Whether `t` is off the lines of `kq`, or has no square beyond it, or a square of
/// `occ` lies between them.
fn g_line_blocked(kq: usize, t: usize, occ: u64) -> bool {
    let g = geo();
    g.beyond[kq * 64 + t] == 0 || g.between[kq * 64 + t] & occ != 0
}

/// The squares beyond `t` on the ray from `kq` (aligned) where a pinner may stand: up
/// to the first one in `occ` (excluded) or in `foreign` (included).
fn pin_squares(kq: usize, t: usize, occ: u64, foreign: u64) -> u64 {
    let (df, dr) = (((t % 8) as i32 - (kq % 8) as i32).signum(), ((t / 8) as i32 - (kq / 8) as i32).signum());
    let (mut f, mut r) = ((t % 8) as i32 + df, (t / 8) as i32 + dr);
    let mut seg = 0u64;
    while let Some(sq) = super::on_board(f, r) {
        if occ >> sq & 1 == 1 {
            break;
        }
        seg |= 1 << sq;
        if foreign >> sq & 1 == 1 {
            break;
        }
        f += df;
        r += dr;
    }
    seg
}

/// At most this many minimal zones are kept (a subset only weakens the filter).
const MAX_ZONES: usize = 32;

/// Minimal zones of the legal moves of the side to move (its king on `k`).
pub(super) struct Zones {
    z: [u64; MAX_ZONES],
    n: usize,
}

impl Zones {
    fn new() -> Zones {
        Zones { z: [0; MAX_ZONES], n: 0 }
    }

    fn add(&mut self, z: u64) {
        if self.z[..self.n].iter().any(|&o| o & !z == 0) {
            return;
        }
        // Zones containing z are dropped.
        let mut w = 0;
        for i in 0..self.n {
            if z & !self.z[i] != 0 {
                self.z[w] = self.z[i];
                w += 1;
            }
        }
        self.n = w;
        if self.n < MAX_ZONES {
            self.z[self.n] = z;
            self.n += 1;
        }
    }

    /// Whether a move changing `c` touches every zone.
    pub(super) fn hit_by(&self, c: u64) -> bool {
        self.z[..self.n].iter().all(|&z| z & c != 0)
    }

    /// The zones `c` does not touch.
    pub(super) fn untouched(&self, c: u64) -> Zones {
        let mut out = Zones::new();
        for &z in &self.z[..self.n] {
            if z & c == 0 {
                out.z[out.n] = z;
                out.n += 1;
            }
        }
        out
    }
}

/// Two plies left, the stalemated side S to move with the zones `zs` of its legal moves
/// here, and its move `m` just made: whether some move of the other side W (to move now)
/// touches every zone `m` left untouched (the lemma with the sequence of `m` and W's
/// move: else no W move stalemates).
pub(super) fn second_last_ok(game: &mut Game, zs: &Zones, m: &Move) -> bool {
    let rest = zs.untouched(changed(m));
    if rest.n == 0 {
        return true;
    }
    let mut moves = game.take_buf();
    game.pseudo_moves(game.pos.side(), &mut moves);
    let ok = moves.iter().any(|w| rest.hit_by(changed(w)));
    game.give_buf(moves);
    ok
}

/// The zones of the legal moves of the side to move in `game`; `None` without exactly
/// one king of that side.
pub(super) fn zones(game: &mut Game, notes: &mut Notes) -> Option<Zones> {
    let side = game.pos.side();
    let b = game.pos.board();
    let kings = b.colour(side).0 & b.kind(KING).0;
    if kings.count_ones() != 1 {
        return None;
    }
    let k = kings.trailing_zeros() as usize;
    let mut moves = game.take_buf();
    game.pseudo_moves(side, &mut moves);
    let mut zs = Zones::new();
    for m in &moves {
        if game.make_into(m, notes) {
            game.unmake();
            zs.add(zone(k, m));
        }
    }
    game.give_buf(moves);
    Some(zs)
}

/// The side to move (W) makes the last move of a stalemate of the other side: keeps from
/// `moves` those that touch every zone of the other side's legal moves in the position
/// (computed with W passing; when W cannot pass, being in check, nothing is filtered).
pub(super) fn filter_last(game: &mut Game, moves: &mut Vec<Move>, notes: &mut Notes) {
    if !game.make_into(&Move::NULL, notes) {
        return;
    }
    let zs = zones(game, notes);
    game.unmake();
    if let Some(zs) = zs {
        moves.retain(|m| zs.hit_by(changed(m)));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{
        Rng, collect_help, collect_series, crowd, kings_on_board, placement, random_game, with_dummies, with_holes,
    };
    use super::*;
    use crate::search::{Searcher, Table};
    use crate::stip::{Goal, Play};
    use chimere_core::Colour;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn searcher(g: Game) -> Searcher {
        Searcher::new(g, Table::new(8), Arc::new(AtomicBool::new(false)), Goal::Stalemate, false)
    }

    /// The squares an unpinnable stalemated piece leaves open: all its open first steps
    /// when it cannot be pinned (a queen; a rook on the king's rank or file; a piece
    /// whose line to the king is shut), none when it may be.
    #[test]
    fn open_squares_of_unpinnable_pieces() {
        use chimere_fairy::walk::{KNIGHT, PAWN, QUEEN, ROOK};
        let (a1, a2, a3, b2, c3, d4, h1) = (0, 8, 16, 9, 18, 27, 7);
        let tb = super::super::tables();
        let around_d4 = tb.att(0, KING.index(), d4);
        // A queen is never pinned immobile: every open neighbour must be filled.
        assert_eq!(open_unpinnable(QUEEN.index(), d4, h1, 1 << h1 | 1 << c3, 0), around_d4 & !(1 << c3));
        // A knight on the king's diagonal with the line open may be pinned.
        assert_eq!(open_unpinnable(KNIGHT.index(), c3, a1, 1 << a1, 0), 0);
        // The line shut by a unit of its side on b2: its leaps must all be filled.
        let leaps = tb.att(0, KNIGHT.index(), c3);
        assert_eq!(open_unpinnable(KNIGHT.index(), c3, a1, 1 << a1 | 1 << b2, 0), leaps);
        // A rook on the king's diagonal may be pinned; on its file it may not.
        assert_eq!(open_unpinnable(ROOK.index(), b2, a1, 1 << a1, 0), 0);
        assert_eq!(open_unpinnable(ROOK.index(), a2, a1, 1 << a1, 0), 1 << a3 | 1 << b2);
        assert_eq!(open_unpinnable(ROOK.index(), a2, a1, 1 << a1 | 1 << a3 | 1 << b2, 0), 0);
        // Pawns and kings are judged elsewhere.
        assert_eq!(open_unpinnable(PAWN.index(), b2, a1, 1 << a1, 0), 0);
    }

    /// A random orthodox position rich in stalemates, Black to move, White not in check:
    /// the black king on an edge, black pawns often blocked by white ones, a few pieces.
    fn stalemate_game(rng: &mut Rng) -> Option<Game> {
        let (mut board, _) = kings_on_board(rng)?;
        let put = |board: &mut [Option<char>; 64], c: char, sq: usize| {
            if board[sq].is_none() && (!c.eq_ignore_ascii_case(&'p') || (8..56).contains(&sq)) {
                board[sq] = Some(c);
                true
            } else {
                false
            }
        };
        for _ in 0..1 + rng.below(3) {
            let sq = 8 + rng.below(48) as usize;
            if put(&mut board, 'p', sq) && rng.below(2) == 0 && sq >= 16 {
                put(&mut board, 'P', sq - 8);
            }
        }
        for _ in 0..rng.below(2) {
            let u = b"rbs"[rng.below(3) as usize] as char;
            put(&mut board, u, rng.below(64) as usize);
        }
        for _ in 0..1 + rng.below(3) {
            let u = b"QRBSP"[rng.below(5) as usize] as char;
            put(&mut board, u, rng.below(64) as usize);
        }
        let fen = placement(&board);
        let mut g = chimere_fairy::game_from_fen(&format!("{fen} b - - 0 1"), &[]).ok()?;
        if g.in_check(Colour::White) {
            return None;
        }
        Some(g)
    }

    /// A random position, Black to move, built to be often a stalemate with pinned
    /// units: the black king on an edge, black pieces next to it or on its lines, white
    /// line pieces, White not in check.
    fn crowded_game(rng: &mut Rng) -> Option<Game> {
        let (mut board, bk) = kings_on_board(rng)?;
        crowd(&mut board, bk, 2 + rng.below(4), b"snbrqppp", rng);
        for _ in 0..2 + rng.below(3) {
            let sq = rng.below(64) as usize;
            if board[sq].is_none() {
                let u = b"QRBSP"[rng.below(5) as usize] as char;
                if u != 'P' || (8..56).contains(&sq) {
                    board[sq] = Some(u);
                }
            }
        }
        let fen = placement(&board);
        let mut g = chimere_fairy::game_from_fen(&format!("{fen} b - - 0 1"), &[]).ok()?;
        if g.in_check(Colour::White) {
            return None;
        }
        Some(g)
    }

    /// The immobility rule ([`immobility`]) against the real rules: in random
    /// stalemates, every black unit is `Blocked` or `Pinned` with a white line piece of
    /// the right kind on one of the pinning squares, judged with the black squares
    /// known and the white ones as foreign; and while black squares are still to be
    /// placed (any subset of them known, the rest counted), never `Never`.
    #[test]
    fn the_immobility_rule_holds_in_real_stalemates() {
        use chimere_fairy::walk::{BISHOP, QUEEN, ROOK};
        let mut rng = Rng(0x1a7e);
        let (mut stalemates, mut pinned, mut fronts) = (0, 0, 0);
        let mut tried = 0;
        while stalemates < 3000 {
            tried += 1;
            assert!(tried < 2_000_000, "too few stalemates: {stalemates}");
            let Some(mut g) = crowded_game(&mut rng) else { continue };
            if g.in_check(Colour::Black) {
                continue;
            }
            let mut moves = Vec::new();
            g.pseudo_moves(Colour::Black, &mut moves);
            let mut notes = Notes::new();
            let mobile = moves.iter().any(|m| {
                let ok = g.make_into(m, &mut notes);
                if ok {
                    g.unmake();
                }
                ok
            });
            if mobile {
                continue;
            }
            stalemates += 1;
            let b = g.pos.board();
            let black = b.colour(Colour::Black).0;
            let white = b.colour(Colour::White).0;
            let kq = (black & b.kind(KING).0).trailing_zeros() as usize;
            let mut units = black & !(1 << kq);
            while units != 0 {
                let t = units.trailing_zeros() as usize;
                units &= units - 1;
                let kind = b.get(chimere_core::Square::new(t as u8)).expect("a unit").kind.index();
                match immobility(kind, t, kq, black, white, 0, true) {
                    Immobile::Never => panic!("unit on {t} called mobile: {}", g.pos.fen()),
                    Immobile::Blocked => {}
                    Immobile::Pinned(seg) => {
                        let orth = kq % 8 == t % 8 || kq / 8 == t / 8;
                        let line = if orth { ROOK } else { BISHOP };
                        let pinners = (b.kind(QUEEN).0 | b.kind(line).0) & white & seg;
                        assert!(pinners != 0, "unit on {t}: no pinner on the pinning squares: {}", g.pos.fen());
                        pinned += 1;
                    }
                    Immobile::Front { sq, pin } => {
                        let orth = kq / 8 == t / 8;
                        let line = if orth { ROOK } else { BISHOP };
                        let pinners = (b.kind(QUEEN).0 | b.kind(line).0) & white & pin;
                        assert!(
                            white >> sq & 1 == 1 || pinners != 0,
                            "pawn on {t}: neither blocked nor pinned: {}",
                            g.pos.fen()
                        );
                        fronts += 1;
                    }
                }
                // Part of the black squares known: the rest counted.
                let mask = rng.below(1 << 31) << 33 | rng.below(1 << 31) << 2 | rng.below(4);
                let known = black & mask | 1 << kq | 1 << t;
                let rem = (black & !known).count_ones();
                assert_ne!(
                    immobility(kind, t, kq, known, white, rem, true),
                    Immobile::Never,
                    "unit on {t}, known {known:x}: {}",
                    g.pos.fen()
                );
            }
        }
        // The sample must hold pinned units for the test to mean something.
        assert!(pinned >= 20, "only {pinned} pinned units in {stalemates} stalemates");
        assert!(fronts >= 15, "only {fronts} pawns held by White in {stalemates} stalemates");
    }

    /// `count` positions, alternately from [`random_game`] and [`stalemate_game`].
    fn mixed_games(seed: u64, count: usize) -> impl Iterator<Item = Game> {
        let mut rng = Rng(seed);
        let mut i = 0u32;
        std::iter::from_fn(move || {
            i += 1;
            loop {
                let g = if i.is_multiple_of(2) { random_game(&mut rng) } else { stalemate_game(&mut rng) };
                if let Some(g) = g {
                    return Some(g);
                }
            }
        })
        .take(count)
    }

    /// Walks every node `plies` deep: on the last ply no stalemating move is filtered
    /// out, and on the one before no move after which a stalemating move exists is
    /// refused. Returns (moves tried on those plies, moves refused).
    fn walk(s: &mut Searcher, plies: u32, stats: &mut (u64, u64)) {
        let moves = s.legal();
        if plies == 1 {
            let mut kept = moves.clone();
            filter_last(&mut s.game, &mut kept, &mut Notes::new());
            for m in &moves {
                stats.0 += 1;
                stats.1 += u64::from(!kept.contains(m));
                if s.goal_after_pub(m) {
                    assert!(kept.contains(m), "stalemating move {m:?} filtered out: {}", s.game.pos.fen());
                }
            }
            return;
        }
        let zs = if plies == 2 { zones(&mut s.game, &mut Notes::new()) } else { None };
        for m in &moves {
            s.game.make(m).expect("legal");
            if let Some(zs) = &zs {
                stats.0 += 1;
                if !second_last_ok(&mut s.game, zs, m) {
                    stats.1 += 1;
                    assert!(!s.help_exists(1).expect("not stopped"), "{m:?} refused: {}", s.game.pos.fen());
                }
            }
            walk(s, plies - 1, stats);
            s.game.unmake();
        }
    }

    #[test]
    fn the_filters_never_refuse_a_stalemate() {
        let mut stats = (0, 0);
        for g in mixed_games(0x57a1, 60) {
            for plies in 1..=3 {
                walk(&mut searcher(g.clone()), plies, &mut stats);
            }
        }
        // The test means something only if the filters do refuse moves.
        assert!(stats.1 * 4 > stats.0, "refused {} of {} moves", stats.1, stats.0);
    }

    /// A way to list the help lines of exactly `plies` plies (see [`Searcher::help_lines`]).
    type LineSearch = fn(
        &mut Searcher,
        u32,
        &mut Vec<Move>,
        &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<bool, crate::search::Interrupted>;

    /// The help lines of `plies` plies by the normal search and by `search`.
    fn both(g: &Game, plies: u32, search: LineSearch) -> (Vec<Vec<Move>>, Vec<Vec<Move>>) {
        let (la, _) = collect_help(|out| searcher(g.clone()).help_lines(plies, &mut Vec::new(), out));
        let (lb, _) = collect_help(|out| search(&mut searcher(g.clone()), plies, &mut Vec::new(), out));
        (la, lb)
    }

    /// Solves `count` random positions at each length in `plies` by the normal search and
    /// by `search`: the same lines in the same order. Returns the number of lines.
    fn compare(seed: u64, count: usize, plies: std::ops::RangeInclusive<u32>, search: LineSearch) -> usize {
        let mut found = 0;
        for g in mixed_games(seed, count) {
            for p in plies.clone() {
                let (la, lb) = both(&g, p, search);
                assert_eq!(la, lb, "{} plies from {}", p, g.pos.fen());
                found += la.len();
            }
        }
        found
    }

    /// The pictures from the first ply on.
    fn by_pictures(
        s: &mut Searcher,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<bool, crate::search::Interrupted> {
        let r = super::super::pictures::lines(s, &mut Default::default(), 0, plies, prefix, out)?;
        assert!(r.is_some(), "pictures not applied: {}", s.game.pos.fen());
        Ok(r.unwrap_or(true))
    }

    /// The intelligent mode's search (the pictures where it takes them).
    fn intelligent(
        s: &mut Searcher,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<bool, crate::search::Interrupted> {
        s.install_pruning(|| super::super::Intelligent::boxed(Goal::Stalemate));
        s.help_lines(plies, prefix, out)
    }

    #[test]
    fn the_intelligent_search_finds_the_same_stalemates() {
        // h=0.5 to h=2 (the filters).
        let found = compare(0x5a1e, 40, 1..=4, intelligent);
        assert!(found > 10, "only {found} lines in the sample");
    }

    #[test]
    fn the_stalemate_pictures_find_the_same_stalemates() {
        let found = compare(0x5a2e, 25, 1..=4, by_pictures);
        assert!(found > 10, "only {found} lines in the sample");
    }

    #[test]
    #[ignore = "heavy: h=3 from random positions (run with --release --ignored)"]
    fn the_stalemate_pictures_find_the_same_stalemates_in_three() {
        let found = compare(0x5a3e, 20, 5..=6, by_pictures);
        eprintln!("{found} lines");
        let found = compare(0x5a4e, 20, 6..=6, intelligent);
        eprintln!("{found} lines");
    }

    /// Crowded positions (pinned units, pawns held by White), by the pictures from the
    /// first ply on: the same lines as the normal search.
    #[test]
    fn the_stalemate_pictures_find_the_same_stalemates_when_crowded() {
        let mut rng = Rng(0xc20d);
        let (mut found, mut games) = (0, 0);
        while games < 30 {
            let Some(g) = crowded_game(&mut rng) else { continue };
            games += 1;
            for p in 1..=4 {
                let (la, lb) = both(&g, p, by_pictures);
                assert_eq!(la, lb, "{} plies from {}", p, g.pos.fen());
                found += la.len();
            }
        }
        assert!(found > 10, "only {found} lines in the sample");
    }

    #[test]
    fn the_series_pictures_find_the_same_stalemates() {
        let mut found = 0;
        for g in mixed_games(0x5e7a, 40) {
            for k in 1..=4 {
                found += same_series_lines(&g, k);
            }
        }
        assert!(found > 10, "only {found} lines in the sample");
    }

    /// Help play of 1 to 4 plies (by the pictures from the first ply on, and by the
    /// intelligent mode's search) and series play of 1 to 4 moves (by the pictures) from
    /// `count` positions of `games`: the normal search's lines. Returns the number of lines.
    fn compare_all(games: impl Iterator<Item = Game>, count: usize) -> usize {
        let mut found = 0;
        for g in games.take(count) {
            for p in 1..=4 {
                let (la, lb) = both(&g, p, by_pictures);
                assert_eq!(la, lb, "{} plies from {} (pictures)", p, g.pos.fen());
                let (_, lc) = both(&g, p, intelligent);
                assert_eq!(la, lc, "{} plies from {} (intelligent)", p, g.pos.fen());
                found += la.len();
            }
            for k in 1..=4 {
                found += same_series_lines(&g, k);
            }
        }
        found
    }

    /// `ser-h=k` from `g` by the pictures: the normal search's lines (asserted). Returns
    /// the number of lines.
    fn same_series_lines(g: &Game, k: u32) -> usize {
        let play = Play::SeriesHelp;
        let (la, _) = collect_series(|out| searcher(g.clone()).series_lines(play, k, &mut Vec::new(), out));
        let (lb, r) = collect_series(|out| {
            super::super::pictures::series_lines(
                &mut searcher(g.clone()),
                &mut Default::default(),
                0,
                play,
                k,
                &mut Vec::new(),
                out,
            )
        });
        assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
        assert_eq!(la, lb, "ser-h={k} from {}", g.pos.fen());
        la.len()
    }

    /// The positions `make` draws from `seed`, the failed draws skipped.
    fn drawn(seed: u64, make: fn(&mut Rng) -> Option<Game>) -> impl Iterator<Item = Game> {
        let mut rng = Rng(seed);
        std::iter::from_fn(move || {
            loop {
                if let Some(g) = make(&mut rng) {
                    return Some(g);
                }
            }
        })
    }

    /// `ser-h=5` from crowded positions, half of them with holes, by the pictures: the
    /// normal search's lines (the bound of the frozen side, `pictures::frozen`, and the
    /// placements' immobility cut prune here).
    #[test]
    fn the_series_pictures_find_the_same_longer_stalemates() {
        let made = |rng: &mut Rng| {
            let g = crowded_game(rng)?;
            if rng.below(2) == 0 { with_holes(&g, rng) } else { Some(g) }
        };
        let mut found = 0;
        for g in drawn(0x5e7b, made).take(16) {
            found += same_series_lines(&g, 5);
        }
        assert!(found > 0, "no line in the sample");
    }

    /// Stalemates with holes (`Condition Hole`: no flight, no final square, a block for
    /// the immobility rule): the normal search's lines.
    #[test]
    fn the_stalemate_pictures_find_the_same_stalemates_with_holes() {
        let holed = |rng: &mut Rng| {
            let g = if rng.below(2) == 0 { stalemate_game(rng) } else { crowded_game(rng) }?;
            with_holes(&g, rng)
        };
        let found = compare_all(drawn(0x401a, holed), 24);
        assert!(found > 10, "only {found} lines in the sample");
    }

    /// Stalemates with dummies of either side (units without a move, attacking nothing):
    /// the normal search's lines.
    #[test]
    fn the_stalemate_pictures_find_the_same_stalemates_with_dummies() {
        let dummied = |rng: &mut Rng| {
            let g = if rng.below(2) == 0 { stalemate_game(rng) } else { crowded_game(rng) }?;
            with_dummies(&g, rng)
        };
        let found = compare_all(drawn(0xd0d0, dummied), 24);
        assert!(found > 10, "only {found} lines in the sample");
    }
}
