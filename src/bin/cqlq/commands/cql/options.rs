//! CQL 6.2's command line, read as CQL reads it: options with one dash (two are accepted too),
//! some followed by one or two values, and the query file.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use cqlq::notation::pgn::cql_style::GAME_BUFFER;

/// How many games go between two progress lines by default (a dot every tenth of that).
pub const DEFAULT_LINE_INCREMENT: u64 = 10_000;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Search.
    Search,
    /// Print the options.
    Help,
    /// Print the version.
    Version,
}

/// A filter the command line adds to the query's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filter {
    /// `-player NAME`: either player's name holds NAME.
    Player(String),
    /// `-white NAME`.
    White(String),
    /// `-black NAME`.
    Black(String),
    /// `-event NAME`.
    Event(String),
    /// `-site NAME`.
    Site(String),
    /// `-year N [M]`: the year from N to M.
    Year(u64, u64),
    /// `-result R`.
    Result(String),
    /// `-fen FEN`: the board of the FEN.
    Fen(String),
    /// `-cql TEXT`: filters in the query language.
    Cql(String),
    /// `-similarposition [nosort] [notransform] F.pgn`: `similarposition` on the games of F.
    SimilarPosition {
        /// The file of games.
        file: String,
        /// The games found are not sorted by the game of F where they were found.
        nosort: bool,
        /// Positions compared as they stand only.
        notransform: bool,
    },
}

/// A transform the command line puts around the query's body and its own filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transform {
    /// `-flip`.
    Flip,
    /// `-flipcolor`.
    FlipColor,
    /// `-shift`.
    Shift,
}

/// The options of `cqlq cql`, as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CqlOptions {
    /// What to do.
    pub action: Action,
    /// The query file, as given.
    pub query_file: Option<PathBuf>,
    /// `-i`.
    pub input: Option<PathBuf>,
    /// `-o`.
    pub output: Option<PathBuf>,
    /// `-matchcount N [M]`: from N to M matching positions (N alone: exactly N).
    pub matchcount: Option<(u64, u64)>,
    /// `-gamenumber N [M]`: games N to M (N alone: game N).
    pub gamenumber: Option<(u64, u64)>,
    /// `-threads N`, or 1 for `-s`.
    pub threads: Option<u64>,
    /// `-silent`: no comment of CQL's in the games.
    pub silent: bool,
    /// `-quiet`: no mark of the matched positions.
    pub quiet: bool,
    /// `-noheader`: no `Game number N` comment.
    pub noheader: bool,
    /// `-showmatches`: `<N>` on the console for each game found.
    pub showmatches: bool,
    /// `-lineincrement N`: a progress line every N games.
    pub lineincrement: u64,
    /// `-mainline`: not in variations, whatever the query's header says.
    pub mainline: bool,
    /// `-variations`.
    pub variations: bool,
    /// `-nosettag`: `settag` gives no tags.
    pub nosettag: bool,
    /// `-noremovecomment`: `removecomment` removes no comment.
    pub noremovecomment: bool,
    /// `-matchstring TEXT`.
    pub matchstring: Option<String>,
    /// `-outputbuffersize N`: the bytes of the buffer each game found is written in (a
    /// longer game is cut, as CQL 6.2 cuts it).
    pub output_buffer: usize,
    /// The filters added to the body, in order.
    pub filters: Vec<Filter>,
    /// The transforms around the body, outermost first.
    pub transforms: Vec<Transform>,
}

impl Default for CqlOptions {
    fn default() -> Self {
        CqlOptions {
            action: Action::Search,
            query_file: None,
            input: None,
            output: None,
            matchcount: None,
            gamenumber: None,
            threads: None,
            silent: false,
            quiet: false,
            noheader: false,
            showmatches: false,
            lineincrement: DEFAULT_LINE_INCREMENT,
            output_buffer: GAME_BUFFER,
            mainline: false,
            variations: false,
            nosettag: false,
            noremovecomment: false,
            matchstring: None,
            filters: Vec::new(),
            transforms: Vec::new(),
        }
    }
}

