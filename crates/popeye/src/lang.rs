//! Popeye's input in French and German, read as the English: a problem file whose first
//! word begins a problem in French (`DebutProbleme`) or German (`AnfangProblem`) is turned
//! word by word into English before it is parsed — keywords (sections, options,
//! conditions and their variants, colours, attributes, twinning) by Popeye's keyword
//! tables in the three languages, piece letters in piece lists, twins and Forsyth lines
//! by its piece-name tables. Lines are kept, so errors still name the line read; free text
//! (author, title, origin, award, remark) is kept as written.

use std::borrow::Cow;

/// The languages of Popeye's input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Language {
    French,
    German,
    English,
}

/// A row of the keyword tables: (French, German, English).
type Row = (&'static str, &'static str, &'static str);

/// Which of Popeye's keyword tables a word is looked up in first: abbreviations are
/// unique within a table, as Popeye reads them (`fin` ends a problem at the top level,
/// though options begin with `Fin` too).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Table {
    /// Problem, twin and section keywords (a line's first word).
    Top,
    /// The words after `Option`.
    Options,
    /// The word after `Twin`.
    Twin,
    /// Colours and attributes, in a piece list.
    PieceList,
    /// Anything else (conditions and their variants).
    Other,
}

fn rows(t: Table) -> &'static [Row] {
    match t {
        Table::Top => TOP_KEYWORDS,
        Table::Options => OPTION_KEYWORDS,
        Table::Twin => TWIN_KEYWORDS,
        Table::PieceList => PIECE_LIST_KEYWORDS,
        Table::Other => OTHER_KEYWORDS,
    }
}

/// Keywords that differ between the languages: (French, German, English), from Popeye's
/// keyword tables: the problem, twin and section keywords.
const TOP_KEYWORDS: &[Row] = &[
    // GlobalTokenString
    ("DebutProbleme", "AnfangProblem", "beginproblem"),
    // ProblemTokenString
    ("FinProbleme", "EndeProblem", "endproblem"),
    ("asuivre", "WeiteresProblem", "nextproblem"),
    // EndTwinTokenString
    ("jumeau", "Zwilling", "twin"),
    ("zeroposition", "NullStellung", "zeroposition"),
    // InitialTwinTokenString
    ("remarque", "Bemerkung", "remark"),
    ("senonce", "sForderung", "sstipulation"),
    ("auteur", "Autor", "author"),
    ("source", "Quelle", "origin"),
    ("pieces", "Steine", "pieces"),
    ("condition", "Bedingung", "condition"),
    ("option", "Option", "option"),
    ("enonce", "Forderung", "stipulation"),
    ("protocol", "Protokoll", "protocol"),
    ("titre", "Titel", "title"),
    ("PiecesLaTeX", "LaTeXSteine", "LaTeXPieces"),
    ("prix", "Auszeichnung", "award"),
    ("PositionInitialePartie", "PartieAnfangsStellung", "InitialGameArray"),
];

/// The options.
const OPTION_KEYWORDS: &[Row] = &[
    // OptString
    ("Defense", "Widerlegung", "Defence"),
    ("Apparent", "Satzspiel", "SetPlay"),
    ("ApparentSeul", "WeissBeginnt", "WhiteToPlay"),
    ("Variantes", "Varianten", "Variations"),
    ("Trace", "Zugnummern", "MoveNumbers"),
    ("Enroute", "StartZugnummer", "StartMoveNumber"),
    ("SansRB", "OhneWk", "NoWk"),
    ("SansRN", "OhneSk", "NoBk"),
    ("Menace", "Drohung", "Threat"),
    ("SansMenace", "OhneDrohung", "NoThreat"),
    ("Essais", "Verfuehrung", "Try"),
    ("MaxSolutions", "MaxLoesungen", "MaxSolutions"),
    ("MaxCasesFuites", "MaxFluchtFelder", "MaxFlightsquares"),
    ("Search", "Suchen", "Search"),
    ("MultiSolutions", "MehrereLoesungen", "MultiSolutions"),
    ("NonSymetrique", "KeineSymmetrie", "NoSymmetry"),
    ("NonTrivial", "NichtTrivial", "NonTrivial"),
    ("RetiensPieceMatante", "HalteMattsetzendenStein", "KeepMatingPiece"),
    ("SansEchiquier", "OhneBrett", "NoBoard"),
    ("SansVariantesCourtes", "OhneKurzVarianten", "NoShortVariations"),
    ("DemiDuplex", "HalbDuplex", "HalfDuplex"),
    ("ApresCle", "NachSchluessel", "PostKeyPlay"),
    ("MaxTemps", "MaxZeit", "MaxTime"),
    ("SansRoquer", "KeineRochade", "NoCastling"),
    ("FinApresSolutionsCourtes", "StopNachKurzloesungen", "StopOnShortSolutions"),
    ("Bip", "Pieps", "Beep"),
    ("SansGrille", "OhneGitter", "SuppressGrid"),
    ("AjouteGrille", "ZeichneGitter", "WriteGrid"),
    ("RoquesMutuellementExclusifs", "RochadenGegenseitigAusschliessend", "CastlingMutuallyExclusive"),
    ("ButEstFin", "ZielIstEnde", "GoalIsEnd"),
    ("optionnonpubliee", "nichtpublizierteoption", "unpublishedoption"),
    ("CoupsVides", "NullZuege", "NullMoves"),
    ("JusquAuCoup", "BisZugnummer", "UpToMoveNumber"),
    ("TrivialEssaiSupprimer", "TrivialeFehlversucheUnterdruecken", "TrivialTriesAvoid"),
    ("MatsEn1", "MattsIn1", "MatesIn1"),
];

