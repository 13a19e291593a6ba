//! Replay of the six lichess variants beside Standard: seeded random games of each, written as
//! PGN with their `Variant` tag, replayed by cqlq's library and by shakmaty in the same run.
//!
//! `cargo bench --bench lichess` — needs nothing outside the repository: the games are
//! generated in memory before anything is timed. `CQLQ_BENCH_RUNS` sets the runs per
//! measurement (default 7); `CQLQ_LICHESS_GAMES` the games of each variant (default 2000, of up
//! to 150 plies, each move drawn uniformly among the legal ones).
//!
//! Measured, for each of Standard, Atomic, Antichess, Horde, King of the Hill, Racing Kings and
//! Three-check, on 1 thread:
//! 1. cqlq replaying the PGN text (`replay_range`, games of a variant read through the `Variant`
//!    tag, the query `true` tested at every position);
//! 2. shakmaty replaying the same text: the `Variant` tag read, every SAN parsed and played on a
//!    `VariantPosition`.
//!
//! Printed: the time per ply (medians), each variant's against Standard's for both engines, and
//! cqlq's against shakmaty's.

use cqlq::Query;
use cqlq::search::{Plans, ReplayOptions, replay_range};
use shakmaty::Position;
use shakmaty::san::{San, SanPlus};
use shakmaty::variant::{Variant as Rules, VariantPosition};

#[path = "common/measure.rs"]
#[allow(dead_code)]
mod measure;

use measure::{Job, env_number, secs};

/// The variants, by the names of their `Variant` tags, with shakmaty's rules for each.
const VARIANTS: [(&str, Rules); 7] = [
    ("Standard", Rules::Chess),
    ("Atomic", Rules::Atomic),
    ("Antichess", Rules::Antichess),
    ("Horde", Rules::Horde),
    ("King of the Hill", Rules::KingOfTheHill),
    ("Racing Kings", Rules::RacingKings),
    ("Three-check", Rules::ThreeCheck),
];

/// The longest game generated, in plies.
const MAX_PLIES: usize = 150;

/// A query every position matches: the replay is measured, not the query.
const QUERY: &str = "true";

fn main() {
    let runs: usize = env_number("CQLQ_BENCH_RUNS", 7);
    let count: usize = env_number("CQLQ_LICHESS_GAMES", 2000);
    let corpora: Vec<Corpus> = VARIANTS
        .iter()
        .enumerate()
        .map(|(index, &(name, rules))| Corpus::random(name, rules, count, 0x2545_f491_4f6c_dd1d ^ (index as u64 + 1)))
        .collect();
    let plans = Plans::new(Query::parse(QUERY).expect("query"));

    // Once, untimed: both engines read every game whole, and the plans are compiled.
    for corpus in &corpora {
        let ours = cqlq_replay(&corpus.text, &plans);
        let theirs = shakmaty_replay(&corpus.text);
        assert_eq!(ours, corpus.counts, "{}: cqlq replays every game whole", corpus.name);
        assert_eq!(theirs, corpus.counts, "{}: shakmaty replays every game whole", corpus.name);
    }
    println!(
        "{count} random games a variant (up to {MAX_PLIES} plies), query `{QUERY}`; 1 thread, {runs} rounds, medians"
    );

    let mut jobs: Vec<(Job<'_, Replayed>, Job<'_, Replayed>)> = corpora
        .iter()
        .map(|corpus| (Job::new(|| cqlq_replay(&corpus.text, &plans)), Job::new(|| shakmaty_replay(&corpus.text))))
        .collect();
    // Round robin: a machine getting slower or faster moves every job alike.
    for _ in 0..runs.max(1) {
        for (ours, theirs) in &mut jobs {
            ours.run();
            theirs.run();
        }
    }
    let results: Vec<(&Corpus, f64, f64)> = corpora
        .iter()
        .zip(jobs)
        .map(|(corpus, (ours, theirs))| {
            let per_ply = |job: Job<'_, Replayed>| {
                let (replayed, time) = job.median().expect("at least one run");
                assert_eq!(replayed, corpus.counts, "{}: every game replays", corpus.name);
                secs(time) * 1e9 / corpus.counts.plies as f64
            };
            (corpus, per_ply(ours), per_ply(theirs))
        })
        .collect();

    let (_, standard_ours, standard_theirs) = results[0];
    println!(
        "{:<18} {:>7} {:>9} {:>12} {:>11} {:>16} {:>11} {:>16}",
        "", "games", "plies", "cqlq ns/ply", "÷ Standard", "shakmaty ns/ply", "÷ Standard", "cqlq ÷ shakmaty"
    );
    for &(corpus, ours, theirs) in &results {
        println!(
            "{:<18} {:>7} {:>9} {:>12.1} {:>11.2} {:>16.1} {:>11.2} {:>16.2}",
            corpus.name,
            corpus.counts.games,
            corpus.counts.plies,
            ours,
            ours / standard_ours,
            theirs,
            theirs / standard_theirs,
            ours / theirs
        );
    }
}

