//! From byte offsets (the [`Origin`]s the text reader stores) to lines and
//! columns.

use std::fmt;

use litmus_core::ir::Origin;

/// A line and a column, both counted from 1. Columns count characters
/// (Unicode scalar values), as compilers do, so a tab is one column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The line, from 1.
    pub line: u32,
    /// The column in characters, from 1.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Where `origin` is in `src`, for an origin the text reader produced from
/// `src`. `None` for [`Origin::NONE`]. Never panics: an offset past the
/// end maps to the end, one inside a multi-byte character to the column
/// after that character.
///
/// ```
/// use litmus_core::ir::Origin;
/// use litmus_text::position;
/// let p = position("PTX t\n{ x=0; }", Origin(8)).unwrap();
/// assert_eq!((p.line, p.column), (2, 3));
/// assert_eq!(p.to_string(), "2:3");
/// ```
pub fn position(src: &str, origin: Origin) -> Option<Position> {
    LineIndex::new(src).position(origin)
}

/// The start of every line of a text, to map many offsets without
/// rescanning the text for each.
pub(crate) struct LineIndex<'s> {
    src: &'s str,
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    pub(crate) fn new(src: &'s str) -> LineIndex<'s> {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { src, starts }
    }

    pub(crate) fn position(&self, origin: Origin) -> Option<Position> {
        if !origin.is_some() {
            return None;
        }
        let offset = (origin.0 as usize).min(self.src.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        // Counting char starts in bytes needs no char boundary at `offset`.
        let column = self.src.as_bytes()[self.starts[line]..offset]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40)
            .count();
        Some(Position {
            line: clamp_u32(line + 1),
            column: clamp_u32(column + 1),
        })
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
