//! File names made from test names, for the reports and the evidence
//! store: a test's name may hold `/`, `+` or spaces, a file name should not.

/// A file name for a test: its name with anything but letters, digits,
/// `-`, `_` and `.` replaced by `_`.
pub fn file_stem(test: &str) -> String {
    test.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}
