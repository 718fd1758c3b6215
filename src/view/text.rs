//! Words for the panel and the commands' text: counts, and names begun with a capital.

/// "1 skin", "2 skins", "0 skins": a count with its noun, singular only for one.
pub fn counted(count: usize, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

/// "three-quarter" → "Three-quarter".
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
