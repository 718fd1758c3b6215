//! Reading the VRM extensions' JSON, which serde leaves as `Value`s: lists, finite numbers,
//! fixed-length number arrays and 3-vectors, with anything missing or malformed read as absent.

use glam::Vec3;
use serde_json::Value;

/// The items of list `key` (none when it is missing or not a list).
pub fn array<'a>(json: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    json.get(key).and_then(Value::as_array).into_iter().flatten()
}

/// Number `key`, when it is there and finite.
pub fn number(json: &Value, key: &str) -> Option<f32> {
    finite(json.get(key))
}

/// A 3-vector from `[x, y, z]` or VRM 0.x's `{"x", "y", "z"}`, every component finite.
pub fn vec3(json: Option<&Value>) -> Option<Vec3> {
    let json = json?;
    match json {
        Value::Array(_) => numbers::<3>(json).map(Vec3::from),
        Value::Object(_) => Some(Vec3::new(
            finite(json.get("x"))?,
            finite(json.get("y"))?,
            finite(json.get("z"))?,
        )),
        _ => None,
    }
}

/// `[a, b, ...]` of exactly `N` finite numbers.
pub fn numbers<const N: usize>(json: &Value) -> Option<[f32; N]> {
    let items = json.as_array().filter(|items| items.len() == N)?;
    let mut out = [0.0; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = finite(Some(item))?;
    }
    Some(out)
}

fn finite(value: Option<&Value>) -> Option<f32> {
    value
        .and_then(Value::as_f64)
        .map(|v| v as f32)
        .filter(|v| v.is_finite())
}
