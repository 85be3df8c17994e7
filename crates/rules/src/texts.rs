//! The rules pages' texts, in our own words, with their diagrams: a variant's descriptor
//! carries them ([`crate::Descriptor::rules`]) and the client shows them (it holds no text of
//! its own). The fairy conditions' texts are the condition registry's.

use serde::Serialize;

/// A section of a rules page.
#[derive(Debug, Serialize)]
pub struct Section {
    pub heading: &'static str,
    /// Its paragraphs.
    pub text: &'static [&'static str],
    pub diagrams: &'static [Diagram],
}

/// A diagram: a position with arrows (green) and circled squares (red).
#[derive(Debug, Serialize)]
pub struct Diagram {
    /// The variant's FEN.
    pub fen: &'static str,
    pub caption: &'static str,
    /// Moves drawn as arrows (from and to squares: `e2e4`).
    pub arrows: &'static [&'static str],
    pub circles: &'static [&'static str],
}

/// How turns are entered on the board (every variant's page says it).
const ENTER: &str = "On the board: drag or click a piece to a highlighted square. A turn made of several parts is entered one part after the other; the panel beside the board shows the turn so far in words, with buttons for passing or switching. A piece leaves the board by being dragged off its edge (or selected, then the marked edge tapped); a square to choose, such as a rebirth square, is marked on the board; a promotion is chosen from the pieces' pictures.";

/// Chess.
pub static CHESS: &[Section] = &[
    Section {
        heading: "The game",
        text: &[
            "Orthodox chess: checkmate wins; stalemate, threefold repetition, the fifty-move rule and insufficient material draw. On time, a player whose flag falls loses, unless the opponent has only a king, or a king and one minor piece: then it is a draw.",
            "With a random array (Chess960 style) castling puts king and rook on the usual g/c and f/d files; to castle, move the king onto its destination (or, in Chess960 mode, onto its own rook).",
        ],
        diagrams: &[Diagram {
            fen: "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            caption: "The shortest mate: Black plays Qh4#.",
            arrows: &["d8h4"],
            circles: &[],
        }],
    },
    Section {
        heading: "Fairy conditions",
        text: &[
            "In the lobby, chess can be played under one or several fairy conditions from the problemists' world (Circe, Anticirce, Einstein, Madrasi-like Eiffel, Losing chess...). The rules of each are listed on the conditions page; the server applies them exactly as the solver does.",
        ],
        diagrams: &[],
    },
    Section { heading: "Entering turns", text: &[ENTER, "A promotion asks which piece you want."], diagrams: &[] },
];

/// Checkered chess.
pub static CHECKERED: &[Section] = &[
    Section {
        heading: "Checkered pieces",
        text: &[
            "Every capture by a piece other than the king turns the capturer into a checkered piece (drawn on a checkered disc). You choose whether it keeps its own kind or takes the kind it captured. Checkered pieces belong to both players: on your turn you may move them as if they were yours, and they move and capture in your direction. Nothing captures a checkered piece.",
            "A checkered move that only undoes the previous checkered move is not allowed. Your king is in check when an enemy piece or a checkered piece could take it on the opponent's behalf.",
        ],
        diagrams: &[Diagram {
            fen: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w 0 ahah1111111111111111 - - 1",
            caption: "exd5: the pawn becomes a checkered pawn on d5.",
            arrows: &["e4d5"],
            circles: &[],
        }],
    },
    Section {
        heading: "The switch",
        text: &[
            "Once checkered pieces exist, a player may switch: from then on that player moves only the checkered pieces, and the opponent moves the white and the black ones. The switch is followed at once by a checkered move. The checkered side wins by mating either king.",
        ],
        diagrams: &[],
    },
    Section {
        heading: "Entering turns",
        text: &[
            ENTER,
            "The switch is a button (\"Switch\"), then you move a checkered piece. When a capture can keep or change the capturer's kind, you are asked which.",
        ],
        diagrams: &[],
    },
];

