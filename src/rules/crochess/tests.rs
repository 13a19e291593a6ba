//! The notation examples of the book's appendix, each set on a position that fits what the
//! appendix says of it, replayed to the position it describes.

use super::CroatianBoard;
use crate::notation::MoveErrorKind;
use crate::notation::crochess::setup_string;
use crate::rules::GameRules;
use crate::variant::Edition;

/// Plays `moves` from a setup string (2020 edition unless told) and gives the setup string
/// after them, or the first error.
fn replay(edition: Edition, setup: &str, moves: &[&str]) -> Result<String, (MoveErrorKind, String)> {
    let variant = setup_string::variant_of(setup).unwrap().in_edition(edition).unwrap();
    crate::with_width!(variant.width(), W => {
        let mut board = CroatianBoard::<W>::start(variant, Some(setup)).unwrap();
        for token in moves {
            let mut reason = None;
            board.play_token(token.as_bytes(), &mut reason).map_err(|kind| {
                (kind, reason.map(|reason| reason.to_string()).unwrap_or_default())
            })?;
        }
        let mut out = String::new();
        board.write_position(&mut out);
        Ok(out)
    })
}

fn after(setup: &str, moves: &[&str]) -> String {
    replay(Edition::Ed2020, setup, moves).unwrap_or_else(|error| panic!("{moves:?}: {error:?}"))
}

/// Every way the appendix writes one move gives the same position.
fn same(setup: &str, forms: &[&str], expected: &str) {
    for form in forms {
        assert_eq!(after(setup, &[form]), expected, "{form}");
    }
}

#[test]
fn simple_moves_captures_and_disambiguation() {
    let ties = "Ct Ke1,Gc2,ke10";
    same(ties, &["Gf8", "Gc2-f8"], "ct Ke1,Gf8,ke10");
    // The appendix's `Gf7` and `Gc2-f7` (its figure shows f8) are no Pegasus move from c2.
    for typo in ["Gf7", "Gc2-f7"] {
        assert_eq!(replay(Edition::Ed2020, ties, &[typo]).unwrap_err().0, MoveErrorKind::Illegal);
    }
    // With another Pegasus on i2, the file tells them apart.
    let two = "Ct Ke1,Gc2,Gi2,ke10";
    assert_eq!(replay(Edition::Ed2020, two, &["Gf8"]).unwrap_err().0, MoveErrorKind::Ambiguous);
    assert_eq!(after(two, &["Gcf8"]), "ct Ke1,Gi2,Gf8,ke10");
    same("Ct Ke1,Ge3,pg4,ke10", &["Gg4*P", "Gg4*", "Gg4"], "ct Ke1,Gg4,ke10");
    same("Mv Ke1,Pf7,we8,ke16", &["e8*", "e8*W", "fe8*W"], "mv Ke1,We8,ke16".replace("We8", "Pe8").as_str());
    same("Cc Ke1,Nb1,ke8", &["Nc3", "Nb1-c3"], "cc Ke1,Nc3,ke8");
}

#[test]
fn rushes_and_en_passant() {
    let ties = "Ct Ke1,Ph2|,pi4,ke10";
    assert_eq!(after(ties, &["h5"]), "ct Ke1,pi4,Ph5:,ke10");
    assert_eq!(after(ties, &["h2-h5"]), "ct Ke1,pi4,Ph5:,ke10");
    for capture in ["h3:", "h3:5", "ih3:", "ih3:5"] {
        assert_eq!(after(ties, &["h5", capture]), "Ct Ke1,ph3,ke10", "{capture}");
    }
    // En passant lasts one move.
    let later = "Ct Ke1,Ph2|,Pa2|,pi4,pj8|,ke10";
    assert!(replay(Edition::Ed2020, later, &["h5", "j7", "a3", "h3:"]).is_err());
    // Another dark Pawn on g4 makes the file needed.
    let two = "Ct Ke1,Ph2|,pg4,pi4,ke10";
    assert_eq!(replay(Edition::Ed2020, two, &["h5", "h3:"]).unwrap_err().0, MoveErrorKind::Ambiguous);
    assert_eq!(after(two, &["h5", "ih3:5"]), "Ct Ke1,ph3,pg4,ke10");
}

#[test]
fn castling_lands_where_written() {
    let aquarius = "Aoa Ra1&,Kh1&,Rn1&,kh14";
    same(aquarius, &["Kd&", "Kd&e"], "aoa Kd1,Re1,Rn1&,kh14");
    let one = "O Kn1&,Ry1&,kn26";
    same(one, &["Kr&", "Kr&q"], "o Rq1,Kr1,kn26");
    same("Cc Ra1&,Ke1&,Rh1&,ke8", &["O-O", "0-0", "Kg&"], "cc Ra1&,Rf1,Kg1,ke8");
}