/// The twinning commands.
const TWIN_KEYWORDS: &[Row] = &[
    // TwinningString
    ("deplacement", "versetze", "move"),
    ("echange", "tausche", "exchange"),
    ("enonce", "Forderung", "stipulation"),
    ("senonce", "SForderung", "sstipulation"),
    ("ajoute", "hinzufuegen", "add"),
    ("ote", "entferne", "remove"),
    ("enplus", "ferner", "continued"),
    ("rotation", "Drehung", "rotate"),
    ("condition", "Bedingung", "condition"),
    ("CouleurEchange", "Farbwechsel", "PolishType"),
    ("miroir", "Spiegelung", "mirror"),
    ("translation", "Verschiebung", "shift"),
    ("remplace", "ersetze", "substitute"),
];

/// The colours and the piece attributes (the words of a piece list).
const PIECE_LIST_KEYWORDS: &[Row] = &[
    // ColourString
    ("Blanc", "Weiss", "White"),
    ("Noir", "Schwarz", "Black"),
    ("Neutre", "Neutral", "Neutral"),
    ("TotalInvisible", "TotalUnsichtbar", "TotalInvisible"),
    // TIString
    ("TI", "TU", "TI"),
    // PieSpString
    ("Royale", "Koeniglich", "Royal"),
    ("Paralysante", "Paralysierend", "Paralysing"),
    ("Cameleon", "Chamaeleon", "Chameleon"),
    ("Fonctionnaire", "Beamtet", "Functionary"),
    ("DemiNeutre", "HalbNeutral", "HalfNeutral"),
    ("CouleurEchangeantSautoir", "SprungbockFarbeWechselnd", "HurdleColourChanging"),
    ("Protee", "Proteisch", "Protean"),
    ("Magique", "Magisch", "Magic"),
    ("Imprenable", "Unschlagbar", "Uncapturable"),
    ("Patrouille", "Patrouille", "Patrol"),
    ("AndaInverse", "AndaInvers", "AndaInverse"),
];

