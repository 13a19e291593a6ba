//! Any bytes as a file of X-Decor move tables (see `native`): no panic, the splitter and the
//! reader agree, a game written again reads back to its moves.
#![no_main]

mod native;

use cqlq::rules::classical::xdecor::TABLE_FORMAT;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| native::check(&TABLE_FORMAT, false, data));