/// What is wrong with a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// An option CQL 6.2 does not have.
    Unknown(String),
    /// An option of CQL 6.2 that cqlq does not offer, and why.
    Unsupported(String, &'static str),
    /// An option without the value it needs.
    MissingValue(String, &'static str),
    /// A value that is not what the option needs.
    BadValue(String, String, &'static str),
    /// An option that may be given once, given again.
    Twice(String),
    /// Two query files.
    TwoQueryFiles(PathBuf, PathBuf),
    /// `-quiet` and `-silent` together: each sets the level of comments.
    TwoCommentLevels,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(option) => write!(f, "unknown option {option} (cqlq cql -help lists the options)"),
            OptionError::Unsupported(option, why) => write!(f, "{option} is not supported by cqlq cql: {why}"),
            OptionError::MissingValue(option, what) => write!(f, "{option} needs {what}"),
            OptionError::BadValue(option, value, what) => write!(f, "{option} {value}: {what}"),
            OptionError::Twice(option) => write!(f, "{option} is given twice: give it once"),
            OptionError::TwoCommentLevels => {
                write!(f, "-quiet and -silent each set the level of comments: give one of them")
            }
            OptionError::TwoQueryFiles(first, second) => write!(
                f,
                "two query files, {} and {}: give one (CQL options start with -)",
                first.display(),
                second.display()
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// The options of CQL 6.2 that cqlq does not offer, and why.
const UNSUPPORTED: [(&str, &str); 7] = [
    ("a", "it converts a query to ASCII; cqlq queries are ASCII already"),
    ("u", "it converts a query to Unicode figurines; cqlq reads them but does not write them"),
    ("html", "it renders a query as HTML"),
    ("hhdb", "it reads the Heijden study database's own annotations"),
    ("vi", "it reads the Heijden study database"),
    ("parse", "CQL 6.2 does not support it either"),
    ("reversecolor", "cqlq's query language has flipcolor but no reversecolor"),
];

/// Reads the arguments after `cqlq cql`.
pub fn parse(args: &[OsString]) -> Result<CqlOptions, OptionError> {
    let mut options = CqlOptions::default();
    let mut args = Arguments { args, next: 0 };
    while let Some(arg) = args.next() {
        let Some(name) = option_name(arg) else {
            let path = PathBuf::from(arg);
            match options.query_file.replace(path.clone()) {
                Some(first) => return Err(OptionError::TwoQueryFiles(first, path)),
                None => continue,
            }
        };
        let option = arg.to_string_lossy().into_owned();
        read_option(&mut options, name, &option, &mut args)?;
    }
    Ok(options)
}

/// The name of an option (`-quiet`, `--quiet`: `quiet`), or `None` for a path.
fn option_name(arg: &OsString) -> Option<&str> {
    let text = arg.to_str()?;
    let name = text.strip_prefix("--").or_else(|| text.strip_prefix('-'))?;
    (!name.is_empty()).then_some(name)
}

/// Reads one option and its values into `options`.
fn read_option(
    options: &mut CqlOptions,
    name: &str,
    option: &str,
    args: &mut Arguments<'_>,
) -> Result<(), OptionError> {
    match name {
        "help" | "h" => options.action = Action::Help,
        "version" => options.action = Action::Version,
        "i" | "input" => set_once(&mut options.input, args.path(option)?, option)?,
        "o" | "output" => set_once(&mut options.output, args.path(option)?, option)?,
        "matchcount" => set_once(&mut options.matchcount, args.range(option, 0)?, option)?,
        "g" | "gamenumber" => set_once(&mut options.gamenumber, args.range(option, 1)?, option)?,
        "threads" => options.threads = Some(args.positive(option)?),
        "s" | "singlethreaded" => options.threads = Some(1),
        "silent" if options.quiet => return Err(OptionError::TwoCommentLevels),
        "quiet" if options.silent => return Err(OptionError::TwoCommentLevels),
        "silent" => options.silent = true,
        "quiet" => options.quiet = true,
        "noheader" => options.noheader = true,
        "showmatches" => options.showmatches = true,
        "lineincrement" => options.lineincrement = args.positive(option)?,
        "outputbuffersize" => {
            // CQL 6.2's bounds.
            let size = args.positive(option)?;
            options.output_buffer =
                usize::try_from(size).ok().filter(|size| (100_000..=100_000_000).contains(size)).ok_or_else(|| {
                    OptionError::BadValue(option.to_owned(), size.to_string(), "from 100000 to 100000000")
                })?;
        }
        "mainline" => options.mainline = true,
        "variations" => options.variations = true,
        "matchstring" => options.matchstring = Some(args.text(option, "a comment text")?),
        "player" | "white" | "black" | "event" | "site" => {
            let name_filter = args.text(option, "a name")?;
            let filter = match name {
                "player" => Filter::Player(name_filter),
                "white" => Filter::White(name_filter),
                "black" => Filter::Black(name_filter),
                "event" => Filter::Event(name_filter),
                _ => Filter::Site(name_filter),
            };
            add_once(&mut options.filters, filter, option)?;
        }
        "year" => {
            let (low, high) = args.range(option, 0)?;
            add_once(&mut options.filters, Filter::Year(low, high), option)?;
        }
        "result" => {
            let result = args.text(option, "a result: 1-0, 0-1 or 1/2-1/2")?;
            if !matches!(result.as_str(), "1-0" | "0-1" | "1/2-1/2") {
                return Err(OptionError::BadValue(option.to_owned(), result, "a result is 1-0, 0-1 or 1/2-1/2"));
            }
            add_once(&mut options.filters, Filter::Result(result), option)?;
        }
        "fen" => {
            let fen = args.text(option, "a FEN, or the board part of one")?;
            add_once(&mut options.filters, Filter::Fen(fen), option)?;
        }
        "cql" => options.filters.push(Filter::Cql(args.text(option, "filters of the query language")?)),
        "similarposition" => options.filters.push(similar_position(option, args)?),
        "flip" => options.transforms.push(Transform::Flip),
        "flipcolor" => options.transforms.push(Transform::FlipColor),
        "shift" => options.transforms.push(Transform::Shift),
        "nosettag" => options.nosettag = true,
        "noremovecomment" => options.noremovecomment = true,
        _ => {
            return Err(match UNSUPPORTED.iter().find(|(unsupported, _)| *unsupported == name) {
                Some((_, why)) => OptionError::Unsupported(option.to_owned(), why),
                None => OptionError::Unknown(option.to_owned()),
            });
        }
    }
    Ok(())
}

/// `-similarposition`: its words `nosort` and `notransform`, then the name of a PGN file.
fn similar_position(option: &str, args: &mut Arguments<'_>) -> Result<Filter, OptionError> {
    let (mut nosort, mut notransform) = (false, false);
    loop {
        let word = args.text(option, "the name of a PGN file (after nosort or notransform if any)")?;
        match word.as_str() {
            "nosort" => nosort = true,
            "notransform" => notransform = true,
            _ => {
                let extension = Path::new(&word).extension().and_then(|extension| extension.to_str());
                if !extension.is_some_and(|extension| extension.eq_ignore_ascii_case("pgn")) {
                    return Err(OptionError::BadValue(option.to_owned(), word, "the name of a PGN file ends in .pgn"));
                }
                return Ok(Filter::SimilarPosition { file: word, nosort, notransform });
            }
        }
    }
}

/// Sets an option that may be given once.
fn set_once<T>(slot: &mut Option<T>, value: T, option: &str) -> Result<(), OptionError> {
    match slot.replace(value) {
        Some(_) => Err(OptionError::Twice(option.to_owned())),
        None => Ok(()),
    }
}

/// Adds a filter of a kind that may be given once.
fn add_once(filters: &mut Vec<Filter>, filter: Filter, option: &str) -> Result<(), OptionError> {
    if filters.iter().any(|given| std::mem::discriminant(given) == std::mem::discriminant(&filter)) {
        return Err(OptionError::Twice(option.to_owned()));
    }
    filters.push(filter);
    Ok(())
}

/// The arguments, read one after another.
struct Arguments<'a> {
    args: &'a [OsString],
    next: usize,
}

impl<'a> Arguments<'a> {
    fn next(&mut self) -> Option<&'a OsString> {
        let arg = self.args.get(self.next)?;
        self.next += 1;
        Some(arg)
    }

    /// The next argument, whatever it is, as the value of `option`.
    fn value(&mut self, option: &str, what: &'static str) -> Result<&'a OsString, OptionError> {
        self.next().ok_or_else(|| OptionError::MissingValue(option.to_owned(), what))
    }

    fn path(&mut self, option: &str) -> Result<PathBuf, OptionError> {
        Ok(PathBuf::from(self.value(option, "a file name")?))
    }

    fn text(&mut self, option: &str, what: &'static str) -> Result<String, OptionError> {
        let value = self.value(option, what)?;
        value.to_str().map(str::to_owned).ok_or_else(|| {
            OptionError::BadValue(option.to_owned(), value.to_string_lossy().into_owned(), "not UTF-8 text")
        })
    }

    /// A number of 1 or more.
    fn positive(&mut self, option: &str) -> Result<u64, OptionError> {
        let value = self.text(option, "a number of 1 or more")?;
        match value.parse::<u64>() {
            Ok(number) if number > 0 => Ok(number),
            _ => Err(OptionError::BadValue(option.to_owned(), value, "not a number of 1 or more")),
        }
    }

    /// `N [M]`: one number (N to N), or two, each at least `least`.
    fn range(&mut self, option: &str, least: u64) -> Result<(u64, u64), OptionError> {
        let what = if least == 0 { "a number, or two" } else { "a number of 1 or more, or two" };
        let first = self.text(option, what)?;
        let low = number_at_least(&first, least).ok_or(OptionError::BadValue(option.to_owned(), first, what))?;
        let high = match self.args.get(self.next).and_then(|next| next.to_str()).and_then(|next| next.parse().ok()) {
            Some(high) => {
                self.next += 1;
                high
            }
            None => low,
        };
        if high < low {
            return Err(OptionError::BadValue(option.to_owned(), format!("{low} {high}"), "the range runs backwards"));
        }
        Ok((low, high))
    }
}

fn number_at_least(text: &str, least: u64) -> Option<u64> {
    text.parse::<u64>().ok().filter(|number| *number >= least)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(args: &[&str]) -> Result<CqlOptions, OptionError> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        parse(&args)
    }

    #[test]
    fn options_with_one_dash_or_two_and_their_values() {
        let options = read(&[
            "-i",
            "games.pgn",
            "--output",
            "out.pgn",
            "-matchcount",
            "2",
            "5",
            "-g",
            "3",
            "-year",
            "1850",
            "1860",
            "-player",
            "Fischer",
            "-cql",
            "check",
            "-cql",
            "-1 < 2",
            "-flip",
            "-s",
            "-quiet",
            "query.cql",
        ])
        .unwrap();
        assert_eq!(options.input, Some(PathBuf::from("games.pgn")));
        assert_eq!(options.output, Some(PathBuf::from("out.pgn")));
        assert_eq!(options.matchcount, Some((2, 5)));
        assert_eq!(options.gamenumber, Some((3, 3)));
        assert_eq!(options.threads, Some(1));
        assert!(options.quiet);
        assert_eq!(
            options.filters,
            [
                Filter::Year(1850, 1860),
                Filter::Player("Fischer".into()),
                Filter::Cql("check".into()),
                Filter::Cql("-1 < 2".into())
            ]
        );
        assert_eq!(options.transforms, [Transform::Flip]);
        assert_eq!(options.query_file, Some(PathBuf::from("query.cql")));
    }

    #[test]
    fn mistakes_are_named() {
        let error = |args: &[&str]| read(args).unwrap_err().to_string();
        assert_eq!(error(&["-bogus"]), "unknown option -bogus (cqlq cql -help lists the options)");
        assert!(error(&["-hhdb", "x"]).starts_with("-hhdb is not supported by cqlq cql: "));
        assert_eq!(error(&["-threads", "0"]), "-threads 0: not a number of 1 or more");
        assert_eq!(error(&["-i"]), "-i needs a file name");
        assert_eq!(error(&["-g", "0"]), "-g 0: a number of 1 or more, or two");
        assert_eq!(error(&["-g", "3", "2"]), "-g 3 2: the range runs backwards");
        assert_eq!(error(&["-player", "a", "-player", "b"]), "-player is given twice: give it once");
        assert_eq!(error(&["-result", "1-1"]), "-result 1-1: a result is 1-0, 0-1 or 1/2-1/2");
        assert!(error(&["a.cql", "b.cql"]).starts_with("two query files, a.cql and b.cql"));
    }

    #[test]
    fn options_that_turn_edits_off_are_read() {
        let options = read(&["-nosettag", "-noremovecomment"]).unwrap();
        assert!(options.nosettag && options.noremovecomment);
        assert_eq!(read(&["-version"]).unwrap().action, Action::Version);
    }
}