/// The conditions and their variants.
const OTHER_KEYWORDS: &[Row] = &[
    // CondString
    ("CirceMalefique", "SpiegelCirce", "MirrorCirce"),
    ("Bichromatique", "BichromesSchach", "BichromChess"),
    ("Monochromatique", "MonochromesSchach", "MonochromChess"),
    ("Grille", "Gitterschach", "GridChess"),
    ("Koeko", "KoeKo", "KoeKo"),
    ("NoirBordCoup", "SchwarzerRandzueger", "BlackEdgeMover"),
    ("BlancBordCoup", "WeisserRandzueger", "WhiteEdgeMover"),
    ("Chinoises", "ChinesischesSchach", "ChineseChess"),
    ("Patrouille", "PatrouilleSchach", "Patrouille"),
    ("CirceEchange", "PlatzwechselCirce", "PWC"),
    ("SansPrises", "Ohneschlag", "NoCapture"),
    ("Immun", "Immunschach", "ImmunChess"),
    ("ImmunMalefique", "SpiegelImmunschach", "MirrorImmunChess"),
    ("ContactGrille", "KontaktGitter", "ContactGridChess"),
    ("Haan", "HaanerSchach", "HaanerChess"),
    ("CirceCameleon", "ChamaeleonCirce", "ChameleonCirce"),
    ("CirceCouscous", "CouscousCirce", "CouscousCirce"),
    ("CirceEquipollents", "EquipollentsCirce", "EquipollentsCirce"),
    ("NoirMaximum", "SchwarzerLaengstzueger", "BlackMaximummer"),
    ("NoirMinimum", "SchwarzerKuerzestzueger", "BlackMinimummer"),
    ("BlancMaximum", "WeisserLaengstzueger", "WhiteMaximummer"),
    ("BlancMinimum", "WeisserKuerzestzueger", "WhiteMinimummer"),
    ("CaseMagique", "MagischeFelder", "MagicSquares"),
    ("Tibet", "TibetSchach", "Tibet"),
    ("DoubleTibet", "DoppeltibetSchach", "DoubleTibet"),
    ("CirceDiagramme", "DiagrammCirce", "DiagramCirce"),
    ("Trou", "Loch", "Hole"),
    ("NoirPriseForce", "SchwarzerSchlagzwang", "BlackMustCapture"),
    ("BlancPriseForce", "WeisserSchlagzwang", "WhiteMustCapture"),
    ("RoisReflecteurs", "ReflektierendeKoenige", "ReflectiveKings"),
    ("RoisTransmutes", "TransmutierendeKoenige", "TransmutedKings"),
    ("NoirPoursuite", "SchwarzerVerfolgungszueger", "BlackFollowMyLeader"),
    ("BlancPoursuite", "WeisserVerfolgungszueger", "WhiteFollowMyLeader"),
    ("Duelliste", "Duellantenschach", "DuellistChess"),
    ("CirceParrain", "CirceParrain", "ParrainCirce"),
    ("SansIProm", "OhneIUW", "NoIProm"),
    ("CirceSymetrique", "SymmetrieCirce", "SymmetryCirce"),
    ("EchecsVogtlaender", "VogtlaenderSchach", "VogtlaenderChess"),
    ("EchecsEinstein", "EinsteinSchach", "EinsteinChess"),
    ("KoekoNouveaux", "NeuKoeko", "NewKoeko"),
    ("FileCirceMalefique", "SpiegelFileCirce", "MirrorFileCirce"),
    ("CirceAntipoden", "AntipodenCirce", "AntipodeanCirce"),
    ("CirceCloneMalefique", "SpiegelCirceclone", "MirrorCirceClone"),
    ("AntiCirceMalefique", "AntiSpiegelCirce", "MirrorAntiCirce"),
    ("AntiCirceDiagramme", "AntiDiagrammCirce", "DiagramAntiCirce"),
    ("AntiFileCirce", "AntiFileCirce", "FileAntiCirce"),
    ("AntiCirceSymetrique", "AntiSymmetrieCirce", "SymmetryAntiCirce"),
    ("AntiFileCirceMalefique", "AntiSpiegelFileCirce", "MirrorFileAntiCirce"),
    ("AntiCirceAntipoden", "AntiAntipodenCirce", "AntipodeanAntiCirce"),
    ("AntiCirceEquipollents", "AntiEquipollentsCirce", "EquipollentsAntiCirce"),
    ("ImmunFile", "FileImmunSchach", "FileImmunChess"),
    ("ImmunDiagramme", "DiagrammImmunSchach", "DiagramImmunChess"),
    ("ImmunFileMalefique", "SpiegelFileImmunSchach", "MirrorFileImmunChess"),
    ("ImmunSymmetrique", "SymmetrieImmunSchach", "SymmetryImmunChess"),
    ("ImmunAntipoden", "AntipodenImmunSchach", "AntipodeanImmunChess"),
    ("ImmunEquipollents", "EquipollentsImmunSchach", "EquipollentsImmunChess"),
    ("ReversEchecsEinstein", "ReversesEinsteinSchach", "ReversalEinsteinChess"),
    ("Degradierung", "Degradierung", "RelegationChess"),
    ("EchecsTraitor", "TraitorChess", "TraitorChess"),
    ("EchecsAndernach", "AndernachSchach", "AndernachChess"),
    ("BlancCaseForce", "WeissesZwangsfeld", "WhiteForcedSquare"),
    ("BlancCaseForceConsequent", "WeissesKonsequentesZwangsfeld", "WhiteConsequentForcedSquare"),
    ("NoirCaseForce", "SchwarzesZwangsfeld", "BlackForcedSquare"),
    ("NoirCaseForceConsequent", "SchwarzesKonsequentesZwangsfeld", "BlackConsequentForcedSquare"),
    ("EchecsCameleon", "ChamaeleonSchach", "ChameleonChess"),
    ("EchecsFonctionnaire", "BeamtenSchach", "FunctionaryChess"),
    ("EchecsGlasgow", "GlasgowSchach", "GlasgowChess"),
    ("EchecsAntiAndernach", "AntiAndernachSchach", "AntiAndernachChess"),
    ("CirceMalefiqueVerticale", "VertikalesSpiegelCirce", "VerticalMirrorCirce"),
    ("SansEchecs", "OhneSchach", "ChecklessChess"),
    ("CirceDiametrale", "DiametralCirce", "DiametralCirce"),
    ("PromSeul", "UWnur", "PromOnly"),
    ("EchecsExclusif", "ExklusivSchach", "ExclusiveChess"),
    ("MarsCirceMalefique", "MarsSpiegelCirce", "MarsMirrorCirce"),
    ("EchecsPhantom", "PhantomSchach", "PhantomChess"),
    ("BlancRoiReflecteur", "WeisserReflektierenderKoenig", "WhiteReflectiveKing"),
    ("NoirRoiReflecteur", "SchwarzerReflektierenderKoenig", "BlackReflectiveKing"),
    ("BlancRoiTransmute", "WeisserTransmutierenderKoenig", "WhiteTransmutedKing"),
    ("NoirRoiTransmute", "SchwarzerTransmutierenderKoenig", "BlackTransmutedKing"),
    ("EchecsAntiEinstein", "AntiEinsteinSchach", "AntiEinsteinChess"),
    ("CirceCouscousMalefique", "SpiegelCouscousCirce", "MirrorCouscousCirce"),
    ("NoirCaseRoyal", "SchwarzesKoeniglichesFeld", "BlackRoyalSquare"),
    ("BlancCaseRoyal", "WeissesKoeniglichesFeld", "WhiteRoyalSquare"),
    ("EchecsBrunner", "BrunnerSchach", "BrunnerChess"),
    ("EchecsPlus", "PlusSchach", "PlusChess"),
    ("CirceAssassin", "AssassinCirce", "CirceAssassin"),
    ("EchecsPatience", "PatienceSchach", "PatienceChess"),
    ("EchecsRepublicains", "RepublikanerSchach", "RepublicanChess"),
    ("EchecsExtinction", "AusrottungsSchach", "ExtinctionChess"),
    ("EchecsCentral", "ZentralSchach", "CentralChess"),
    ("EchecsMessigny", "MessignySchach", "MessignyChess"),
    ("BlancCasePromotion", "UWFeldWeiss", "WhitePromSquares"),
    ("NoirCasePromotion", "UWFeldSchwarz", "BlackPromSquares"),
    ("SansBlancPromotion", "OhneWeissUW", "NoWhitePromotion"),
    ("SansNoirPromotion", "OhneSchwarzUW", "NoBlackPromotion"),
    ("EchecsEiffel", "EiffelSchach", "EiffelChess"),
    ("NoirUltraSchachZwang", "SchwarzerUltraSchachZwang", "BlackUltraSchachZwang"),
    ("BlancUltraSchachZwang", "WeisserUltraSchachZwang", "WhiteUltraSchachZwang"),
    ("ShieldedKings", "SchutzKoenige", "ShieldedKings"),
    ("NONUTILISEACTUELLEMENT", "ZURZEITUNVERWENDET", "CURRENTLYUNUSED"),
    ("EchecsCameleonLigne", "LinienChamaeleonSchach", "LineChameleonChess"),
    ("BlancSansPrises", "WeisserOhneSchlag", "NoWhiteCapture"),
    ("NoirSansPrises", "SchwarzerOhneSchlag", "NoBlackCapture"),
    ("EchecsAvril", "Aprilschach", "AprilChess"),
    ("EchecsAlphabetiques", "AlphabetischesSchach", "AlphabeticChess"),
    ("CirceTurncoats", "TurncoatCirce", "CirceTurncoats"),
    ("CirceDoubleAgents", "DoppelAgentenCirce", "CirceDoubleAgents"),
    ("SingleBox", "NurPartiesatzSteine", "SingleBox"),
    ("BlancRoisOscillant", "WeisseOszillierendeKoenige", "WhiteOscillatingKings"),
    ("NoirRoisOscillant", "SchwarzeOszillierendeKoenige", "BlackOscillatingKings"),
    ("AntiRois", "AntiKoenige", "AntiKings"),
    ("AntiMarsMalefiqueCirce", "AntiMarsMalefiqueCirce", "AntiMarsMirrorCirce"),
    ("BlancSuperRoiTransmute", "WeisserSuperTransmutierenderKoenig", "WhiteSuperTransmutingKing"),
    ("NoirSuperRoiTransmute", "SchwarzerSuperTransmutierenderKoenig", "BlackSuperTransmutingKing"),
    ("UltraPatrouille", "UltraPatrouille", "UltraPatrol"),
    ("RoisEchanges", "TauschKoenige", "SwappingKings"),
    ("DynastieRoyale", "KoenigsDynastie", "RoyalDynasty"),
    ("Take&MakeEchecs", "Take&MakeSchach", "Take&MakeChess"),
    ("NoirSynchronCoup", "SchwarzerSynchronZueger", "BlackSynchronMover"),
    ("BlancSynchronCoup", "WeisserSynchronZueger", "WhiteSynchronMover"),
    ("NoirAntiSynchronCoup", "SchwarzerAntiSynchronZueger", "BlackAntiSynchronMover"),
    ("BlancAntiSynchronCoup", "WeisserAntiSynchronZueger", "WhiteAntiSynchronMover"),
    ("NoirEchecs", "SchwarzSchaecher", "BlackChecks"),
    ("AnnanEchecs", "Annanschach", "AnnanChess"),
    ("PionNormale", "NormalBauern", "NormalPawn"),
    ("Elliuortap", "Elliuortap", "Lortap"),
    ("BlancVaultingKing", "WeisserVaultingKing", "WhiteVaultingKing"),
    ("NoirVaultingKing", "SchwarzerVaultingKing", "BlackVaultingKing"),
    ("EchecsProtee", "ProteischesSchach", "ProteanChess"),
    ("EchecsGeneve", "GenferSchach", "GenevaChess"),
    ("CameleonPoursuite", "ChamaeleonVerfolgung", "ChameleonPursuit"),
    ("EchecsRoque", "RochadeSchach", "CastlingChess"),
    ("QuiPerdGagne", "Schlagschach", "LosingChess"),
    ("EchecsGhost", "Geisterschach", "GhostChess"),
    ("EchecsHantes", "Spukschach", "HauntedChess"),
    ("EchecsProvacateurs", "ProvokationSchach", "ProvocationChess"),
    ("CirceCage", "KaefigCirce", "CageCirce"),
    ("Football", "Fussball", "Football"),
    ("ContraParrain", "KontraParrain", "ContraParrain"),
    ("RoisKobul", "KobulKoenige", "KobulKings"),
    ("EchangeRoque", "PlatzwechselRochade", "ExchangeCastling"),
    ("BlancEchecsAlphabetiques", "WeissesAlphabetischesSchach", "WhiteAlphabeticChess"),
    ("NoirEchecsAlphabetiques", "SchwarzesAlphabetischesSchach", "BlackAlphabeticChess"),
    ("Supergardes", "SuperDeckungen", "SuperGuards"),
    ("TrousDeVer", "Wurmloecher", "Wormholes"),
    ("EchecsMarins", "MarinesSchach", "MarineChess"),
    ("EchecsUltramarins", "UltramarinesSchach", "UltramarineChess"),
    ("Retour", "NachHause", "BackHome"),
    ("FaceAFace", "AngesichtZuAngesicht", "FaceToFace"),
    ("DosADos", "RueckenAnRuecken", "BackToBack"),
    ("JoueAJoue", "WangeAnWange", "CheekToCheek"),
    ("CameleonSequence", "Chamaeleonsequenz", "ChameleonSequence"),
    ("EchecsSnek", "SnekSchach", "SnekChess"),
    ("EchecsSnekCirculaires", "SnekZirkulaerSchach", "SnekCircleChess"),
    ("DernierePrise", "LetzterSchlag", "LastCapture"),
    ("EchecsArgentins", "ArgentinischesSchach", "ArgentinianChess"),
    ("PiecesPerdues", "VerloreneSteine", "LostPieces"),
    ("ParalysePartielle", "PartielleParalyse", "PartialParalysis"),
    ("CirceSymetriqueVerticale", "VertikaleSymmetrieCirce", "VerticalSymmetryCirce"),
    ("CirceSymetriqueHorizontale", "HorizontaleSymmetrieCirce", "HorizontalSymmetryCirce"),
    ("AntiCirceSymetriqueVerticale", "VertikaleAntiSymmetrieCirce", "VerticalSymmetryAntiCirce"),
    ("AntiCirceSymetriqueHorizontale", "HorizontaleAntiSymmetrieCirce", "HorizontalSymmetryAntiCirce"),
    ("ImmuneSymetriqueVerticale", "ImmuneVertikaleSymmetrie", "ImmuneVerticalSymmetry"),
    ("ImmuneSymetriqueHorizontale", "ImmuneHorizontaleSymmetrie", "ImmuneHorizontalSymmetry"),
    ("Make&TakeEchecs", "Make&TakeSchach", "Make&TakeChess"),
    ("ReflexionCentrale", "Punktspiegelung", "PointReflection"),
    ("AnnanEchecs", "Nannaschach", "NannaChess"),
    ("MasandGeneralise", "MasandVerallgemeinert", "MasandGeneralised"),
    ("BoleroInverse", "BoleroInvers", "BoleroInverse"),
    ("Influenceur", "Influencer", "Influencer"),
    ("EchangeRole", "Rollentausch", "RoleExchange"),
    ("NoirMaxDister", "SchwarzerMaxDister", "BlackMaxDister"),
    ("NoirMinDister", "SchwarzerMinDister", "BlackMinDister"),
    ("BlancMaxDister", "WeisserMaxDister", "WhiteMaxDister"),
    ("BlancMinDister", "WeisserMinDister", "WhiteMinDister"),
    ("SerieCapture", "SerienSchlag", "SeriesCapture"),
    ("CASTEchecs", "CASTSchach", "CASTChess"),
    ("TransfertPouvoir", "KraftTransfer", "PowerTransfer"),
    ("Antigardes", "AntiDeckungen", "AntiGuards"),
    ("Francfort", "FrankfurtSchach", "FrankfurtChess"),
    ("AndaInverse", "AndaInvers", "AndaInverse"),
    ("Alice", "AliceSchach", "AliceChess"),
    ("PADechecs", "PADSchach", "PADChess"),
    ("CirceDanger", "GefahrenCirce", "DangerCirce"),
    // VaultingVariantTypeString
    ("Transmute", "Transmutierende", "Transmuting"),
    // ConditionLetteredVariantTypeString
    ("TypeA", "TypA", "TypeA"),
    ("TypeB", "TypB", "TypeB"),
    ("TypeC", "TypC", "TypeC"),
    ("TypeD", "TypD", "TypeD"),
    // ConditionNumberedVariantTypeString
    ("Type1", "Typ1", "Type1"),
    ("Type2", "Typ2", "Type2"),
    ("Type3", "Typ3", "Type3"),
    // AntiCirceVariantTypeString
    // SentinellesVariantTypeString
    ("MaximumNoir", "MaximumSchwarz", "MaximumBlack"),
    ("MaximumBlanc", "MaximumWeiss", "MaximumWhite"),
    // GridVariantTypeString
    ("VerticalDecalage", "VertikalVerschieben", "VerticalShift"),
    ("HorizontalDecalage", "HorizontalVerschieben", "HorizontalShift"),
    ("DiagonalDecalage", "DiagonalVerschieben", "DiagonalShift"),
    ("Orthogonale", "Orthogonal", "Orthogonal"),
    ("Irreguliere", "Unregelmaessig", "Irregular"),
    ("LigneGrille", "GitterLinie", "GridLine"),
    // KobulVariantTypeString
    ("Blancs", "Weiss", "White"),
    ("Noirs", "Schwarz", "Black"),
    // KoekoVariantTypeString
    ("Voisin", "Nachbar", "Neighbour"),
    // CirceVariantTypeString
    ("RexInclusif", "RexInklusive", "RexInclusive"),
    ("RexExclusif", "RexExklusive", "RexExclusive"),
    ("Malefique", "Spiegel", "Mirror"),
    ("MalefiqueVerticale", "VertikalSpiegel", "VerticalMirror"),
    ("Chameleon", "Chamaeleon", "Chameleon"),
    ("Turncoats", "Turncoat", "Turncoats"),
    ("CoupDernier", "LetzterZug", "LastMove"),
    ("Cage", "Kaefig", "Cage"),
    ("Rangee", "Reihe", "Rank"),
    ("Colonne", "File", "File"),
    ("Symetrie", "Symmetrie", "Symmetry"),
    ("VerticaleSymetrique", "VertikaleSymmetrie", "VerticalSymmetry"),
    ("HorizontaleSymetrique", "HorizontaleSymmetrie", "HorizontalSymmetry"),
    ("Diagramme", "Diagramm", "Diagram"),
    ("Echange", "Platzwechsel", "PWC"),
    ("Antipodes", "Antipoden", "Antipodes"),
    ("Avril", "April", "April"),
    ("Stricte", "Strikt", "Strict"),
    ("Relache", "Locker", "Relaxed"),
    ("Volcanique", "Vulkan", "Volcanic"),
    ("Parachute", "Fallschirm", "Parachute"),
    ("ReversEinstein", "ReversesEinstein", "ReversalEinstein"),
    ("PriseProchaine", "NaechsterSchlag", "WaitCapture"),
    ("CaseDePrise", "Schlagfeld", "CaptureSquare"),
    // ExtraCondString
    ("Maximum", "Laengstzueger", "Maximummer"),
    // TwinningMirrorString
    // mummer_strictness_string
    ("exact", "exakt", "exact"),
    ("ultra", "Ultra", "ultra"),
    // BretonVariantTypeString
    ("Adverse", "Advers", "Adverse"),
    ("Chromatique", "Chromatisch", "Chromatic"),
    // CASTVariantTypeString
    ("Invverse", "Invers", "Inverse"),
    // TakeMakeVariantTypeString
    ("Absolu", "Absolut", "Absolute"),
];

