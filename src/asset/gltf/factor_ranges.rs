//! An extension's factors checked against their ranges: a value outside is a warning that
//! names the `(extension pointer, property)`, and the default is used (the KHR_materials_*
//! extensions' and MToon's).

use glam::Vec3;

/// `value` where it is a number from 0 to 1, else `default` with a warning that names the
/// `(extension pointer, property)`.
pub fn unit_or(value: f32, default: f32, (at, property): (&str, &str), warnings: &mut Vec<String>) -> f32 {
    if (0.0..=1.0).contains(&value) {
        return value;
    }
    warnings.push(format!(
        "{at}/{property}: {value} is not a number from 0 to 1 ({default} used)"
    ));
    default
}

/// `value` where it is a finite number of `least` or more, else `default` with a warning.
pub fn at_least_or(
    value: f32,
    least: f32,
    default: f32,
    (at, property): (&str, &str),
    warnings: &mut Vec<String>,
) -> f32 {
    if value.is_finite() && value >= least {
        return value;
    }
    warnings.push(format!(
        "{at}/{property}: {value} is not a number of {least} or more ({default} used)"
    ));
    default
}

/// `value` where it is a finite number, else `default` with a warning.
pub fn finite_or(value: f32, default: f32, (at, property): (&str, &str), warnings: &mut Vec<String>) -> f32 {
    if value.is_finite() {
        return value;
    }
    warnings.push(format!(
        "{at}/{property}: {value} is not a finite number ({default} used)"
    ));
    default
}

/// `rgb` as a colour where its numbers are from 0 to `most`, else `default` with a warning.
pub fn colour_or(
    rgb: [f32; 3],
    default: Vec3,
    most: f32,
    (at, property): (&str, &str),
    warnings: &mut Vec<String>,
) -> Vec3 {
    let colour = Vec3::from(rgb);
    if colour.is_finite() && colour.min_element() >= 0.0 && colour.max_element() <= most {
        return colour;
    }
    warnings.push(format!(
        "{at}/{property}: {rgb:?} is not a colour of numbers from 0 to {most} ({default} used)"
    ));
    default
}
