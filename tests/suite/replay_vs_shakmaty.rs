//! Classical replay against shakmaty on real games: every position after every ply of every game
//! of `gnuchess-book` (145,716 games), the lichess sample and the Chess960 and Crazyhouse edge
//! files must be the same. Needs `../shared/data`; run with `cargo test --release -- --ignored`.

use std::io::Read;
use std::ops::ControlFlow;
use std::path::PathBuf;

use cqlq::each_position;
use cqlq::notation::pgn::{Lexer, Splitter, unescape};
use cqlq::notation::sniff::read_position;
use cqlq::rules::classical::{Board, San};
use cqlq::variant::Role;
use cqlq::{AnyPosition, Color, Variant};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::variant::{Variant as ShakmatyVariant, VariantPosition};
use shakmaty::{CastlingMode, EnPassantMode, Position as _, fen::Fen};

fn data(path: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data").join(path);
    assert!(path.exists(), "{} is missing: the corpus tests need ../shared/data", path.display());
    path
}

fn read(path: &str) -> Vec<u8> {
    let file = std::fs::File::open(data(path)).unwrap();
    let mut bytes = Vec::new();
    if path.ends_with(".zst") {
        zstd::stream::read::Decoder::new(file).unwrap().read_to_end(&mut bytes).unwrap();
    } else {
        std::io::BufReader::new(file).read_to_end(&mut bytes).unwrap();
    }
    bytes
}

/// A position reduced to what both engines agree a position is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    sides: [u64; 2],
    roles: [u64; 6],
    castling: u64,
    en_passant: Option<u8>,
    white_to_move: bool,
    halfmoves: u32,
    fullmoves: u32,
    hands: Option<[[u8; 5]; 2]>,
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn ours(board: &Board, hands: bool) -> State {
    let roles = ROLES.map(|role| board.pieces(Color::White, role) | board.pieces(Color::Black, role));
    State {
        sides: [board.side(Color::White), board.side(Color::Black)],
        roles,
        castling: board.castling_rights(),
        en_passant: board.legal_en_passant(),
        white_to_move: board.turn() == Color::White,
        halfmoves: board.halfmoves(),
        fullmoves: board.fullmoves(),
        hands: hands.then(|| Color::ALL.map(|color| [0, 1, 2, 3, 4].map(|r| board.in_hand(color, ROLES[r])))),
    }
}

fn theirs(position: &VariantPosition) -> State {
    let board = position.board();
    let roles = [board.pawns(), board.knights(), board.bishops(), board.rooks(), board.queens(), board.kings()];
    State {
        sides: [board.white().0, board.black().0],
        roles: roles.map(|bitboard| bitboard.0),
        castling: position.castles().castling_rights().0,
        en_passant: position.ep_square(EnPassantMode::Legal).map(|square| square as u8),
        white_to_move: position.turn() == shakmaty::Color::White,
        halfmoves: position.halfmoves(),
        fullmoves: position.fullmoves().get(),
        hands: position.pockets().map(|pockets| {
            [pockets.white, pockets.black].map(|hand| [hand.pawn, hand.knight, hand.bishop, hand.rook, hand.queen])
        }),
    }
}

/// Our replay of one game: the states from the initial position on, or the first error.
#[derive(Default)]
struct Ours<'a> {
    tags: Vec<(&'a [u8], &'a [u8])>,
    board: Option<Board>,
    hands: bool,
    states: Vec<State>,
    error: Option<String>,
}

impl<'a> cqlq::notation::pgn::Visitor<'a> for Ours<'a> {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.tags.push((name, value));
    }

    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        let tag = |name: &[u8]| {
            self.tags.iter().find(|(n, _)| *n == name).map(|(_, v)| String::from_utf8_lossy(&unescape(v)).into_owned())
        };
        let variant = tag(b"Variant").map_or(Variant::standard(), |name| Variant::by_name(&name).unwrap());
        let variant = if tag(b"FEN").is_some() && variant == Variant::standard() {
            Variant::by_name("Chess960").unwrap()
        } else {
            variant
        };
        self.hands = variant.name == "Crazyhouse";
        let board = match tag(b"FEN") {
            None => Board::initial(variant),
            Some(fen) => match read_position(&fen, Some(variant)).unwrap() {
                AnyPosition::W1(position) => Board::from_position(&position),
                other => panic!("{}", each_position!(other, p => p.setup().variant.name)),
            },
        };
        self.states.push(ours(&board, self.hands));
        self.board = Some(board);
        ControlFlow::Continue(())
    }

    fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
        let board = self.board.as_mut().unwrap();
        let played = San::from_ascii(token)
            .map_err(|e| e.to_string())
            .and_then(|san| board.play_san(&san).map_err(|e| e.to_string()));
        match played {
            Ok(_) => {
                self.states.push(ours(board, self.hands));
                ControlFlow::Continue(())
            }
            Err(error) => {
                self.error = Some(format!("{} at ply {}: {error}", String::from_utf8_lossy(token), self.states.len()));
                ControlFlow::Break(())
            }
        }
    }
}

