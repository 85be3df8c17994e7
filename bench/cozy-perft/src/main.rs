//! `cozy-perft [--depth N] [--fen FEN] [--bulk]`: perft with cozy-chess's move generator,
//! every leaf played (full leaf) or the last ply counted from the move sets (`--bulk`),
//! as `chimere perft` counts them. Prints the leaf count; the time on standard error.

use cozy_chess::Board;
use std::time::Instant;

/// Leaves at `depth`, every one played.
fn perft(board: &Board, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Leaves at `depth`, the last ply counted from the move sets (a separate function: the
/// counting loop stays small, as cozy-chess's own perft example has it).
fn perft_bulk(board: &Board, depth: u8) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => return 1,
        1 => board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        }),
        _ => board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft_bulk(&child, depth - 1);
            }
            false
        }),
    };
    nodes
}

fn main() {
    let mut depth = 5u8;
    let mut fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string();
    let mut bulk = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--depth" => depth = args.next().and_then(|d| d.parse().ok()).expect("--depth N"),
            "--fen" => fen = args.next().expect("--fen FEN"),
            "--bulk" => bulk = true,
            other => {
                eprintln!("cozy-perft: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let board: Board = match fen.parse() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cozy-perft: bad FEN: {e:?}");
            std::process::exit(2);
        }
    };
    let t = Instant::now();
    let n = if bulk { perft_bulk(&board, depth) } else { perft(&board, depth) };
    eprintln!("{:.3} s", t.elapsed().as_secs_f64());
    println!("{n}");
}
