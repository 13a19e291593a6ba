//! What the pieces do to a laser beam: the table of `beam_table.txt`, read when cqlq is
//! compiled (a mistake in it is a compile error), and the ways a beam travels.

/// The kinds of Laser Chess pieces, in the order of the variant's alphabet (`K S D B L`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaserKind {
    /// Removed when the beam reaches it from any side; its owner loses.
    King,
    /// A mirror on both sides; swaps places with a neighbour; never removed.
    Switch,
    /// A shield on one face.
    Defender,
    /// A mirror on one side.
    Deflector,
    /// Fires the beam; never moves.
    Laser,
}

impl LaserKind {
    /// Every kind, in the order of the alphabet.
    pub const ALL: [LaserKind; 5] =
        [LaserKind::King, LaserKind::Switch, LaserKind::Defender, LaserKind::Deflector, LaserKind::Laser];

    /// The kind's letter in Setup Notation and in the variant's alphabet.
    #[must_use]
    pub const fn letter(self) -> &'static str {
        match self {
            LaserKind::King => "K",
            LaserKind::Switch => "S",
            LaserKind::Defender => "D",
            LaserKind::Deflector => "B",
            LaserKind::Laser => "L",
        }
    }

    /// The kind's name, as the table writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LaserKind::King => "King",
            LaserKind::Switch => "Switch",
            LaserKind::Defender => "Defender",
            LaserKind::Deflector => "Deflector",
            LaserKind::Laser => "Laser",
        }
    }
}

/// The way a beam travels: up is towards the last rank, right towards the last file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Travel {
    /// Towards the last rank.
    Up,
    /// Towards the last file.
    Right,
    /// Towards rank 1.
    Down,
    /// Towards file `a`.
    Left,
}

impl Travel {
    /// Every way, clockwise from up.
    pub const ALL: [Travel; 4] = [Travel::Up, Travel::Right, Travel::Down, Travel::Left];

    /// The way after `quarters` quarter turns clockwise.
    #[must_use]
    pub const fn turned(self, quarters: u8) -> Travel {
        Travel::ALL[(self as usize + quarters as usize) % 4]
    }

    /// The way a Laser of this orientation fires: up, turned.
    #[must_use]
    pub const fn fired(orientation: u8) -> Travel {
        Travel::Up.turned(orientation)
    }

    /// The step along files and ranks.
    #[must_use]
    pub const fn step(self) -> (i8, i8) {
        match self {
            Travel::Up => (0, 1),
            Travel::Right => (1, 0),
            Travel::Down => (0, -1),
            Travel::Left => (-1, 0),
        }
    }

    /// The word the table writes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Travel::Up => "up",
            Travel::Right => "right",
            Travel::Down => "down",
            Travel::Left => "left",
        }
    }
}

/// What a piece does to a beam that reaches its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The beam goes on, this way.
    Go(Travel),
    /// The beam ends; nothing is removed.
    Stop,
    /// The beam ends and the piece is removed.
    Kill,
}

/// The effect of each kind, orientation and way of travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeamTable {
    effects: [[[Effect; 4]; 4]; 5],
}

/// The table the rules play by.
pub const BEAM_TABLE: BeamTable = BeamTable::parse(include_str!("beam_table.txt"));

impl BeamTable {
    /// What a piece of `kind` turned `orientation` quarter turns does to a beam travelling
    /// `travel`.
    #[must_use]
    #[inline]
    pub const fn effect(&self, kind: LaserKind, orientation: u8, travel: Travel) -> Effect {
        self.effects[kind as usize][(orientation & 3) as usize][travel as usize]
    }

    /// Reads the table: each row a kind, an orientation and four effects; `#` starts a
    /// comment. Every kind and orientation has exactly one row, or the table does not compile.
    const fn parse(text: &str) -> BeamTable {
        let bytes = text.as_bytes();
        let mut effects = [[[Effect::Stop; 4]; 4]; 5];
        let mut seen = [[false; 4]; 5];
        let mut at = 0;
        while at < bytes.len() {
            let mut end = at;
            while end < bytes.len() && bytes[end] != b'\n' {
                end += 1;
            }
            let (line, _) = bytes.split_at(end);
            let (_, line) = line.split_at(at);
            let mut words = Words { line, at: 0 };
            if let Some(kind) = words.next() {
                let kind = kind_named(kind);
                let orientation = match words.next() {
                    Some([digit @ b'0'..=b'3']) => (*digit - b'0') as usize,
                    _ => panic!("beam table: an orientation is 0 to 3"),
                };
                assert!(!seen[kind as usize][orientation], "beam table: a row is written twice");
                seen[kind as usize][orientation] = true;
                let mut way = 0;
                while way < 4 {
                    effects[kind as usize][orientation][way] = match words.next() {
                        Some(word) => effect_named(word),
                        None => panic!("beam table: a row has four effects"),
                    };
                    way += 1;
                }
                assert!(words.next().is_none(), "beam table: a row has four effects");
            }
            at = end + 1;
        }
        let mut kind = 0;
        while kind < 5 {
            let mut orientation = 0;
            while orientation < 4 {
                assert!(seen[kind][orientation], "beam table: a kind and orientation have no row");
                orientation += 1;
            }
            kind += 1;
        }
        BeamTable { effects }
    }
}