/// Piece letters (upper case; two letters or one): (French, German, English), from
/// Popeye's piece-name tables.
const PIECES: &[(&str, &str, &str)] = &[
    ("R", "K", "K"),
    ("P", "B", "P"),
    ("D", "D", "Q"),
    ("C", "S", "S"),
    ("T", "T", "R"),
    ("F", "L", "B"),
    ("LE", "LE", "LE"),
    ("MA", "MA", "MA"),
    ("PA", "PA", "PA"),
    ("VA", "VA", "VA"),
    ("RO", "RO", "RO"),
    ("S", "G", "G"),
    ("N", "N", "N"),
    ("Z", "Z", "Z"),
    ("CH", "CA", "CA"),
    ("GI", "GI", "GI"),
    ("CC", "WF", "RF"),
    ("BU", "BU", "BU"),
    ("VI", "WE", "WE"),
    ("AL", "AL", "AL"),
    ("FE", "FE", "FE"),
    ("DA", "DA", "DA"),
    ("LI", "LI", "LI"),
    ("EQ", "NE", "NE"),
    ("L", "H", "L"),
    ("PB", "BB", "BP"),
    ("AM", "AM", "AM"),
    ("IM", "KN", "EM"),
    ("PR", "PR", "PR"),
    ("G", "GN", "GN"),
    ("AN", "AN", "AN"),
    ("EC", "EI", "SQ"),
    ("V", "WA", "WA"),
    ("DR", "DR", "DR"),
    ("KA", "KA", "KA"),
    ("CS", "SS", "SS"),
    ("UU", "UU", "UU"),
    ("HA", "HA", "HA"),
    ("E", "EL", "M"),
    ("AI", "AD", "EA"),
    ("M", "SP", "SW"),
    ("AR", "ER", "AR"),
    ("FR", "RL", "RB"),
    ("CA", "KL", "C"),
    ("SN", "NH", "NH"),
    ("PI", "DU", "DU"),
    ("CN", "CR", "CR"),
    ("ZN", "ZR", "ZR"),
    ("GN", "GR", "GR"),
    ("SC", "CH", "CH"),
    ("SZ", "ZH", "ZH"),
    ("SG", "GH", "GH"),
    ("CD", "DS", "DS"),
    ("CR", "RS", "BK"),
    ("EA", "EQ", "EQ"),
    ("CT", "CT", "CT"),
    ("BS", "BS", "BS"),
    ("SP", "SB", "SP"),
    ("TL", "TL", "RL"),
    ("FL", "LL", "BL"),
    ("SI", "SI", "SI"),
    ("TR", "TR", "TR"),
    ("NE", "ND", "ND"),
    ("O", "O", "O"),
    ("EH", "RD", "EH"),
    ("MO", "MO", "MO"),
    ("TC", "TJ", "RR"),
    ("FC", "LJ", "BR"),
    ("AO", "AO", "AO"),
    ("OA", "OA", "OA"),
    ("ST", "TH", "RH"),
    ("SF", "LH", "BH"),
    ("RE", "EK", "EK"),
    ("BT", "PF", "BT"),
    ("GT", "PN", "GT"),
    ("SK", "SK", "SK"),
    ("CY", "CY", "CY"),
    ("SA", "KG", "CG"),
    ("RL", "RN", "RN"),
    ("RS", "RH", "RP"),
    ("OK", "OK", "OK"),
    ("37", "37", "37"),
    ("S2", "G2", "G2"),
    ("S3", "G3", "G3"),
    ("16", "16", "16"),
    ("24", "24", "24"),
    ("35", "35", "35"),
    ("DS", "DG", "DG"),
    ("SR", "KH", "KH"),
    ("OR", "OR", "OR"),
    ("15", "15", "15"),
    ("25", "25", "25"),
    ("GL", "GL", "GL"),
    ("LT", "HT", "LR"),
    ("LF", "HL", "LB"),
    ("LN", "HN", "LN"),
    ("VS", "WR", "WR"),
    ("FS", "FR", "FR"),
    ("BI", "BI", "BI"),
    ("EL", "ET", "ET"),
    ("NA", "NA", "NA"),
    ("ET", "TC", "RM"),
    ("AT", "TA", "RE"),
    ("MT", "TS", "RW"),
    ("EF", "LC", "BM"),
    ("AF", "LA", "BE"),
    ("MF", "LS", "BW"),
    ("RA", "RA", "RA"),
    ("SO", "SO", "SO"),
    ("MG", "MG", "MG"),
    ("36", "36", "36"),
    ("NL", "NL", "NL"),
    ("ML", "ML", "ML"),
    ("MM", "MM", "MM"),
    ("A", "F", "F"),
    ("DN", "DE", "DO"),
    ("LA", "HE", "RT"),
    ("BO", "BO", "BO"),
    ("QA", "QE", "QE"),
    ("QF", "QF", "QF"),
    ("QQ", "OD", "QQ"),
    ("B1", "B1", "B1"),
    ("B2", "B2", "B2"),
    ("B3", "B3", "B3"),
    ("PC", "CB", "CP"),
    ("CL", "RP", "RK"),
    ("PV", "RB", "PP"),
    ("LR", "LR", "LS"),
    ("ZE", "ZE", "ZE"),
    ("NR", "NR", "BN"),
    ("N2", "S2", "S2"),
    ("N4", "S4", "S4"),
    ("N1", "S1", "S1"),
    ("N3", "S3", "S3"),
    ("QN", "QN", "QN"),
    ("DT", "DT", "DK"),
    ("DF", "DL", "DB"),
    ("NO", "NO", "NO"),
    ("SB", "UH", "TH"),
    ("SE", "BH", "LH"),
    ("SM", "GU", "GE"),
    ("SU", "GB", "GF"),
    ("KL", "LK", "KL"),
    ("KO", "KO", "KO"),
    ("SV", "SH", "KP"),
    ("BA", "SC", "SH"),
    ("GY", "GY", "GY"),
    ("CM", "MS", "MS"),
    ("PO", "PO", "PO"),
    ("PM", "MB", "MP"),
    ("BM", "MC", "MH"),
    ("EP", "ST", "ST"),
    ("DG", "SE", "SE"),
    ("FA", "FA", "FA"),
    ("LO", "LO", "LO"),
    ("SL", "SA", "SA"),
    ("AS", "AH", "AH"),
    ("OS", "OH", "OH"),
    ("HC", "HK", "HC"),
    ("AE", "AE", "EE"),
    ("AQ", "AQ", "EN"),
    ("SS", "SR", "SC"),
];

