#!/usr/bin/env python3
"""Translates a Popeye input file written in German (AnfangProblem ...) into English, for
the subset chimere reads: problem keywords, orthodox piece letters (also in Forsyth), the
common conditions (exact or abbreviated, also after a twin's `bedingung`) and options. Words it does not know are left as they are (chimere then refuses the problem
naming the line, which the comparison counts as "refused").

Usage: popeye_de2en.py IN.inp > OUT.inp"""
import re
import sys

# Popeye accepts any unique prefix of a keyword; these are the words met in its examples.
KEYWORDS = [
    ("anfangproblem", "BeginProblem"), ("anfang", "BeginProblem"),
    ("weiteresproblem", "NextProblem"), ("weiter", "NextProblem"),
    ("endeproblem", "EndProblem"), ("ende", "EndProblem"), ("end", "EndProblem"),
    ("forderung", "Stipulation"), ("bedingung", "Condition"), ("option", "Option"),
    ("steine", "Pieces"), ("autor", "Author"), ("quelle", "Origin"), ("titel", "Title"),
    ("zwilling", "Twin"), ("nullstellung", "ZeroPosition"), ("protokoll", "Protocol"), ("bemerkung", "Remark"),
    ("loesung", "Remark"), ("text", "Remark"), ("forsyth", "Forsyth"),
    ("auszeichnung", "Award"), ("latex", "LaTeX"),
]
COLOURS = {"weiss": "White", "schwarz": "Black", "neutral": "Neutral", "koenig": "Royal"}
PIECES = {"k": "K", "d": "Q", "t": "R", "l": "B", "s": "S", "b": "P"}
CONDITIONS = {
    "exklusivschach": "ExclusiveChess", "circe": "Circe", "anticirce": "AntiCirce",
    "ohneschlag": "NoCapture", "madrasi": "Madrasi",
    "haanerschach": "HaanerChess", "einsteinschach": "EinsteinChess", "glasgowschach": "GlasgowChess",
    "chamaeleoncirce": "ChameleonCirce", "schwarzerlaengstzueger": "BlackMaximummer",
    "weisserlaengstzueger": "WhiteMaximummer", "loch": "Hole", "cavaliermajeur": "CavalierMajeur",
    "patrouilleschach": "PatrolChess", "andernachschach": "AndernachChess",
    "antiandernachschach": "AntiAndernachChess", "monochromschach": "MonochromChess",
    "bichromschach": "BichromChess", "isardam": "Isardam", "brunnerschach": "BrunnerChess",
    "bicolores": "Bicolores", "extinktionsschach": "ExtinctionChess", 
    "geisterschach": "GhostChess", "haan": "HaanerChess",
    "koeko": "Koeko", "kamikaze": "Kamikaze", "sat": "SAT", "rexinklusiv": "RexInclusive",
    "rexinklusive": "RexInclusive", "rexexklusiv": "RexExclusive", "republikanerschach": "RepublicanChess",
    "republik": "RepublicanChess", "monochromesschach": "MonochromChess", "bichromesschach": "BichromChess",
    "eiffelschach": "EiffelChess", "eiffel": "EiffelChess", "einstein": "EinsteinChess",
    "ultrapatrouille": "UltraPatrol", "volage": "Volage", "ghost": "GhostChess",
    "verlustschach": "LosingChess", "schlagschach": "LosingChess", "superzirce": "SuperCirce",
    "supercirce": "SuperCirce", "kamikazerexinklusiv": "Kamikaze",
    "zentralschach": "CentralChess", "zentral": "CentralChess", "rokagogo": "Rokagogo",
    "spiegelkoenige": "ReflectiveKings", "reflektierendekoenige": "ReflectiveKings",
    "tauschkoenige": "SwappingKings", "vogtlaenderschach": "VogtlaenderChess",
    "allinchess": "AllInChess", "allinschach": "AllInChess", "bicaptures": "Bicaptures",
    "schwarzschachzueger": "BlackChecks", "sentinelles": "Sentinelles", "gravitation": "Gravitation",
    "dynamo": "DynamoChess", "dynamoschach": "DynamoChess", "circeparrain": "ParrainCirce",
    "circeassassin": "Circe Assassin", "parachute": "Parachute", "volcanic": "Volcanic",
    "diagrammcirce": "DiagramCirce", "circeantipoden": "AntipodeanCirce", "antipoden": "Antipodes",
    "symmetriecirce": "SymmetryCirce", 
    "circeclone": "CirceClone", "couscouscirce": "CouscousCirce", "marscirce": "MarsCirce",
    "cheylan": "Cheylan", "calvet": "Calvet", "typb": "TypeB", "typeb": "TypeB",
    "assassincirce": "Circe Assassin", "antisupercirce": "AntiSuperCirce", "chey": "Cheylan",
    "filecirce": "Circe File", "diametralcirce": "Circe Diametral", "spiegelcirce": "MirrorCirce",
    "antipodencirce": "AntipodeanCirce", "equipollentscirce": "EquipollentsCirce",
    "ohneschach": "ChecklessChess", "norsksjakk": "NorskSjakk", "andernach": "AndernachChess",
}


