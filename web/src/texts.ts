// The rules pages, in our own words, with diagrams (FEN, green arrows, red circles), and
// one-line notes on the fairy conditions.

export type Diagram = { fen: string; caption: string; arrows?: string[]; circles?: string[] };
export type Section = { heading: string; text: string[]; diagrams?: Diagram[] };
export type Rules = { title: string; summary: string; sections: Section[] };

const ENTER = 'On the board: drag or click a piece to a highlighted square. A turn made of several parts is entered one part after the other; the panel beside the board shows the turn so far, and buttons for passing, switching or sending a piece off the board.';

export const RULES: Record<string, Rules> = {
  chess: {
    title: 'Chess',
    summary: 'orthodox chess, also from random arrays (Chess960), and under fairy conditions.',
    sections: [
      { heading: 'The game', text: ['Orthodox chess: checkmate wins; stalemate, threefold repetition, the fifty-move rule and insufficient material draw. On time, a player whose flag falls loses, unless the opponent has only a king, or a king and one minor piece: then it is a draw.', 'With a random array (Chess960 style) castling puts king and rook on the usual g/c and f/d files; to castle, move the king onto its destination (or, in Chess960 mode, onto its own rook).'],
        diagrams: [{ fen: 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2', caption: 'The shortest mate: Black plays Qh4#.', arrows: ['d8h4'] }] },
      { heading: 'Fairy conditions', text: ['In the lobby, chess can be played under one or several fairy conditions from the problemists\' world (Circe, Anticirce, Einstein, Madrasi-like Eiffel, Losing chess...). The rules of each are listed on the conditions page; the server applies them exactly as the solver does.'] },
      { heading: 'Entering turns', text: [ENTER, 'A promotion asks which piece you want.'] },
    ],
  },
  checkered: {
    title: 'Checkered chess',
    summary: 'captures create checkered pieces that both players may move.',
    sections: [
      { heading: 'Checkered pieces', text: ['Every capture by a piece other than the king turns the capturer into a checkered piece (drawn on a checkered disc). You choose whether it keeps its own kind or takes the kind it captured. Checkered pieces belong to both players: on your turn you may move them as if they were yours, and they move and capture in your direction. Nothing captures a checkered piece.', 'A checkered move that only undoes the previous checkered move is not allowed. Your king is in check when an enemy piece or a checkered piece could take it on the opponent\'s behalf.'],
        diagrams: [{ fen: 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w 0 ahah1111111111111111 - - 1', caption: 'exd5: the pawn becomes a checkered pawn on d5.', arrows: ['e4d5'] }] },
      { heading: 'The switch', text: ['Once checkered pieces exist, a player may switch: from then on that player moves only the checkered pieces, and the opponent moves the white and the black ones. The switch is followed at once by a checkered move. The checkered side wins by mating either king.'] },
      { heading: 'Entering turns', text: [ENTER, 'The switch is a button ("Switch"), then you move a checkered piece. When a capture can keep or change the capturer\'s kind, you are asked which.'] },
    ],
  },
  interweave: {
    title: 'Interweave',
    summary: 'two kings each, pieces bound to one square colour, chains of compulsory captures.',
    sections: [
      { heading: 'The idea', text: ['Each side has two kings; you win by capturing one of the enemy kings (or when the opponent has no move). Every piece stays on squares of one colour and captures in its own way. Captures are compulsory, and a piece that can capture again must go on: the turn becomes a chain of captures, each one a part.'],
        diagrams: [{ fen: 'rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000', caption: 'The start: Smashers (R), Removers (B), Leapers (N), two kings and pawns.' }] },
      { heading: 'The pieces', text: ['King: one diagonal step; captures by jumping orthogonally over an adjacent enemy. Smasher: slides diagonally, or orthogonally an even number of squares, and captures the enemy just beyond where it stops (approach). Leaper: slides the same way, jumps a double knight step, and captures by jumping over an enemy orthogonally. Remover: slides diagonally and removes all orthogonally adjacent enemies without moving. Pawn: one diagonal step forward, captures by leaping straight over an enemy; after any pawn move, enemies caught between it and an own piece are removed. A pawn promotes only into a piece of its side that was captured.'] },
      { heading: 'Entering turns', text: [ENTER, 'A chain is entered capture by capture; the board shows the chain so far and waits for the next capture. A Remover\'s capture is entered by moving it onto one of the pieces it removes.'] },
    ],
  },
  fugue: {
    title: 'Fugue',
    summary: 'an Ultima-like game: pieces that capture by approach, withdrawal, leaping, shooting and swapping.',
    sections: [
      { heading: 'The pieces', text: ['Most pieces move like a queen but capture in their own way; the goal is to capture the enemy king (there is no check). Immobilizer (I): freezes every adjacent enemy. Pushme-pullyu (U): captures the enemy it moves away from or towards. Long leaper (L): jumps an enemy and lands beyond. Archer (A): shoots an enemy on a line without moving, when close enough or helped by an own piece near the target. Shield (S): protects its neighbours from capture. Swapper (W): swaps places with the first enemy on a line, or destroys an adjacent enemy together with itself. Pawns are cannons: step anywhere, or leap over an adjacent piece, capturing what they land on. The queen and king capture as in chess.'],
        diagrams: [{ fen: 'wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0', caption: 'The start position. Letters on discs mark Fugue\'s own pieces.' }] },
      { heading: 'Entering turns', text: [ENTER, 'An archer\'s shot is entered by moving the archer onto its target; the swapper\'s destruction is offered as a choice when both are possible.'] },
    ],
  },
  dynamo: {
    title: 'Dynamo',
    summary: 'nothing is captured: pieces push and pull each other, possibly off the board.',
    sections: [
      { heading: 'Pushing and pulling', text: ['Pieces move as in chess but never capture. Instead a piece may push another piece (of either colour) along its line of movement, possibly off the board, and then follow it; or move and pull a piece that stood behind it. A turn therefore has up to two parts: the first moves a piece (yours, or one you push); the second follows the pushed piece, pulls a piece after the moved one, or passes. You win by leaving the enemy king no legal turn while it is attacked (it could be pushed off).'],
        diagrams: [{ fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -', caption: 'A rook pushes its pawn h2 to h6 (part 1) and follows it to h5 (part 2): h2h6,h1h5.', arrows: ['h2h6', 'h1h5'] }] },
      { heading: 'Entering turns', text: [ENTER, 'Part 1 of a push is entered by moving the pushed piece; then move the pusher behind it (or press "Pass"). A piece leaving the board has its own button. When the first part alone is a whole turn, "End turn here" finishes it.'] },
    ],
  },
};

export const CONDITION_NOTES: Record<string, string> = {
  'circe': 'a captured unit is reborn on its game-array square if that square is empty.',
  'circe antipode': 'the captured unit is reborn four files and four ranks away.',
  'circe cameleon': 'the captured unit is reborn changed (queen→knight→bishop→rook→queen).',
  'circe clone': 'the captured unit is reborn as the capturer\'s kind.',
  'super-circe': 'the capturer chooses any empty square for the rebirth.',
  'anticirce': 'the capturer goes back to its own game-array square (the capture is illegal if it is occupied).',
  'ghost': 'a captured unit comes back as a ghost once the capture square is free.',
  'einstein': 'moving pieces change kind: down the scale when not capturing, up when capturing.',
  'haan': 'a square left by a piece becomes a hole.',
  'eiffel': 'pieces paralyse the enemy pieces of the next kind in the chain they observe.',
  'madrasi': 'a unit observed by an enemy of its own kind is paralysed.',
  'andernach': 'a capturing unit changes colour.',
  'anti-andernach': 'a non-capturing unit changes colour.',
  'sentinelles': 'a piece leaving a square leaves a pawn behind it.',
  'losing': 'captures are compulsory and the side that loses everything wins.',
  'qui perd gagne': 'captures are compulsory and the side that loses everything wins.',
  'monochromatique': 'every move ends on a square of the colour it started from.',
  'bichromatique': 'every move changes the colour of the square.',
  'glasgow': 'pawns promote on the seventh rank.',
  'volage': 'a unit changes colour when it first reaches a square of the other colour.',
  'rex inclusiv': 'the kings take part in the condition too.',
  'brunner': 'check is tested by playing the capture of the king under the conditions.',
  'isardam': 'a move that would paralyse a unit is illegal.',
  'extinction': 'losing every unit of one kind loses the game.',
  'dynamo': 'pieces push and pull instead of capturing (the condition).',
  'augsburg': 'pieces can stand on each other and move together.',
  'progressif': 'each side plays one more move each turn than the last.',
  'annéciens': 'a unit moves with the powers of the piece standing behind it.',
  'anneciens': 'a unit moves with the powers of the piece standing behind it.',
  'trou': 'some squares are holes no piece may enter.',
  'central': 'a unit can move only if it is observed by an own unit linked to the king.',
  'ultra-patrouille': 'a unit can move or capture only when observed by an own unit.',
  'swapping kings': 'kings can swap places with an own unit.',
  'rokagogo': 'castling with any piece on the corner.',
  'sans echec': 'no side may give check: a check is an illegal move.',
  'rex multiplex': 'several kings per side; every one must stay out of check.',
  'republicains': 'the mating side places the enemy king where it is mated.',
  'sat': 'a king is in check when it has a flight square.',
  'absorbant': 'a capturer takes on the powers of what it captured.',
  'no double pawns': 'a move that doubles pawns is illegal.',
  'all-in': 'each side may move the opponent\'s units too.',
  'cavalier majeur': 'the knight is replaced by the nightrider.',
  'rose': 'the knight moves as a rose.',
  'kamikaze': 'a capturing unit disappears with what it captured.',
  'bicolores': 'a king is in check from units of either colour.',
  'les noirs': 'Black may play only checking moves.',
  'rois reflecteurs': 'kings gain the powers of the units that observe them.',
  'rois strictement': 'kings checked by a unit move like that unit.',
};
