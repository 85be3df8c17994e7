// The shapes the WebAssembly problem solver answers in (crates/wasm/src/solve.rs), and the
// messages between the problems page and its worker.

export type Side = 'white' | 'black' | 'neutral';

/** A unit on a square: its Popeye letters (`Q`, `S`, `N`, `RO`...) and attributes. */
export type BoardUnit = { square: string; side: Side; piece: string; attrs: string[] };

export type PieceInfo = { letters: string; name: string; fairy: boolean };
export type OptionInfo = { name: string; takes: 'none' | 'number' | 'squares'; summary: string };
/** A field of a twinning command (the Popeye reader's `TwinArg`). */
export type TwinArgInfo = { label: string; field: 'square' | 'piece' | 'units' | 'choice' | 'conditions' | 'stipulation'; choices: string[] };
/** A twinning command the solver reads (`chimere_popeye::TWIN_KINDS`). */
export type TwinKindInfo = { keyword: string; args: TwinArgInfo[] };
export type Catalogue = { pieces: PieceInfo[]; attributes: string[]; options: OptionInfo[]; twins: TwinKindInfo[] };

/** A twinning command as the form holds it: its keyword and each field's words. */
export type FormTwinCmd = { kind: string; args: string[] };
/** A twin: from the diagram, or from the previous twin (`continued`). */
export type FormTwin = { continued: boolean; cmds: FormTwinCmd[] };

/** A game's condition as Popeye writes it (`conditionPopeye`), or why it cannot. */
export type ConditionText = { popeye: string } | { error: string };

export type LineError = { line: number; message: string };

/** One problem as the form holds it. */
export type FormProblem = {
  title: string;
  author: string;
  origin: string;
  pieces: BoardUnit[];
  conditions: { name: string; params: string[] }[];
  stipulation: string;
  options: string[];
  twins: FormTwin[];
  zero_position: boolean;
  /** The diagram's holes (as the conditions make them: read by the solver, not named here). */
  holes: string[];
};

export type Read = { problem: FormProblem } | { error: LineError };

export type NodeKind = 'key' | 'try' | 'premature' | 'refutation' | 'threat' | 'defence' | 'answer' | 'set' | 'line' | 'setline';

/** A move of a solution with the position after it (null: not found again, text only). */
export type Ply = { text: string; board: BoardUnit[] | null };
export type SolNode = { kind: NodeKind; text: string; plies: Ply[]; children: SolNode[] };
export type TwinResult = { label: string | null; lines: string[]; start: BoardUnit[]; tree: SolNode[] };
export type ProblemResult = { error: LineError | null; text: string; twins: TwinResult[]; finished: boolean };

export type ToWorker = { t: 'solve'; id: number; input: string };
export type FromWorker =
  | { t: 'ready' }
  | { t: 'text'; id: number; chunk: string }
  | { t: 'done'; id: number; results: ProblemResult[]; ms: number }
  | { t: 'error'; id: number; message: string };