/// The language of an input: the one whose begin-problem keyword the first word starts
/// (at least three letters, any case).
pub fn language(input: &str) -> Language {
    let Some(first) = input.split_whitespace().next() else { return Language::English };
    let starts =
        |kw: &str| first.len() >= 3 && kw.len() >= first.len() && kw[..first.len()].eq_ignore_ascii_case(first);
    if starts("DebutProbleme") {
        Language::French
    } else if starts("AnfangProblem") {
        Language::German
    } else {
        Language::English
    }
}

fn pick(row: &(&'static str, &'static str, &'static str), lang: Language) -> &'static str {
    match lang {
        Language::French => row.0,
        Language::German => row.1,
        Language::English => row.2,
    }
}

/// A word the English reader knows in full (any case): its keywords, options, twinning
/// commands, attributes, colours, and the conditions and their parameters as the
/// condition descriptions give them.
fn english_exact(word: &str) -> Option<String> {
    use crate::options::OPTIONS;
    use crate::parse::{ATTRIBUTES, TOP, TWIN_CMDS, UNSUPPORTED_ATTRIBUTES};
    let fixed = [TOP, TWIN_CMDS, OPTIONS, ATTRIBUTES, UNSUPPORTED_ATTRIBUTES, &["White", "Black", "Neutral"]];
    if let Some(k) = fixed.iter().flat_map(|l| l.iter()).find(|k| k.eq_ignore_ascii_case(word)) {
        return Some(k.to_string());
    }
    chimere_fairy::conditions::registry::popeye_keywords()
        .iter()
        .flat_map(|k| std::iter::once(k.keyword).chain(k.params.iter().copied()))
        .find(|k| k.eq_ignore_ascii_case(word))
        .map(str::to_string)
}

/// The English keyword of a word of `lang`: its exact keyword (in the table `first`, else
/// in any), or the one
/// keyword it abbreviates (a prefix of at least three letters; several rows meaning the
/// same English word count as one) in the table `first`, else among the problem keywords,
/// else in all tables — unless the
/// word is an English keyword in full, as Popeye's table of each language holds the
/// keywords alike in all three.
fn keyword(word: &str, lang: Language, first: Table) -> Option<&'static str> {
    let all = [first, Table::Top, Table::Options, Table::Twin, Table::PieceList, Table::Other];
    if let Some(row) = all.iter().flat_map(|&t| rows(t)).find(|r| pick(r, lang).eq_ignore_ascii_case(word)) {
        return Some(row.2);
    }
    if word.len() < 3 || english_exact(word).is_some() {
        return None;
    }
    let unique = |rows: &mut dyn Iterator<Item = &'static Row>| -> Result<Option<&'static str>, ()> {
        let mut found: Option<&'static str> = None;
        for r in rows {
            let k = pick(r, lang);
            if k.len() > word.len() && k.is_char_boundary(word.len()) && k[..word.len()].eq_ignore_ascii_case(word) {
                match found {
                    Some(f) if !f.eq_ignore_ascii_case(r.2) => return Err(()),
                    _ => found = Some(r.2),
                }
            }
        }
        Ok(found)
    };
    match unique(&mut rows(first).iter()) {
        Ok(Some(k)) => Some(k),
        Err(()) => None,
        Ok(None) => match unique(&mut rows(Table::Top).iter()) {
            Ok(Some(k)) => Some(k),
            Err(()) => None,
            Ok(None) => unique(&mut all.iter().flat_map(|&t| rows(t))).ok().flatten(),
        },
    }
}

/// The English letters of a piece written `letters` in `lang` (any case).
fn piece(letters: &str, lang: Language) -> Option<&'static str> {
    PIECES.iter().find(|r| pick(r, lang).eq_ignore_ascii_case(letters)).map(|r| r.2)
}

