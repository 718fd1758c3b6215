//! The one size limit of every picture the commands write (`render`, `video`, `thumbnail`,
//! `sheet`, `curves`), said the same way by each: wgpu's default largest texture, which every
//! adapter rigscope runs on offers (llvmpipe's own limit too). A format may ask for less (an
//! MP4's H.264 level), and says so in its own words.

/// The largest picture, in pixels a side.
pub const MAX_SIDE: u32 = 8192;

/// What every size option says when a size is out of range.
pub fn out_of_range(text: &str) -> String {
    format!("{text}: sizes run from 1 to {MAX_SIDE} pixels a side")
}

/// `--size WIDTHxHEIGHT`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (width, height) = text
        .split_once(['x', 'X'])
        .ok_or("expected WIDTHxHEIGHT, e.g. 800x600")?;
    Ok((parse_side(width)?, parse_side(height)?))
}

/// One side, for `--size N` of a square picture and each side of `parse_size`.
pub fn parse_side(text: &str) -> Result<u32, String> {
    let side = text
        .trim()
        .parse::<u32>()
        .map_err(|_| format!("'{text}' is not a size in pixels"))?;
    if !(1..=MAX_SIDE).contains(&side) {
        return Err(out_of_range(text.trim()));
    }
    Ok(side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_out_of_range_is_refused_in_the_same_words() {
        assert_eq!(parse_size("800x600"), Ok((800, 600)));
        assert_eq!(parse_size("1X8192"), Ok((1, 8192)));
        assert_eq!(parse_side("256"), Ok(256));
        let expected = "sizes run from 1 to 8192 pixels a side";
        for bad in ["0x100", "5000x8193", "100x0"] {
            assert!(parse_size(bad).unwrap_err().ends_with(expected), "{bad}");
        }
        assert!(parse_side("0").unwrap_err().ends_with(expected));
        assert!(parse_side("9000").unwrap_err().starts_with("9000: "));
        assert!(parse_size("800").unwrap_err().contains("WIDTHxHEIGHT"));
        assert!(parse_size("ax600").unwrap_err().contains("'a' is not a size"));
    }
}