/// Interweave.
pub static INTERWEAVE: &[Section] = &[
    Section {
        heading: "The idea",
        text: &[
            "Each side has two kings; you win by capturing one of the enemy kings (or when the opponent has no move). Every piece stays on squares of one colour and captures in its own way. Captures are compulsory, and a piece that can capture again must go on: the turn becomes a chain of captures, each one a part.",
        ],
        diagrams: &[Diagram {
            fen: "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000",
            caption: "The start: Smashers (R), Removers (B), Leapers (N), two kings and pawns.",
            arrows: &[],
            circles: &[],
        }],
    },
    Section {
        heading: "The pieces",
        text: &[
            "King: one diagonal step; captures by jumping orthogonally over an adjacent enemy. Smasher: slides diagonally, or orthogonally an even number of squares, and captures the enemy just beyond where it stops (approach). Leaper: slides the same way, jumps a double knight step, and captures by jumping over an enemy orthogonally. Remover: slides diagonally and removes all orthogonally adjacent enemies without moving. Pawn: one diagonal step forward, captures by leaping straight over an enemy; after any pawn move, enemies caught between it and an own piece are removed. A pawn promotes only into a piece of its side that was captured.",
        ],
        diagrams: &[],
    },
    Section {
        heading: "Entering turns",
        text: &[
            ENTER,
            "A chain is entered capture by capture; the board shows the chain so far and waits for the next capture. A Remover's capture is entered by moving it onto one of the pieces it removes.",
        ],
        diagrams: &[],
    },
];

/// Fugue.
pub static FUGUE: &[Section] = &[
    Section {
        heading: "The pieces",
        text: &[
            "Most pieces move like a queen but capture in their own way; the goal is to capture the enemy king (there is no check). Immobilizer (I): freezes every adjacent enemy. Pushme-pullyu (U): captures the enemy it moves away from or towards. Long leaper (L): jumps an enemy and lands beyond. Archer (A): shoots an enemy on a line without moving, when close enough or helped by an own piece near the target. Shield (S): protects its neighbours from capture. Swapper (W): swaps places with the first enemy on a line, or destroys an adjacent enemy together with itself. Pawns are cannons: step anywhere, or leap over an adjacent piece, capturing what they land on. The queen and king capture as in chess.",
        ],
        diagrams: &[Diagram {
            fen: "wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0",
            caption: "The start position. Letters on discs mark Fugue's own pieces.",
            arrows: &[],
            circles: &[],
        }],
    },
    Section {
        heading: "Entering turns",
        text: &[
            ENTER,
            "An archer's shot is entered by moving the archer onto its target; the swapper's destruction is offered as a choice when both are possible.",
        ],
        diagrams: &[],
    },
];

/// Dynamo.
pub static DYNAMO: &[Section] = &[
    Section {
        heading: "Pushing and pulling",
        text: &[
            "Pieces move as in chess but never capture. Instead a piece may push another piece (of either colour) along its line of movement, possibly off the board, and then follow it; or move and pull a piece that stood behind it. A turn therefore has up to two parts: the first moves a piece (yours, or one you push); the second follows the pushed piece, pulls a piece after the moved one, or passes. You win by leaving the enemy king no legal turn while it is attacked (it could be pushed off).",
        ],
        diagrams: &[Diagram {
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -",
            caption: "A rook pushes its pawn h2 to h6 (part 1) and follows it to h5 (part 2).",
            arrows: &["h2h6", "h1h5"],
            circles: &[],
        }],
    },
    Section {
        heading: "Entering turns",
        text: &[
            ENTER,
            "Part 1 of a push is entered by moving the pushed piece; then move the pusher behind it (or press \"Pass\"). A piece is sent off the board by dragging it off the edge, or by selecting it and tapping the marked edge. When the first part alone is a whole turn, \"End turn here\" finishes it.",
        ],
        diagrams: &[],
    },
];