/// What a replay read: its games and their plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Replayed {
    games: u64,
    plies: u64,
}

/// The games of one variant, as PGN.
struct Corpus {
    name: &'static str,
    text: String,
    counts: Replayed,
}

impl Corpus {
    /// `count` random legal games of a variant from its own start, each move drawn uniformly,
    /// written in shakmaty's SAN.
    fn random(name: &'static str, rules: Rules, count: usize, seed: u64) -> Corpus {
        let mut random = Random(seed);
        let mut text = String::new();
        let mut counts = Replayed::default();
        for game in 1..=count {
            text.push_str(&format!("[Event \"Random {game}\"]\n[Variant \"{name}\"]\n[Result \"*\"]\n\n"));
            let mut position = VariantPosition::new(rules);
            let mut line = String::new();
            for ply in 0..MAX_PLIES {
                if position.is_variant_end() {
                    break;
                }
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let chosen = moves[random.below(moves.len() as u64) as usize];
                let san = SanPlus::from_move_and_play_unchecked(&mut position, chosen).to_string();
                let token = if ply % 2 == 0 { format!("{}. {san}", ply / 2 + 1) } else { san };
                // Lines of at most 80 characters, as PGN is exported.
                if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                    text.push_str(&line);
                    text.push('\n');
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(&token);
                counts.plies += 1;
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push('*');
            text.push_str(&line);
            text.push_str("\n\n");
            counts.games += 1;
        }
        Corpus { name, text, counts }
    }
}

/// A tiny seeded generator (xorshift64*).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// cqlq's replay of `text` on the calling thread, as `cqlq search` replays a range of games.
fn cqlq_replay(text: &str, plans: &Plans) -> Replayed {
    let options = ReplayOptions { ends_input: true, ..ReplayOptions::main_lines(plans) };
    let records = replay_range(text.as_bytes(), &options);
    let mut replayed = Replayed::default();
    for record in &records {
        assert!(record.error.is_none(), "{:?}", record.error);
        replayed.games += 1;
        replayed.plies += u64::from(record.plies);
    }
    replayed
}

/// shakmaty's replay of `text` (as written by [`Corpus::random`]): each game starts at its
/// `Variant` tag, from that variant's start; every other token of the movetext but move
/// numbers and results is a move in SAN, parsed and played.
fn shakmaty_replay(text: &str) -> Replayed {
    let mut replayed = Replayed::default();
    let mut position: Option<VariantPosition> = None;
    for line in text.as_bytes().split(|&byte| byte == b'\n') {
        if let Some(tag) = line.strip_prefix(b"[Variant \"") {
            let name = tag.strip_suffix(b"\"]").expect("a tag");
            let rules = Rules::from_ascii(name).expect("a lichess variant");
            position = Some(VariantPosition::new(rules));
            replayed.games += 1;
            continue;
        }
        if line.first() == Some(&b'[') {
            continue;
        }
        let Some(position) = position.as_mut() else { continue };
        for token in line.split(|&byte| byte == b' ') {
            match token.first() {
                None | Some(b'0'..=b'9' | b'*') => continue,
                Some(_) => {}
            }
            let san = San::from_ascii(token).expect("SAN");
            let played = san.to_move(position).expect("a legal move");
            position.play_unchecked(played);
            replayed.plies += 1;
        }
    }
    replayed
}