def condition_word(w):
    """A condition word: exact, or a unique prefix of at least four letters (Popeye accepts
    abbreviations such as `ander` for AndernachSchach)."""
    lw = w.lower()
    if lw in CONDITIONS:
        return CONDITIONS[lw]
    if len(lw) >= 4:
        hits = {en for de, en in CONDITIONS.items() if de.startswith(lw)}
        if len(hits) == 1:
            return hits.pop()
    return w
OPTIONS = {
    "varianten": "Variation", "vari": "Variation", "ohnedrohung": "NoThreat", "ohnedroh": "NoThreat",
    "satzspiel": "SetPlay", "satz": "SetPlay", "verf": "Try",
    "zugnummern": "MoveNumbers", "zugn": "MoveNumbers", "weissbeginnt": "WhiteToPlay",
    "enpassant": "EnPassant", "ohnerochade": "NoCastling",
    "ohnebrett": "NoBoard", "ohnekurzvarianten": "NoShortVariations", 
    "drohung": "Threat", "droh": "Threat", "keinerochade": "NoCastling", "verfuehrung": "Try", "abwehr": "Defence", "maxloesungen": "MaxSolutions", "duplex": "Duplex",
    "intelligent": "Intelligent", "intellig": "Intelligent",
    "intell": "Intelligent", "intel": "Intelligent", "maxzeit": "MaxTime",
    "widerlegung": "Defence", "nichttriv": "NonTrivial", "maxflucht": "MaxFlightsquares",
    "zugnummer": "MoveNumbers", "zug": "MoveNumbers", "ohnewk": "NoWk", "ohnesk": "NoBk",
    "halbduplex": "HalfDuplex", "nurlegal": "LegalOnly", "int": "Intelligent",
    "nachschluessel": "PostKeyPlay", "weiss": "WhiteToPlay",
}
TWINS = {"verse": "Move", "entfe": "Remove",
         "hinzu": "Add", "ferner": "Continued", "farbwechsel": "PolishType",
         
         "tausche": "Exchange", "hinzufuegen": "Add", "drehung": "Rotate", "spiegelung": "Mirror",
         "verschiebung": "Shift", "bedingung": "Condition", "forderung": "Stipulation",
         "fortsetzung": "Continued", "polnisch": "PolishType", "ersetze": "Substitute",
         "bedi": "Condition", "ford": "Stipulation", "versetz": "Move", "hinzuf": "Add",
         "entferne": "Remove", "versetze": "Move", "verschieb": "Shift"}


def keyword(word):
    """A problem keyword: exact, or a prefix of at least three letters (Popeye reads `bed`
    for `bedingung`); the first keyword of the list with that prefix wins."""
    w = word.lower()
    for de, en in KEYWORDS:
        if len(w) >= 3 and de.startswith(w) or w == de:
            return en
    return None


def colour(w):
    lw = w.lower()
    for de, en in COLOURS.items():
        if len(lw) >= 4 and de.startswith(lw):
            return en
    return None


def piece_word(w):
    m = re.fullmatch(r"([kdtlsb])([a-h][1-8])+", w.lower())
    if not m:
        return w
    letter = PIECES[w[0].lower()]
    return letter + w[1:].lower()


def forsyth_word(w):
    """German Forsyth letters (D T L S B) to English (Q R B S P), case kept."""
    table = {"d": "q", "t": "r", "l": "b", "b": "p"}
    return "".join(table[c.lower()].upper() if c.isupper() and c.lower() in table
                   else table.get(c, c) for c in w)


def main():
    text = open(sys.argv[1], encoding="latin-1").read()
    out = []
    section = None
    twin_cond = False
    for line in text.splitlines():
        words = line.split()
        if not words:
            out.append("")
            continue
        first = keyword(words[0])
        if section == "LaTeX" and not first:
            # The LaTeX output's piece names: not read by chimere.
            out.append("")
            continue
        rest = words
        new = []
        if first == "LaTeX":
            section = first
            out.append("")
            continue
        if first:
            section = first
            twin_cond = False
            new.append(first)
            rest = words[1:]
            if first in ("Author", "Origin", "Title", "Remark", "Protocol"):
                out.append(" ".join([first] + rest) if first != "Protocol" else "")
                continue
        for w in rest:
            lw = w.lower()
            if section == "Forsyth":
                new.append(forsyth_word(w))
            elif section == "Pieces":
                new.append(colour(w) or piece_word(w))
            elif section == "Condition":
                new.append(condition_word(w))
            elif section == "Option":
                new.append(OPTIONS.get(lw, w))
            elif section in ("Twin", "ZeroPosition"):
                if lw in ("bedingung", "bedi", "bed"):
                    twin_cond = True
                elif lw in TWINS:
                    twin_cond = False
                t = TWINS.get(lw)
                if t is None and twin_cond:
                    t = condition_word(w)
                if t is None and new and new[-1] in ("Substitute",) or (
                        len(new) >= 2 and new[-2] == "Substitute"):
                    t = PIECES.get(lw) if t is None else t
                new.append(t or colour(w) or piece_word(w))
            else:
                new.append(w)
        out.append(" ".join(new))
    print("\n".join(out))


main()
