//! `similarposition [nosort] [notransform] "F.pgn"`.

use std::sync::Arc;

use pest::iterators::Pair;

use super::{Builder, Rule, span_of, string};
use crate::query::ast::{Expr, ExprKind, Word};
use crate::query::check::Type;
use crate::query::diagnostic::Diagnostic;
use crate::query::similar::SimilarGames;

/// The label of the order `similarposition` puts the games found in.
const SORT_LABEL: &str = "submission game";

impl Builder {
    /// `similarposition`: the filter, then (unless `nosort`) the games sorted by the least game
    /// number of the file where their positions were found.
    pub(super) fn similar_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let (mut nosort, mut notransform) = (false, false);
        let mut file = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::similar_option if part.as_str() == "nosort" => nosort = true,
                Rule::similar_option => notransform = true,
                Rule::string => file = Some((string(Some(part.clone())), span_of(&part))),
                _ => {}
            }
        }
        let refused = (ExprKind::Word(Word::False), 1);
        let Some((file, file_span)) = file.filter(|(file, _)| !file.is_empty()) else {
            let message = "'similarposition' is followed by the name of a file of games in quotes, as in \
                           similarposition \"studies.pgn\"";
            self.diagnostics.push(Diagnostic::new(span, message));
            return refused;
        };
        let extension = std::path::Path::new(&file).extension().and_then(|extension| extension.to_str());
        if !extension.is_some_and(|extension| extension.eq_ignore_ascii_case("pgn")) {
            let message = format!("'similarposition' reads a PGN file, whose name ends in .pgn: \"{file}\" does not");
            self.diagnostics.push(Diagnostic::new(file_span, message));
            return refused;
        }
        let games = match self.similar.first() {
            Some((first, _)) if first.file() == file && first.notransform() == notransform => first.clone(),
            Some((first, _)) => {
                let message = if first.file() == file {
                    "every 'similarposition' of a query compares positions in the same way: 'notransform' is given \
                     to one and not to another"
                        .to_owned()
                } else {
                    format!(
                        "a query reads one file of games with 'similarposition': \"{}\" is named before \"{file}\"",
                        first.file()
                    )
                };
                self.diagnostics.push(Diagnostic::new(span, message));
                return refused;
            }
            None => Arc::new(SimilarGames::new(file, notransform)),
        };
        let variable = format!("similarposition {}", self.similar.len());
        self.similar.push((games.clone(), span));
        let similar = Expr { kind: ExprKind::SimilarPosition { games, variable: variable.clone() }, span };
        if nosort {
            return (similar.kind, 1);
        }
        let least = Expr { kind: ExprKind::Variable { name: variable, ty: Type::Number }, span };
        let sort =
            ExprKind::Sort { min: true, label: Some(SORT_LABEL.to_owned()), quiet: false, value: Box::new(least) };
        (ExprKind::Block(vec![similar, Expr { kind: sort, span }]), 2)
    }
}