#[test]
fn promotions_immediate_and_delayed() {
    same("Cc Ke1,Pe7,kh8", &["e8Q", "e8=Q", "e7-e8=Q"], "cc Ke1,Qe8,kh8");
    let aquarius = "Aoa Ke1,Pl13,ka14";
    assert_eq!(after(aquarius, &["l14="]), "aoa Ke1,ka14,Pl14=");
    assert_eq!(after(aquarius, &["l14=", "Kb14", "l14Q"]), "aoa Ke1,kb14,Ql14");
    assert_eq!(after("Aoa Ke1,Pe11=,ka14", &["e12=="]), "aoa Ke1,Pe12,ka14");
}

#[test]
fn cascades_and_conversions() {
    let mayan = "Ma Ke1,Qk2,Af7,Ai7,ke12";
    same(mayan, &["Qf7~Ai7~Ai9", "Qk2-f7~Af7-i7~Ai7-i9", "[Qk2-f7]~[Af7-i7]~[Ai7-i9]"], "ma Ke1,Qf7,Ai7,Ai9,ke12");
    let conversion = "Ma Ke1,Ad5,rh5,Bh9,ke12";
    same(conversion, &["Bd5~Ah5%", "Bd5~Ah5%R", "Bh9-d5~Ad5-h5%", "[Bh9-d5]~[Ad5-h5%R]"], "ma Ke1,Bd5,Rh5,ke12");
    // A Starchild is immune: the Pyramid is oblated.
    let one = "O Kn1,Bs16,Al23,ih23,kn26";
    same(one, &["Bl23~Ah23%%", "[Bs16-l23]~[Al23-h23%%]"], "o Kn1,ih23,Bl23,kn26");
}

#[test]
fn centaur_paths() {
    let dawn = "Hd Kk1,Cd3,kk20";
    let expected = "hd Kk1,Cp15,kk20";
    same(
        dawn,
        &["Cp15", "C.c5.g6..p15", "C.c5..p15", "C.f2.g6..p15", "C..i11..p15", "C..j9..p15", "C.b4.f5..p15"],
        expected,
    );
    // A ply ends on no own piece, unless it activates it.
    let blocked = "Hd Kk1,Cd3,Pp15,kk20";
    assert_eq!(replay(Edition::Ed2020, blocked, &["Cp15"]).unwrap_err().0, MoveErrorKind::Illegal);
}

#[test]
fn trance_journeys_displace_and_capture() {
    let conquest = "Cot Km1,Hf10,Wd11,He13,Ne18,Pm12,km24";
    let quiet = "Cot Km1,Hf10,Wd11,He13,km24";
    same(quiet, &["[Hf10-d11]~[Wd11-e13]@[He13-g24]"], "cot Km1,Hd11,We13,Hg24,km24");
    same(conquest, &["[Hf10-d11]~[Wd11-e13]@[He13..e18<Ni14..m12<Pj17..g24]"], "cot Km1,Hd11,We13,Ni14,Pj17,Hg24,km24");
    // The short forms: two light Shamans reach d11, but only with the one from f10 does the
    // Wave find the other on e13.
    same(quiet, &["Hd11~We13@Hg24"], "cot Km1,Hd11,We13,Hg24,km24");
    same(conquest, &["Hd11~We13@H..e18<i14..m12<j17..g24"], "cot Km1,Hd11,We13,Ni14,Pj17,Hg24,km24");
    // A ply written alone moves the Shaman along its steps.
    let alone = "Cot Km1,He13,Ne18,Pm12,km24";
    same(alone, &["[He13..e18<Ni14..m12<Pj17..g24]"], "cot Km1,Ni14,Pj17,Hg24,km24");
    same(alone, &["[He13..e18*N..m12*P..g24]"], "cot Km1,Hg24,km24");
    let dark = "cot Km1,he13,ne18,pm12,wd9,wf12,hj13,km24";
    assert_eq!(after(dark, &["Hf12~Wd9~We13@H..e18*..m12*..g24"]), "Cot Km1,wd9,hf12,we13,hg24,km24");
    let taken = after(dark, &["[H-f12]~[Wf12-d9]~[Wd9-e13]@[He13..e18*N..m12*P..g24]"]);
    assert_eq!(taken, "Cot Km1,wd9,hf12,we13,hg24,km24");
}

