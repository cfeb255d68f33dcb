//! Numbering in order of first appearance: groups of a placement, locations
//! of a cycle, and every renaming of the canonical form.

/// `raw` with each distinct value replaced by the rank of its first
/// appearance: `[5, 3, 5, 9]` becomes `[0, 1, 0, 2]`.
pub fn renumber<T: PartialEq + Clone>(raw: &[T]) -> Vec<usize> {
    let mut seen: Vec<T> = Vec::new();
    raw.iter()
        .map(|g| {
            seen.iter().position(|s| s == g).unwrap_or_else(|| {
                seen.push(g.clone());
                seen.len() - 1
            })
        })
        .collect()
}
