//! Counts in words, for the panel and the commands' text.

/// "1 skin", "2 skins", "0 skins": a count with its noun, singular only for one.
pub fn counted(count: usize, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}