/// The book's dual trance-journey: the entranced dark Shaman on e12 takes every piece, own or
/// not, on both dark spirals (q16 p14 d20 g6 k14 j12 d10), passes the King on c18 and spares the
/// Pawn on e14, off the spirals; then it is oblated. The record may list the pieces taken, with
/// their fields or not, and a list that is not those pieces is an error.
#[test]
fn dual_trance_journeys_take_what_both_spirals_pass() {
    let conquest = "cot Kc18,hd13,he12,Pq16,bp14,rd20,Rg6,nk14,Bj12,Nd10,Pe14,km24";
    let forms = ["[Hd13-e12]@@", "He12@@", "He12@@P,B,R,R,N,B,N", "[Hd13-e12]@@Pq16,Bp14,Rd20,Rg6,Nk14,Bj12,Nd10"];
    for form in forms {
        assert_eq!(replay(Edition::Current, conquest, &[form]).unwrap(), "Cot he12,Pe14,Kc18,km24", "{form}");
    }
    for wrong in ["He12@@P,B,R,R,N,B", "He12@@P,B,R,R,N,B,N,N", "He12@@Pq15,B,R,R,N,B,N", "He12@@Q,B,R,R,N,B,N"] {
        let error = replay(Edition::Current, conquest, &[wrong]).unwrap_err();
        assert_eq!(error.0, MoveErrorKind::Illegal, "{wrong}");
        assert!(error.1.contains("journey takes"), "{wrong}: {}", error.1);
    }
}

/// The book's resurrections by a Starchild's syzygy: a Queen takes the Starchild's place, and
/// the Starchild is oblated; a Starchild comes back on the field written, and the one that
/// resurrected it stays. Only a captured piece comes back.
#[test]
fn resurrections_replace_the_starchild_or_come_back_beside_it() {
    let queen = "o Kn1,Ii23,Qa5,ra6,kn26";
    assert_eq!(after(queen, &["Ra5*", "It9$Q"]), "o Kn1,ra5,Qt9,kn26");
    assert_eq!(after(queen, &["Ra5*", "Ii23-t9$Q"]), "o Kn1,ra5,Qt9,kn26");
    // The oblated Starchild is among the pieces another may bring back.
    let two = "o Kn1,Ib2,Ii23,Qa5,ra6,kn26";
    assert_eq!(after(two, &["Ra5*", "Ii23-t9$Q", "Ra4", "Ic2$Ic3"]), "o Kn1,Ic2,Ic3,ra4,Qt9,kn26");
    let starchild = "o Kn1,Ii23,Ia5,ra6,kn26";
    assert_eq!(after(starchild, &["Ra5*", "It9$Iu8"]), "o Kn1,ra5,Iu8,It9,kn26");
    let error = replay(Edition::Ed2020, queen, &["Ra5*", "It9$R"]).unwrap_err();
    assert!(error.1.contains("no Rook was captured"), "{}", error.1);
}

#[test]
fn pawn_sacrifice_and_teleports() {
    let tamoanchan = "Tr Kl1,Pb2,Sc3,Ab4,pb6,kl22";
    same(tamoanchan, &["Sb4~Ab2::S..b6*..b8", "Sc3-b4~Ab4-b2::S..b6*..b8"], "tr Kl1,Ab2,Sb8,kl22");
    let nineteen = "N Ta1,Kj1,tr1,Bh11,ta18,Tr18,kj18";
    assert_eq!(after(nineteen, &["Ba18|q18"]), "n Ta1,Kj1,tr1,ta18,kj18,Bq18,Tr18");
    assert_eq!(after(nineteen, &["Ba18||"]), "n Ta1,Kj1,tr1,ta18,kj18,Tr18");
    let current = "N Ta1,Kj1,tr1,Bh11,ta18,Tr18,kj18";
    assert_eq!(replay(Edition::Current, current, &["Ba18|||"]).unwrap(), "n Ta1,Kj1,tr1,ta18,kj18,Tr18");
}

/// A move that fails leaves the board as it was, whatever its plies did before.
#[test]
fn a_failed_move_changes_nothing() {
    let mayan = "Ma Ke1,Qk2,Af7,ke12";
    let error = replay(Edition::Ed2020, mayan, &["Qf7~Ai7~Ai9"]).unwrap_err();
    assert_eq!(error.0, MoveErrorKind::Illegal);
    assert!(error.1.contains("ply 2: no piece on i7"), "{}", error.1);
    assert_eq!(after(mayan, &[]), "Ma Ke1,Qk2,Af7,ke12");
}
