//! An OBJ line's words and numbers, read as ufbx reads them (ufbx.c, `ufbxi_obj_tokenize`,
//! `ufbxi_obj_parse_index`, `ufbxi_parse_double`), or not at all where ufbx might read them
//! otherwise: `obj_reader` then leaves the file to ufbx.

/// Splits a line into tokens as ufbx does: at spaces, tabs and carriage returns, up to a `#`
/// that starts any token but the first (a line's first `#` is a token of its own).
pub(super) fn tokenize<'a>(line: &'a [u8], tokens: &mut Vec<&'a [u8]>) {
    tokens.clear();
    let mut rest = line;
    loop {
        let start = rest.iter().position(|b| !matches!(b, b' ' | b'\t' | b'\r'));
        let Some(start) = start else { return };
        rest = &rest[start..];
        if rest[0] == b'#' {
            if !tokens.is_empty() {
                return;
            }
            tokens.push(&rest[..1]);
            rest = &rest[1..];
            continue;
        }
        let end = rest
            .iter()
            .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .unwrap_or(rest.len());
        tokens.push(&rest[..end]);
        rest = &rest[end..];
    }
}

/// The file's text from the first token after the command to the end of the last (ufbx's
/// names keep their inner spaces).
pub(super) fn rest_of_line<'a>(line: &'a [u8], tokens: &[&'a [u8]]) -> &'a [u8] {
    let (Some(first), Some(last)) = (tokens.get(1), tokens.last()) else {
        return &[];
    };
    let start = first.as_ptr() as usize - line.as_ptr() as usize;
    let end = last.as_ptr() as usize - line.as_ptr() as usize + last.len();
    &line[start..end]
}

/// A number as ufbx reads it, for the forms both it and Rust read to the same value: an
/// optional sign, digits with at most one point, and an optional exponent of 1 to 4 digits,
/// whose value is finite and not a non-zero number rounded to zero.
fn number(token: &[u8]) -> Option<f64> {
    let unsigned = token
        .strip_prefix(b"-")
        .or_else(|| token.strip_prefix(b"+"))
        .unwrap_or(token);
    let (mantissa, exponent) = match unsigned.iter().position(|&b| b == b'e' || b == b'E') {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let digits = mantissa.iter().filter(|b| b.is_ascii_digit()).count();
    let points = mantissa.iter().filter(|&&b| b == b'.').count();
    let plain = digits > 0 && digits + points == mantissa.len() && points <= 1 && mantissa.len() <= 40;
    let exponent_fits = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(b"-").or_else(|| e.strip_prefix(b"+")).unwrap_or(e);
        (1..=4).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit)
    });
    if !(plain && exponent_fits) {
        return None;
    }
    let value: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    let vanished = value == 0.0 && mantissa.iter().any(|&b| b.is_ascii_digit() && b != b'0');
    (value.is_finite() && !vanished).then_some(value)
}

/// The first `N` numbers after a line's command (any after them are not read, as in ufbx).
pub(super) fn numbers<const N: usize>(tokens: &[&[u8]]) -> Option<[f64; N]> {
    let mut values = [0.0; N];
    for (value, token) in values.iter_mut().zip(tokens.get(1..=N)?) {
        *value = number(token)?;
    }
    Some(values)
}

/// A corner's position, UV and normal indices as written (`a/b/c`, 1-based or negative),
/// `None` for one left out or written as 0; `None` overall for text ufbx reads differently.
pub(super) fn indices(token: &[u8]) -> Option<[Option<i64>; 3]> {
    let mut fields = token.splitn(3, |&b| b == b'/');
    let mut next = || -> Option<Option<i64>> {
        let field = fields.next().unwrap_or(&[]);
        let (negative, digits) = match field.strip_prefix(b"-") {
            Some(digits) => (true, digits),
            None => (false, field),
        };
        if !digits.iter().all(u8::is_ascii_digit) || digits.len() > 18 || field.contains(&b'/') {
            return None;
        }
        let value: i64 = std::str::from_utf8(digits).ok()?.parse().unwrap_or(0);
        Some(match (negative, value) {
            (false, 0) => None,
            (true, v) => Some(-v),
            (false, v) => Some(v),
        })
    };
    let indices = [next()?, next()?, next()?];
    // A fourth field (`1/2/3/4`) ufbx ignores; this reader leaves it to ufbx.
    fields.next().is_none().then_some(indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_ufbx_reads_them_or_not_at_all() {
        assert_eq!(number(b"-1.5e2"), Some(-150.0));
        assert_eq!(number(b".5"), Some(0.5));
        assert_eq!(number(b"+2."), Some(2.0));
        // Forms ufbx reads otherwise (or refuses) are left to it.
        let odd = [
            &b"inf"[..],
            b"nan",
            b"1e",
            b".",
            b"1.2.3",
            b"0x10",
            b"1e12345",
            b"1,5",
            b"1e999",
            b"1e-999",
        ];
        for other in odd {
            assert_eq!(number(other), None, "{}", String::from_utf8_lossy(other));
        }
    }

    #[test]
    fn corners_are_read_with_left_out_and_negative_indices() {
        assert_eq!(indices(b"3"), Some([Some(3), None, None]));
        assert_eq!(indices(b"3//-2"), Some([Some(3), None, Some(-2)]));
        assert_eq!(indices(b"1/2/3"), Some([Some(1), Some(2), Some(3)]));
        assert_eq!(indices(b"1/2/3/4"), None);
        assert_eq!(indices(b"1a"), None);
    }

    #[test]
    fn tokens_end_at_a_comment_but_a_first_hash_is_a_token() {
        let mut tokens = Vec::new();
        tokenize(b"  f 1 2\t3 # note\r", &mut tokens);
        assert_eq!(tokens, [&b"f"[..], b"1", b"2", b"3"]);
        tokenize(b"#MRGB ff", &mut tokens);
        assert_eq!(tokens, [&b"#"[..], b"MRGB", b"ff"]);
    }
}
