//! An OBJ's face indices held against what the file can describe, before ufbx reads it. No
//! vertex, texture coordinate or normal line is shorter than `v 0\n`, so a file of N bytes holds
//! at most N / 4 of each: an index beyond that is no slip of one past the end (which ufbx
//! clamps, with a warning) but a number that cannot be right, and the file is refused at once,
//! before the reader allocates anything for its faces.

/// The fewest bytes a `v`, `vt` or `vn` line takes (`v 0` and its line end).
const SHORTEST_ELEMENT_LINE: usize = 4;

/// A face index that points past every element a file of its size could hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbsurdIndex {
    /// 1-based, as editors number lines.
    pub line: usize,
    pub index: i64,
    /// The most elements of one kind the file could hold.
    pub most: usize,
}

/// The first face index of the OBJ text `bytes` (positive, or negative and counted back) whose
/// size is beyond any element the file could hold; None when every index could be right.
pub fn absurd_index(bytes: &[u8]) -> Option<AbsurdIndex> {
    let most = bytes.len() / SHORTEST_ELEMENT_LINE;
    let within = |index: i64| index.unsigned_abs() <= most as u64;
    for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.trim_ascii_start();
        let Some(corners) = line
            .strip_prefix(b"f")
            .filter(|rest| rest.first().is_some_and(u8::is_ascii_whitespace))
        else {
            continue;
        };
        let indices = (corners.split(|b| b.is_ascii_whitespace() || *b == b'/'))
            .filter_map(|field| std::str::from_utf8(field).ok()?.parse::<i64>().ok());
        for index in indices {
            if !within(index) {
                return Some(AbsurdIndex {
                    line: number + 1,
                    index,
                    most,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_past_what_the_file_can_hold_is_found_with_its_line() {
        let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n  f 1/1/1 2//2 1000000000\n";
        let found = absurd_index(obj).unwrap();
        assert_eq!((found.line, found.index, found.most), (5, 1_000_000_000, obj.len() / 4));
        // Counted back from the end, and in a texture coordinate's place.
        assert_eq!(absurd_index(b"v 0 0 0\nf -99999 1 1\n").unwrap().index, -99_999);
        assert_eq!(absurd_index(b"v 0 0 0\nf 1/77777 1 1\n").unwrap().index, 77_777);
    }

    #[test]
    fn indices_a_file_could_hold_pass_even_past_its_last_vertex() {
        // One past the end: ufbx clamps it with a warning; not absurd.
        assert_eq!(absurd_index(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 5\n"), None);
        // Other lines' numbers are not face indices.
        assert_eq!(
            absurd_index(b"v 123456789 0 0\nfoo 99999999\ng f 99999999\nf 1 1 1\n"),
            None
        );
    }
}