/// A piece word (`Rb1`, `TAc3d4`) of `lang` in English, or `None` if it is not one.
fn piece_word(word: &str, lang: Language) -> Option<String> {
    if !word.is_ascii() {
        return None;
    }
    for n in 1..=2.min(word.len()) {
        let (l, squares) = word.split_at(n);
        let is_squares = !squares.is_empty()
            && squares.len() % 2 == 0
            && squares
                .as_bytes()
                .chunks(2)
                .all(|c| matches!(c[0].to_ascii_lowercase(), b'a'..=b'h') && matches!(c[1], b'1'..=b'8'));
        if is_squares && let Some(e) = piece(l, lang) {
            return Some(format!("{e}{squares}"));
        }
    }
    None
}

/// A Forsyth word of `lang` in English: each piece letter (or `.` and two letters)
/// replaced, upper case kept for White.
fn forsyth_word(word: &str, lang: Language) -> String {
    let cs: Vec<char> = word.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c == '.' && i + 2 < cs.len() {
            let two: String = cs[i + 1..i + 3].iter().collect();
            let white = two.chars().all(|x| x.is_ascii_uppercase());
            match piece(&two, lang) {
                Some(e) if e.len() == 2 => {
                    out.push('.');
                    out.push_str(&if white { e.to_string() } else { e.to_ascii_lowercase() });
                }
                Some(e) => out.push_str(&if white { e.to_string() } else { e.to_ascii_lowercase() }),
                None => {
                    out.push('.');
                    out.push_str(&two);
                }
            }
            i += 3;
            continue;
        }
        if c.is_ascii_alphabetic() {
            let white = c.is_ascii_uppercase();
            match piece(&c.to_string(), lang) {
                Some(e) if e.len() == 1 => out.push_str(&if white { e.to_string() } else { e.to_ascii_lowercase() }),
                Some(e) => {
                    out.push('.');
                    out.push_str(&if white { e.to_string() } else { e.to_ascii_lowercase() });
                }
                None => out.push(c),
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// What the words after a keyword are.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Context {
    Keywords,
    Pieces,
    Forsyth,
}

/// The input in English: itself when it is English; otherwise translated word by word
/// (see the module's description), one line for each line.
pub fn to_english(input: &str) -> Cow<'_, str> {
    let lang = language(input);
    if lang == Language::English {
        return Cow::Borrowed(input);
    }
    let mut out = String::with_capacity(input.len() + 64);
    let mut ctx = Context::Keywords;
    // The table abbreviations are read in after the line's first word.
    let mut table = Table::Other;
    for line in input.lines() {
        let mut words = Vec::new();
        let mut rest = line.trim_start();
        while !rest.is_empty() {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let (w, tail) = rest.split_at(end);
            rest = tail.trim_start();
            if ctx == Context::Forsyth {
                words.push(forsyth_word(w, lang));
                ctx = Context::Keywords;
                continue;
            }
            if ctx == Context::Pieces
                && let Some(p) = piece_word(w, lang)
            {
                words.push(p);
                continue;
            }
            // A keyword of `lang`, else a word the English reader knows in full (keywords
            // alike in every language, which the table leaves out: `Circe`, `Forsyth`).
            let first = if table == Table::Options || table == Table::Twin {
                table
            } else if ctx == Context::Pieces {
                Table::PieceList
            } else if words.is_empty() {
                Table::Top
            } else {
                Table::Other
            };
            let Some(k) = keyword(w, lang, first).map(Cow::Borrowed).or_else(|| english_exact(w).map(Cow::Owned))
            else {
                words.push(w.to_string());
                continue;
            };
            words.push(k.to_string());
            if k.eq_ignore_ascii_case("option") {
                table = Table::Options;
            } else if k.eq_ignore_ascii_case("twin") {
                table = Table::Twin;
            } else if table == Table::Twin || crate::parse::TOP.iter().any(|t| t.eq_ignore_ascii_case(&k)) {
                // The twinning command read, or a new section.
                table = Table::Other;
            }
            match k.to_ascii_lowercase().as_str() {
                "remark" | "author" | "origin" | "title" | "award" => {
                    if !rest.is_empty() {
                        words.push(rest.to_string());
                    }
                    rest = "";
                }
                "pieces" | "add" | "substitute" | "exchange" | "move" | "remove" => ctx = Context::Pieces,
                "forsyth" => ctx = Context::Forsyth,
                "white" | "black" | "neutral" => {}
                _ if ctx == Context::Pieces && is_attribute(&k) => {}
                _ => ctx = Context::Keywords,
            }
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    Cow::Owned(out)
}

/// Whether an English keyword is a piece attribute (it keeps a piece list going).
fn is_attribute(k: &str) -> bool {
    const ATTRIBUTES: &[&str] = &[
        "Royal",
        "Paralysing",
        "Chameleon",
        "Functionary",
        "HalfNeutral",
        "HurdleColourChanging",
        "Protean",
        "Magic",
        "Uncapturable",
        "Patrol",
        "AndaInverse",
    ];
    ATTRIBUTES.iter().any(|a| a.eq_ignore_ascii_case(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    const ENGLISH: &str = "BeginProblem
Author Someone
Title A title
Pieces White Kc1 Qd1 Rh1 Bf1 Sg1 Pe2 KAd4 PAa3 Black Ke8 Rh8 Pe7 Neutral Bb5
Stipulation h#2
Condition Circe
Option Variations NoBoard
Twin Move d1 d2
Twin Add White Rb1
EndProblem
";

    #[test]
    fn french_and_german_read_as_the_english() {
        let french = "DebutProbleme
Auteur Someone
Titre A title
Pieces Blanc Rc1 Dd1 Th1 Ff1 Cg1 Pe2 KAd4 PAa3 Noir Re8 Th8 Pe7 Neutre Fb5
Enonce h#2
Condition Circe
Option Variantes NoBoard
Jumeau Deplacement d1 d2
Jumeau Ajoute Blanc Tb1
FinProbleme
";
        let german = "AnfangProblem
Autor Someone
Titel A title
Steine Weiss Kc1 Dd1 Th1 Lf1 Sg1 Be2 KAd4 PAa3 Schwarz Ke8 Th8 Be7 Neutral Lb5
Forderung h#2
Bedingung Circe
Option Varianten NoBoard
Zwilling versetze d1 d2
Zwilling hinzufuegen Weiss Tb1
EndeProblem
";
        assert_eq!(language(french), Language::French);
        assert_eq!(language(german), Language::German);
        assert_eq!(language(ENGLISH), Language::English);
        let english = parse(ENGLISH).unwrap();
        assert_eq!(parse(french).unwrap(), english);
        assert_eq!(parse(german).unwrap(), english);
    }

    #[test]
    fn forsyth_letters_and_abbreviations() {
        let english = parse("BeginProblem\nForsyth 4k3/8/8/8/8/8/=B7/R3K3\nStipulation #2\nEndProblem\n").unwrap();
        let french = parse("DebutProb\nForsyth 4r3/8/8/8/8/8/=F7/T3R3\nEnon #2\nFinProb\n").unwrap();
        let german = parse("AnfangProblem\nForsyth 4k3/8/8/8/8/8/=L7/T3K3\nForderung #2\nEndeProblem\n").unwrap();
        assert_eq!(french, english);
        assert_eq!(german, english);
    }

    #[test]
    fn an_unknown_word_stays_and_fails_as_in_english() {
        let e = parse("AnfangProblem\nSteine Weiss Kc1 Schwarz Ke8\nForderung #2\nBedingung Unbekannt\nEndeProblem\n");
        assert!(e.is_err());
    }
}
