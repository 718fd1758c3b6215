//! Pops: a key that jumps away from the rest of its curve (see `curve_problems` for the
//! definition). Works on the change between consecutive keys of one property, as a length
//! (a vector component's difference, or the angle between two rotations), so translation,
//! scale, weights and rotations share it.

/// The change between consecutive keys of one property.
pub(super) struct KeyChanges<'a> {
    /// Key times.
    pub times: &'a [f32],
    /// `changes[i]`: how far the property moves from key `i` to key `i + 1` (≥ 0).
    pub changes: Vec<f32>,
    /// `returns[i]`: from key `i + 1` the property comes back to about where it was at key `i`
    /// (spans `i` and `i + 1` go out and back).
    pub returns: Vec<bool>,
    /// Changes this small are float noise.
    pub noise: f32,
}

/// A span that pops: from key `span` to key `span + 1`.
pub(super) struct Pop {
    pub span: usize,
    pub change: f32,
    /// How many times the curve's usual rate it moves at; `None` where the curve otherwise
    /// holds still.
    pub ratio: Option<f32>,
}

/// Fewer spans than this say too little about "the rest of the curve" to find pops.
pub const MIN_SPANS: usize = 3;
/// How many times faster than the rest a change between keys must be to pop.
pub const POP_RATIO: f32 = 5.0;

/// The spans of `keys` that pop.
pub(super) fn find_pops(keys: &KeyChanges) -> Vec<Pop> {
    let spans = keys.changes.len();
    if spans < MIN_SPANS || keys.times.len() != spans + 1 {
        return Vec::new();
    }
    let intervals: Vec<f32> = keys.times.windows(2).map(|t| t[1] - t[0]).collect();
    let usual_interval = median(&intervals);
    let rates: Vec<f32> = keys
        .changes
        .iter()
        .zip(&intervals)
        .map(|(change, interval)| change / interval.max(usual_interval).max(f32::MIN_POSITIVE))
        .collect();
    let moves = |i: usize| keys.changes[i] > keys.noise;
    let moving: Vec<f32> = (0..spans).filter(|&i| moves(i)).map(|i| rates[i]).collect();
    let usual_rate = if moving.len() >= MIN_SPANS {
        median(&moving)
    } else {
        0.0
    };
    // The fastest of the spans `before` and `after` (where they exist).
    let faster = |before: Option<usize>, after: usize| {
        before
            .into_iter()
            .chain([after])
            .filter_map(|i| rates.get(i))
            .fold(0.0f32, |a, &b| a.max(b))
    };
    // Spans `j` and `j + 1` go out to a stray key and back, much faster than around them.
    let stray_key = |j: usize| {
        j + 1 < spans
            && keys.returns.get(j).copied().unwrap_or(false)
            && rates[j].min(rates[j + 1]) > POP_RATIO * faster(j.checked_sub(1), j + 2)
    };
    (0..spans)
        .filter(|&i| {
            let alone = rates[i] > POP_RATIO * faster(i.checked_sub(1), i + 1);
            let stray = stray_key(i) || i.checked_sub(1).is_some_and(stray_key);
            moves(i) && rates[i] > POP_RATIO * usual_rate && (alone || stray)
        })
        .map(|span| Pop {
            span,
            change: keys.changes[span],
            ratio: (usual_rate > 0.0).then(|| rates[span] / usual_rate),
        })
        .collect()
}

/// The middle value (the upper one of an even count); 0 for none.
fn median(values: &[f32]) -> f32 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}