/// The words of a line of the table, up to a `#`.
struct Words<'a> {
    line: &'a [u8],
    at: usize,
}

impl<'a> Words<'a> {
    const fn next(&mut self) -> Option<&'a [u8]> {
        while self.at < self.line.len() && matches!(self.line[self.at], b' ' | b'\t' | b'\r') {
            self.at += 1;
        }
        if self.at >= self.line.len() || self.line[self.at] == b'#' {
            return None;
        }
        let start = self.at;
        while self.at < self.line.len() && !matches!(self.line[self.at], b' ' | b'\t' | b'\r' | b'#') {
            self.at += 1;
        }
        let (word, _) = self.line.split_at(self.at);
        let (_, word) = word.split_at(start);
        Some(word)
    }
}

/// Whether two words are the same bytes.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn kind_named(word: &[u8]) -> LaserKind {
    let mut i = 0;
    while i < LaserKind::ALL.len() {
        if same(word, LaserKind::ALL[i].name().as_bytes()) {
            return LaserKind::ALL[i];
        }
        i += 1;
    }
    panic!("beam table: a row starts with a kind of piece")
}

const fn effect_named(word: &[u8]) -> Effect {
    if same(word, b"stop") {
        return Effect::Stop;
    }
    if same(word, b"kill") {
        return Effect::Kill;
    }
    let mut i = 0;
    while i < Travel::ALL.len() {
        if same(word, Travel::ALL[i].name().as_bytes()) {
            return Effect::Go(Travel::ALL[i]);
        }
        i += 1;
    }
    panic!("beam table: an effect is up, right, down, left, stop or kill")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Turning a piece turns what it does: its table at each orientation is the table at 0
    /// with every way turned as much.
    #[test]
    fn each_orientation_is_the_first_turned() {
        for kind in LaserKind::ALL {
            for orientation in 0..4u8 {
                for travel in Travel::ALL {
                    let base = BEAM_TABLE.effect(kind, 0, travel.turned(4 - orientation));
                    let turned = match base {
                        Effect::Go(way) => Effect::Go(way.turned(orientation)),
                        other => other,
                    };
                    assert_eq!(
                        BEAM_TABLE.effect(kind, orientation, travel),
                        turned,
                        "{kind:?} {orientation} {travel:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_pieces_do_what_the_rules_say() {
        use Effect::{Go, Kill, Stop};
        use Travel::{Down, Left, Right, Up};
        // The mirror of a Deflector at 0 faces down-left.
        assert_eq!(BEAM_TABLE.effect(LaserKind::Deflector, 0, Up), Go(Left));
        assert_eq!(BEAM_TABLE.effect(LaserKind::Deflector, 0, Right), Go(Down));
        assert_eq!(BEAM_TABLE.effect(LaserKind::Deflector, 0, Down), Kill);
        // A Defender's shield faces up at 0: a beam coming down meets it.
        assert_eq!(BEAM_TABLE.effect(LaserKind::Defender, 0, Down), Stop);
        assert_eq!(BEAM_TABLE.effect(LaserKind::Defender, 0, Up), Kill);
        // A Switch is never removed; a King always is; a Laser stops every beam.
        for orientation in 0..4 {
            for travel in Travel::ALL {
                assert!(matches!(BEAM_TABLE.effect(LaserKind::Switch, orientation, travel), Go(_)));
                assert_eq!(BEAM_TABLE.effect(LaserKind::King, orientation, travel), Kill);
                assert_eq!(BEAM_TABLE.effect(LaserKind::Laser, orientation, travel), Stop);
            }
        }
        assert_eq!(Travel::fired(2), Down);
    }
}
