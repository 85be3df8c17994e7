//! Conditions by name, as a command line gives them (`--condition circe`,
//! `--condition "anticirce cheylan"`): the seed's names (accents optional) and Popeye's
//! keywords. Each name makes one condition; several compose through [`crate::RuleSet`].

use super::{Change, Circe, Ghost, Kamikaze, Mars, MarsMirror, Occupied, RebirthSquare, Who};
use crate::rules::{Condition, RulesError};
use std::sync::Arc;

fn normalise(s: &str) -> Vec<String> {
    let s: String = s
        .chars()
        .map(|c| match c {
            'é' | 'è' | 'ê' | 'É' => 'e',
            'ô' => 'o',
            'â' | 'à' => 'a',
            '-' | '_' | '=' => ' ',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    s.split_whitespace().map(str::to_string).collect()
}

/// Builds the condition(s) one name stands for.
pub fn by_name(name: &str) -> Result<Vec<Arc<dyn Condition>>, RulesError> {
    let words = normalise(name);
    let w: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
    let unknown = || RulesError(format!("unknown or unsupported condition `{name}`"));
    let has = |x: &str| w.contains(&x);
    let joined = w.join("");
    let mut out: Vec<Arc<dyn Condition>> = Vec::new();
    match w.first().copied() {
        Some("fusil") => out.push(Arc::new(Circe::fusil())),
        _ if joined == "checkless" || joined == "checklesschess" || joined == "sansechec" => {
            out.push(Arc::new(super::Checkless))
        }
        _ if joined == "quiperdgagne" || joined == "losinggame" || joined == "losingchess" => {
            out.push(Arc::new(super::Losing))
        }
        _ if joined == "absorbant" || joined == "absorbantchess" => out.push(Arc::new(super::Absorbant)),
        _ if joined == "augsburg" => out.push(Arc::new(super::Augsburg)),
        // `dynamo` here is the CONDITION (the CLI's `--variant dynamo` is the game).
        _ if joined == "dynamo" || joined == "dynamochess" => out.push(Arc::new(super::Dynamo)),
        _ if joined == "extinction" || joined == "extinctionchess" => out.push(Arc::new(super::Extinction)),
        _ if joined == "anneciens" => out.push(Arc::new(super::Anneciens)),
        Some("progressif") | Some("progressive") | Some("progressivechess") => {
            let mut p = super::Progressif::default();
            match w.get(1) {
                Some(n) if w.len() == 2 => {
                    p.first = n.parse().ok().filter(|&n: &u16| n >= 1).ok_or_else(unknown)?;
                }
                Some(_) => return Err(unknown()),
                None => {}
            }
            out.push(Arc::new(p));
        }
        _ if joined.starts_with("republic") => {
            let type1 = has("type1") || (has("type") && has("1"));
            if w.iter().skip(1).any(|x| !matches!(*x, "type1" | "type2" | "type" | "1" | "2")) {
                return Err(unknown());
            }
            out.push(Arc::new(super::Republican { type1 }))
        }
        _ if joined == "maff" => out.push(Arc::new(super::Maff)),
        _ if joined == "alsacien" => out.push(Arc::new(super::Alsacien::default())),
        _ if joined == "amnesie" => out.push(Arc::new(super::Amnesie::default())),
        _ if joined == "deadreckoning" => out.push(Arc::new(super::DeadReckoning::default())),
        _ if joined == "rexmultiplex" => out.push(Arc::new(super::RexMultiplex)),
        _ if joined == "roissiamois" || joined == "siamesekings" => out.push(Arc::new(super::SiameseKings)),
        _ if joined == "bicolores" => out.push(Arc::new(super::Bicolores)),
        _ if joined == "antiandernach" || joined == "antiandernachchess" => out.push(Arc::new(super::AntiAndernach)),
        _ if joined == "einstein" || joined == "einsteinchess" => out.push(Arc::new(super::Einstein)),
        _ if joined == "volage" => out.push(Arc::new(super::Volage::condition())),
        _ if joined == "glasgow" || joined == "glasgowchess" => out.push(Arc::new(super::Glasgow)),
        _ if joined == "swappingkings" => out.push(Arc::new(super::SwappingKings)),
        _ if joined == "gravitation" => out.push(Arc::new(super::Gravitation)),
        _ if joined == "bicaptures" => out.push(Arc::new(super::Bicaptures)),
        _ if joined == "allinchess" => out.push(Arc::new(super::AllIn)),
        _ if joined == "cavaliermajeur" => out.push(Arc::new(super::PieceSet::cavalier_majeur())),
        _ if joined == "rose" => out.push(Arc::new(super::PieceSet::rose())),
        _ if joined == "locusauteur" => out.push(Arc::new(super::PieceSet::locusauteur())),
        _ if joined == "rokagogo" => out.push(Arc::new(super::Rokagogo)),
        _ if joined == "roisreflecteurs" || joined == "reflectivekings" => out.push(Arc::new(super::ReflectiveKings)),
        _ if joined == "roisstrictementtransmutes" || joined == "strictlytransmutedkings" => {
            out.push(Arc::new(super::StrictTransmutedKings))
        }
        _ if joined == "nodoublepawns" => out.push(Arc::new(super::NoDoublePawns)),
        _ if joined == "monochromatique" || joined == "monochromchess" || joined == "monochrome" => {
            out.push(Arc::new(super::Monochrome))
        }
        _ if joined == "bichromatique" || joined == "bichromchess" || joined == "bichrome" => {
            out.push(Arc::new(super::Bichrome))
        }
        _ if joined == "ultrapatrouille" || joined == "ultrapatrol" => out.push(Arc::new(super::UltraPatrol)),
        _ if joined == "central" || joined == "centralchess" => out.push(Arc::new(super::Central)),
        _ if joined == "eiffel" || joined == "eiffelchess" => out.push(Arc::new(super::Eiffel)),
        _ if joined == "haan" || joined == "haanerchess" || joined == "haanchess" => out.push(Arc::new(super::Haan)),
        Some("trou") | Some("hole") | Some("holes") | Some("trous") => {
            let squares: Vec<&str> = w[1..].iter().copied().filter(|x| !matches!(*x, "trou" | "hole")).collect();
            let hole = super::Hole::parse(&squares)
                .ok_or_else(|| RulesError(format!("`{name}`: holes need squares, e.g. `hole d4e5`")))?;
            out.push(Arc::new(hole))
        }
        Some("sentinelles") => out.push(Arc::new(super::Sentinelles::from_words(&w[1..])?)),
        _ if joined.starts_with("caseobligatoireconsequente")
            || joined.starts_with("whiteconsequentforcedsquare")
            || joined.starts_with("blackconsequentforcedsquare") =>
        {
            // The sides: both (seed name without colour), white (`blanche`, Popeye's
            // White...), black (`noire`, Black...); then the forced squares (`e4d5`, `e4 d5`).
            let (white, black) = match w[0] {
                "whiteconsequentforcedsquare" => (true, false),
                "blackconsequentforcedsquare" => (false, true),
                _ => (!has("noire"), !has("blanche")),
            };
            let words: Vec<&str> = w[1..]
                .iter()
                .copied()
                .filter(|x| !matches!(*x, "obligatoire" | "consequente" | "blanche" | "noire"))
                .collect();
            let squares = super::Hole::parse(&words)
                .ok_or_else(|| RulesError(format!("`{name}`: forced squares needed, e.g. `{name} e4d5`")))?
                .squares;
            let mut f = super::ForcedSquares::default();
            if white {
                f.white = squares.clone();
            }
            if black {
                f.black = squares;
            }
            out.push(Arc::new(f))
        }
        _ if joined == "sat" => out.push(Arc::new(super::Sat)),
        _ if joined == "blackchecks" || joined.starts_with("lesnoirsnejouent") => {
            out.push(Arc::new(super::BlackChecks))
        }
        _ if joined == "brunner" || joined == "brunnerchess" => out.push(Arc::new(super::Brunner)),
        Some("isardam") => out.push(Arc::new(super::Isardam { type_b: has("typeb") || has("b") })),
        _ if joined.starts_with("vogtl") => out.push(Arc::new(super::Vogtlander)),
        Some("optional") if has("replacement") => out.push(Arc::new(Circe::optional_replacement())),
        _ if joined == "paracirce" => out.push(Arc::new(Circe::para())),
        _ if joined == "circecoucou" || joined == "coucoucirce" => out.push(Arc::new(Circe::coucou())),
        Some("ghost") | Some("ghostchess") | Some("fantomes") => out.push(Arc::new(Ghost)),
        Some("kamikaze") if has("rex") => {
            out.push(Arc::new(Kamikaze { capturer_may_return: false, every_unit: true, kings_too: true }))
        }
        Some("marsmirrorcirce") => out.push(Arc::new(MarsMirror)),
        _ if joined.starts_with("antisupercirce") || (joined.starts_with("anticirce") && has("super")) => {
            out.push(Arc::new(Circe::anti("Anti-Super-Circe", RebirthSquare::Any)))
        }
        _ if joined.starts_with("anticirce") => {
            let mut c = Circe::anti(name, RebirthSquare::Standard);
            for x in &w[1..] {
                match *x {
                    "colonne" | "file" => c.square = RebirthSquare::File,
                    "echange" | "capturesquare" => {
                        c.square = RebirthSquare::CaptureSquare;
                        c.cheylan = false;
                    }
                    "equipollent" | "equipollents" => c.square = RebirthSquare::Equipollents,
                    "malefique" | "mirror" => c.square = RebirthSquare::Mirror,
                    "cheylan" => c.cheylan = true,
                    "calvet" => c.cheylan = false,
                    "pwc" => {
                        c.square = RebirthSquare::Departure;
                        c.cheylan = false;
                    }
                    "circe" => {}
                    _ => return Err(unknown()),
                }
            }
            out.push(Arc::new(c));
        }
        _ if joined == "supercirce" => out.push(Arc::new(Circe::with_square("Super-Circe", RebirthSquare::Any))),
        _ if w.iter().any(|x| x.contains("circe")) => {
            if has("martien") || has("mars") || has("marscirce") {
                out.push(Arc::new(Mars { mirror: has("malefique") || has("mirror") }));
                return Ok(out);
            }
            let mut c = Circe::plain();
            c.label = name.to_string();
            let mut kamikaze = false;
            for x in &w {
                match *x {
                    "circe" | "renaissances" | "rex" | "blanc" | "white" => {}
                    "antipode" | "antipodes" => c.square = RebirthSquare::Antipodes,
                    "chameleon" | "cameleon" => c.change = Change::Chameleon,
                    "clone" => c.change = Change::Clone,
                    "couscous" => c.square = RebirthSquare::Couscous,
                    "diagramme" | "diagram" => {
                        c.square = RebirthSquare::Diagram;
                        c.white_only = has("blanc") || has("white");
                    }
                    "equipollent" | "equipollents" => c.square = RebirthSquare::Equipollents,
                    "inverse" | "verticalmirror" => c.square = RebirthSquare::VerticalMirror,
                    "malefique" | "mirror" => c.square = RebirthSquare::Mirror,
                    "symetrique" | "symmetry" => c.square = RebirthSquare::Symmetry,
                    "kamikaze" => kamikaze = true,
                    "assassin" => c.occupied = Occupied::Assassin,
                    "parachute" => c.occupied = Occupied::Parachute,
                    "volcanique" | "volcanic" => c.occupied = Occupied::Volcanic,
                    "strict" => c.occupied = Occupied::Illegal,
                    "inclusiv" | "inclusive" | "rexinclusive" | "rexinclusiv" => c.rex_inclusive = true,
                    _ => return Err(unknown()),
                }
            }
            debug_assert_eq!(c.who, Who::Captured);
            if kamikaze {
                out.push(Arc::new(Kamikaze { capturer_may_return: true, every_unit: true, kings_too: false }));
            }
            out.push(Arc::new(c));
        }
        _ => return Err(unknown()),
    }
    Ok(out)
}

/// The conditions [`by_name`] knows, for listings (`chimere conditions`): a name it accepts
/// (the seed's, accents optional) and the Popeye keyword that selects it in `chimere solve`
/// input (Chimère's own keyword where Popeye lacks the condition).
pub const CATALOGUE: &[(&str, &str)] = &[
    ("alsacien", "Alsacien"),
    ("amnesie", "Amnesie"),
    ("dead reckoning", "DeadReckoning"),
    ("circe", "Circe"),
    ("circe antipode", "AntipodesCirce"),
    ("circe cameleon", "ChameleonCirce"),
    ("circe clone", "CirceClone"),
    ("circe couscous", "CouscousCirce"),
    ("circe coucou", "CoucouCirce"),
    ("circe diagramme", "DiagramCirce"),
    ("circe diagramme blanc", "WhiteDiagramCirce"),
    ("circe equipollent", "EquipollentsCirce"),
    ("circe inverse", "VerticalMirrorCirce"),
    ("circe kamikaze", "Circe + Kamikaze units"),
    ("circe malefique martien", "MarsMirrorCirce"),
    ("circe symetrique", "SymmetryCirce"),
    ("circe assassin", "Circe Assassin"),
    ("circe parachute", "Circe Parachute"),
    ("circe volcanique", "Circe Volcanic"),
    ("circe strict", "Circe Strict"),
    ("circe rex inclusiv", "Circe RexInclusive"),
    ("super-circe", "SuperCirce"),
    ("anticirce cheylan", "AntiCirce Cheylan"),
    ("anticirce calvet", "AntiCirce Calvet"),
    ("anticirce colonne", "AntiCirce File"),
    ("anticirce echange", "AntiCirce CaptureSquare"),
    ("anticirce equipollent", "AntiCirce Equipollents"),
    ("anticirce malefique", "AntiCirce Mirror"),
    ("anti-super-circe", "AntiSuperCirce"),
    ("fusil", "AntiCirce PWC"),
    ("para-circe", "ParaCirce"),
    ("optional replacement", "OptionalReplacement"),
    ("ghost", "GhostChess"),
    ("kamikaze rex inclusiv", "Kamikaze units, kings included"),
    ("absorbant", "Absorbant"),
    ("all-in-chess", "AllInChess"),
    ("anti-andernach", "AntiAndernachChess"),
    ("augsburg", "Augsburg"),
    ("bicaptures", "Bicaptures"),
    ("bichromatique", "BichromChess"),
    ("monochromatique", "MonochromChess"),
    ("central", "CentralChess"),
    ("ultra-patrouille", "UltraPatrol"),
    ("eiffel", "EiffelChess"),
    ("haan", "HaanerChess"),
    ("trou d4 e5", "Hole d4e5"),
    ("glasgow", "GlasgowChess"),
    ("einstein", "EinsteinChess"),
    ("volage", "Volage"),
    ("sentinelles pion adverse", "Sentinelles PionAdvers"),
    ("sentinelles pion neutre", "Sentinelles PionNeutre"),
    ("sentinelles totalmax 8", "Sentinelles MaximumTotal 8"),
    ("gravitation", "Gravitation"),
    ("dynamo", "DynamoChess"),
    ("cavalier majeur", "CavalierMajeur"),
    ("rose", "Rose"),
    ("locusauteur", "Locusauteur"),
    ("no double pawns", "NoDoublePawns"),
    ("rokagogo", "Rokagogo"),
    ("rois reflecteurs", "ReflectiveKings"),
    ("rois strictement transmutes", "StrictlyTransmutedKings"),
    ("swapping kings", "SwappingKings"),
    ("bicolores", "Bicolores"),
    ("brunner", "BrunnerChess"),
    ("sat", "SAT"),
    ("vogtlander", "VogtlaenderChess"),
    ("isardam", "Isardam"),
    ("isardam type b", "Isardam TypeB"),
    ("rex multiplex", "RexMultiplex"),
    ("rois siamois", "SiameseKings"),
    ("extinction", "ExtinctionChess"),
    ("republicains", "RepublicanChess [Type1|Type2]"),
    ("qui perd gagne", "LosingChess"),
    ("sans echec", "ChecklessChess"),
    ("maff", "MAFF"),
    ("case obligatoire consequente e4 d5", "WhiteConsequentForcedSquare e4d5 BlackConsequentForcedSquare e4d5"),
    ("les noirs ne jouent que pour donner echec", "BlackChecks"),
    ("progressif", "ProgressiveChess [n]"),
    ("anneciens", "Anneciens"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    #[test]
    fn names_build_and_compose() {
        for n in [
            "circe",
            "Circé parachuté",
            "circe volcanique",
            "anticirce cheylan",
            "Anticircé colonne",
            "anticirce echange",
            "anti-super-circe",
            "super-circe",
            "fusil",
            "ghost",
            "circe kamikaze",
            "kamikaze rex inclusiv",
            "circe malefique martien",
            "para-circe",
            "circe coucou",
            "optional replacement",
            "circe diagramme blanc",
            "circe rex inclusiv",
            "Anti-Andernach",
            "AntiAndernachChess",
            "Einstein",
            "volage",
            "GlasgowChess",
            "Sentinelles en Pion adverse",
            "Sentinelles PionAdvers",
            "Sentinelles en Pion neutre",
            "Sentinelles Totalmax=4",
            "Sentinelles MaximumTotal 4",
            "Swapping Kings",
            "gravitation",
            "progressif",
            "Progressif 3",
            "ProgressiveChess 2",
            "Annéciens",
            "anneciens",
        ] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            RuleSet::build(c, &[]).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
        assert!(by_name("frobnicate").is_err());
        assert!(by_name("circe frob").is_err());
        let mut both = by_name("circe").unwrap();
        both.extend(by_name("anticirce").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }

    #[test]
    fn every_catalogue_name_builds_alone() {
        for (n, _) in CATALOGUE {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            RuleSet::build(c, &[]).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
    }
}