/// shakmaty's replay of one game, through pgn-reader.
struct Theirs;

impl Visitor for Theirs {
    type Tags = (Option<Fen>, Option<ShakmatyVariant>);
    type Movetext = (VariantPosition, Vec<State>, Option<String>);
    type Output = (Vec<State>, Option<String>);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue((None, None))
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        match name {
            b"FEN" => tags.0 = Some(Fen::from_ascii(value.as_bytes()).unwrap()),
            b"Variant" => {
                tags.1 = match value.decode_utf8_lossy().to_ascii_lowercase().as_str() {
                    "crazyhouse" => Some(ShakmatyVariant::Crazyhouse),
                    _ => None,
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let variant = tags.1.unwrap_or(ShakmatyVariant::Chess);
        let position = match tags.0 {
            Some(fen) => VariantPosition::from_setup(variant, fen.into_setup(), CastlingMode::Chess960).unwrap(),
            None => VariantPosition::new(variant),
        };
        let states = vec![theirs(&position)];
        ControlFlow::Continue((position, states, None))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&movetext.0) {
            Ok(m) => {
                movetext.0.play_unchecked(m);
                let state = theirs(&movetext.0);
                movetext.1.push(state);
                ControlFlow::Continue(())
            }
            Err(error) => {
                movetext.2 = Some(format!("{san_plus}: {error}"));
                ControlFlow::Break((std::mem::take(&mut movetext.1), movetext.2.take()))
            }
        }
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        (movetext.1, movetext.2)
    }
}

struct Report {
    games: usize,
    plies: usize,
}

/// Replays every game of a file both ways and compares every position.
fn compare(path: &str) -> Report {
    let bytes = read(path);
    let mut starts = Splitter::starts(&bytes);
    starts.push(bytes.len());
    let mut report = Report { games: 0, plies: 0 };
    let mut reader = Reader::new(std::io::Cursor::new(&bytes));
    for range in starts.windows(2) {
        let text = &bytes[range[0]..range[1]];
        let mut lexer = Lexer::new(text);
        let mut replay = Ours::default();
        assert!(lexer.next_game(&mut replay).is_some());
        let (states, error) = reader.read_game(&mut Theirs).unwrap().expect("a game for pgn-reader too");
        report.games += 1;
        assert_eq!(replay.error, None, "{path}: game {} fails with us", report.games);
        assert_eq!(error, None, "{path}: game {} fails with shakmaty", report.games);
        if let Some(ply) = (0..states.len().max(replay.states.len())).find(|&i| states.get(i) != replay.states.get(i)) {
            panic!(
                "{path}: game {} differs at ply {ply}:\nours   {:?}\ntheirs {:?}",
                report.games,
                replay.states.get(ply),
                states.get(ply)
            );
        }
        report.plies += states.len() - 1;
    }
    assert!(reader.read_game(&mut Theirs).unwrap().is_none(), "{path}: pgn-reader finds more games");
    report
}

#[test]
#[ignore = "needs ../shared/data"]
fn every_position_of_gnuchess_book() {
    let report = compare("pgn/gnuchess-book.pgn.zst");
    println!("gnuchess-book: {} games, {} plies, all positions equal", report.games, report.plies);
    assert_eq!(report.games, 145_716);
    assert_eq!(report.plies, 11_264_836);
}

#[test]
#[ignore = "needs ../shared/data"]
fn every_position_of_the_lichess_sample_and_edge_files() {
    for path in [
        "pgn/lichess_db_1000k.pgn",
        "pgn/edge/cutechess-fischerrandom.pgn",
        "pgn/edge/knightvuillaume-jannlee-zh-lichess.pgn",
        "pgn/edge/saturs-jannlee-zh-lichess.pgn",
        "pgn/edge/kasparov-deep-blue-1997.pgn",
        "pgn/edge/molinari-bordais-1979.pgn",
        "pgn/edge/nepomniachtchi-liren-game1.pgn",
    ] {
        let report = compare(path);
        println!("{path}: {} games, {} plies, all positions equal", report.games, report.plies);
    }
}
