//! The fastest open peer, pgn-reader + shakmaty: parse, replay every move and test every
//! position with the mask of `Ra-h7 ka-h8`, on one thread or on all of rayon's.

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use rayon::prelude::*;
use shakmaty::{Bitboard, Chess, Position, Rank};

/// What a search found, to check that both engines agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games with a match.
    pub games: u64,
    /// Positions matched.
    pub positions: u64,
    /// Plies replayed.
    pub plies: u64,
}

/// The mask test of `Ra-h7 ka-h8`, written directly on shakmaty's bitboards.
fn rook_on_seventh(position: &Chess) -> bool {
    let board = position.board();
    let white_rooks = board.rooks() & board.white();
    let black_king = board.kings() & board.black();
    !(white_rooks & Bitboard::from_rank(Rank::Seventh)).is_empty()
        && !(black_king & Bitboard::from_rank(Rank::Eighth)).is_empty()
}

/// pgn-reader + shakmaty: parse, replay every move, test every position.
struct PeerReplay;

impl Visitor for PeerReplay {
    type Tags = ();
    type Movetext = (Chess, u64, u64);
    type Output = (u64, u64);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), _name: &[u8], _value: RawTag<'_>) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        let position = Chess::default();
        let matched = u64::from(rook_on_seventh(&position));
        ControlFlow::Continue((position, matched, 0))
    }

    fn begin_variation(&mut self, _movetext: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&movetext.0) {
            Ok(m) => {
                movetext.0.play_unchecked(m);
                movetext.2 += 1;
                movetext.1 += u64::from(rook_on_seventh(&movetext.0));
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break((movetext.1, movetext.2)),
        }
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        (movetext.1, movetext.2)
    }
}

pub fn peer_replay(text: &[u8]) -> Counts {
    let mut reader = Reader::new(text);
    let mut counts = Counts::default();
    while let Some((matched, plies)) = reader.read_game(&mut PeerReplay).expect("in memory") {
        counts.games += u64::from(matched > 0);
        counts.positions += matched;
        counts.plies += plies;
    }
    counts
}

/// The peer on all threads: the text split at `\n[Event `, slices of games replayed by rayon.
pub fn peer_replay_parallel(text: &[u8]) -> Counts {
    let mut starts = vec![0];
    starts.extend(memchr::memmem::find_iter(text, b"\n[Event ").map(|at| at + 1));
    starts.push(text.len());
    let chunk = starts.len().div_ceil(rayon::current_num_threads() * 64).max(1);
    let bounds: Vec<(usize, usize)> = starts
        .chunks(chunk)
        .map(|games| games[0])
        .chain([text.len()])
        .collect::<Vec<_>>()
        .windows(2)
        .map(|pair| (pair[0], pair[1]))
        .collect();
    bounds.par_iter().map(|&(start, end)| peer_replay(&text[start..end])).reduce(Counts::default, |a, b| Counts {
        games: a.games + b.games,
        positions: a.positions + b.positions,
        plies: a.plies + b.plies,
    })
}
