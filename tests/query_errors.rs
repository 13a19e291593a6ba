//! Every file of `tests/query_errors/` holds a query with mistakes; its snapshot is the full text
//! cqlq shows for it (for the variant named in the query, else Standard).

use cqlq::{Query, Variant};

fn rendered(source: &str, origin: &str) -> String {
    match Query::parse_for(source, Some(Variant::standard()).filter(|_| !source.contains("variant"))) {
        Err(error) => error.with_origin(origin).to_string(),
        Ok(query) => {
            let variant = query.variant().unwrap_or_else(Variant::standard);
            match query.compile(variant) {
                Err(error) => error.with_origin(origin).to_string(),
                Ok(_) => panic!("{origin} has no mistake"),
            }
        }
    }
}

#[test]
fn query_errors() {
    insta::glob!("query_errors/*.cql", |path| {
        let source = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        insta::assert_snapshot!(rendered(&source, name));
    });
}
